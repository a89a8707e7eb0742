"""Hostile raw entries (issue 11, defects 3 and 11, and the property suite).

* Defect 3: deduplication chose a newer copy that validation then rejected,
  so a valid entry vanished while the audit still added up.
* Defect 11: `depth=10**30` and `fetched_at="yesterday"` were accepted.
* Property: any JSON value, any field of any type, NUL bytes, deep nesting,
  huge values -> a validated entry or an invalid_input audit row with a
  reason, never an exception; the scan and the validate stage agree on
  which records are entries, so every input line is accounted for once.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.cleaning_steps import deduplicate_batch, parse_record, scan_batch, validate_batch
from tests.build_fixtures import _e
from transforms.dedup import hash64, winners
from transforms.pairs import entry_key, validate_raw_entry
from transforms.redundancy import CleaningConfig

SHANGDA = _e("201", "上海大学", "上海大学是上海市属综合性大学，位于上海市宝山区。",
             [("中文名", "上海大学"), ("所在地", "上海市宝山区")], fetched_at="2026-01-01T00:00:00Z")


def _line(entry) -> bytes:
    return json.dumps(entry, ensure_ascii=False).encode()


def _kept_after_dedup(records):
    """Run scan -> winners -> validate -> deduplicate as the build does; (kept locations, audit rows)."""
    tables = [t for r in records for t in scan_batch([r]).copies.values()]
    keep = winners(np.concatenate(tables)) if tables else {}
    valid = validate_batch(records)
    result = deduplicate_batch(valid.pairs, keep, CleaningConfig())
    return [loc for _, loc in result.pairs], valid.audit + result.audit


# --------------------------------------------------------------------- defect 3

def test_a_newer_but_invalid_copy_does_not_displace_the_valid_one():
    broken = dict(SHANGDA, fetched_at="2026-06-01T00:00:00Z", infobox="broken")
    kept, audit = _kept_after_dedup([("old.jsonl@0", _line(SHANGDA)), ("new.jsonl@0", _line(broken))])
    assert kept == ["old.jsonl@0"]
    assert [(r["source"], r["reason"]) for r in audit] == [("new.jsonl@0", "invalid_input")]
    assert "infobox: expected list" in audit[0]["detail"]


def test_the_copy_key_is_the_validated_key():
    """A title with spaces around it is one entry with its trimmed twin (validate strips it)."""
    a = dict(SHANGDA, lemma_id=None, title=" 上海大学 ", fetched_at="2026-06-01T00:00:00Z")
    b = dict(SHANGDA, lemma_id=None)
    kept, audit = _kept_after_dedup([("a@0", _line(a)), ("b@0", _line(b))])
    assert kept == ["a@0"] and [r["reason"] for r in audit if r["kind"] == "entry"] == ["duplicate_entry"]


# -------------------------------------------------------------------- defect 11

@pytest.mark.parametrize("depth, reason", [(10**30, "too large"), (-1, "negative"), (2**31, "too large")])
def test_depth_must_fit_the_schema(depth, reason):
    raw, detail = validate_raw_entry(dict(SHANGDA, depth=depth))
    assert raw is None and detail.startswith("depth:") and reason in detail


@pytest.mark.parametrize("value", ["yesterday", "2026-13-01T00:00:00Z", "1700000000", " "])
def test_fetched_at_must_be_an_iso_time(value):
    raw, detail = validate_raw_entry(dict(SHANGDA, fetched_at=value))
    assert raw is None and "fetched_at" in detail and "ISO 8601" in detail


@pytest.mark.parametrize("value", ["2026-11-01T00:00:00Z", "2026-11-01T08:00:00+08:00", "2026-11-01", None, ""])
def test_readable_fetched_at_is_accepted(value):
    raw, detail = validate_raw_entry(dict(SHANGDA, fetched_at=value, depth=2**31 - 1))
    assert raw is not None, detail


# ------------------------------------------------------------ property suite

FIELDS = ("url", "source", "lemma_id", "title", "subtitle", "summary", "infobox", "links", "tags", "depth",
          "seed", "fetched_at")

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
    st.sampled_from(["", "\x00", "a\x00b", "\ud800x", "2026-11-01T00:00:00Z", "yesterday"]),
    st.integers(1000, 100_000).map(lambda n: "鲁" * n),  # huge values
)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["name", "value", "value_links", "title", "url", "x"]),
                                                 inner, max_size=4)), max_leaves=12)


@st.composite
def hostile_entries(draw):
    """A real entry with some fields replaced by values of any type."""
    entry = dict(SHANGDA)
    for field in draw(st.lists(st.sampled_from(FIELDS), unique=True, max_size=5)):
        entry[field] = draw(json_values)
    if draw(st.booleans()):
        entry["extra"] = draw(json_values)
    return entry


def _encode(entry) -> bytes:
    try:
        return json.dumps(entry, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: written escaped, as JSON allows
        return json.dumps(entry).encode("ascii")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_entries())
def test_any_field_of_any_type_is_an_entry_or_an_audit_row_with_a_reason(entry):
    raw, bad = parse_record("h.jsonl@0", _encode(entry))
    assert (raw is None) != (bad is None)
    if bad is not None:
        assert bad["reason"] == "invalid_input" and bad["detail"].startswith("h.jsonl@0: ")
        assert len(bad["detail"]) < 2000  # a reason, not the record
    else:
        assert isinstance(raw["title"], str) and raw["title"].strip()
        # what passes can be written: no lone surrogate got through (the
        # decoder's vouching, transforms/safejson.py, skips the second look)
        json.dumps(raw, ensure_ascii=False).encode("utf-8")
        assert 0 <= raw["depth"] < 2**31
        entry_key(raw).encode("utf-8")  # writable everywhere
    # Parquet gives the same dicts without the JSON step.
    raw2, bad2 = parse_record("h.parquet#row=0", entry)
    assert (raw2 is None) == (raw is None)


garbage_lines = st.one_of(
    st.binary(max_size=200),
    st.builds(lambda n, c: (c[0] * n + c[1] * n).encode(), st.integers(0, 20000), st.sampled_from(["[]", "{}"])),
    st.builds(_encode, json_values),
    st.builds(_encode, hostile_entries()),
    st.builds(lambda b, k: _line(SHANGDA)[:k] + b, st.binary(max_size=8), st.integers(0, 200)),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(garbage_lines, min_size=1, max_size=8))
def test_every_line_is_accounted_for_once(lines):
    """inputs = valid entries + invalid_input rows + blank lines; the scan never fails on them,
    and it counts as copies exactly the records validate accepts."""
    records = [(f"g.jsonl@{i}", line) for i, line in enumerate(lines)]
    result = validate_batch(records)
    assert len(result.pairs) + len(result.audit) + result.blank == len(records)
    assert all(r["reason"] == "invalid_input" and r["detail"] for r in result.audit)
    scan = scan_batch(records)
    n_copies = sum(len(t) for t in scan.copies.values())
    assert n_copies == len(result.pairs)
    keys = {hash64(entry_key(raw)) for raw, _ in result.pairs}
    assert {int(k) for t in scan.copies.values() for k in t["key"]} == keys


# ------------------------------------------------------------------ the reader

def test_a_runaway_line_is_one_audit_row_and_never_held_whole(tmp_path, monkeypatch):
    """A file with no newline (or a 2 GB line) must not be read into memory as one record."""
    from apache_beam.io.range_trackers import OffsetRangeTracker

    import pipeline.read as read

    monkeypatch.setattr(read, "MAX_LINE_BYTES", 1000)
    path = tmp_path / "raw-long.jsonl"
    path.write_bytes(_line(SHANGDA) + b"\n" + b"x" * 5000 + b"\n" + _line(SHANGDA) + b"\n" + b"y" * 3000)
    src = read.JsonLinesSource(str(path))
    records = [r for batch in src.read_records(str(path), OffsetRangeTracker(0, OffsetRangeTracker.OFFSET_INFINITY))
               for r in batch]
    result = validate_batch(records)
    first = len(_line(SHANGDA)) + 1
    assert [loc.rsplit("@", 1)[1] for _, loc in result.pairs] == ["0", str(first + 5001)]
    assert [(r["source"].rsplit("@", 1)[1], r["detail"].split(": ", 1)[1]) for r in result.audit] == [
        (str(first), "a line of 5001 bytes, over the 1000 limit of one raw entry"),
        (str(2 * first + 5001), "a line of 3000 bytes, over the 1000 limit of one raw entry")]
    # Split in the middle of the long line: the second range starts at the next line.
    half = first + 2500
    second = [loc for batch in src.read_records(str(path), OffsetRangeTracker(half, OffsetRangeTracker.OFFSET_INFINITY))
              for loc, _ in batch]
    assert second[0] == f"{path}@{first + 5001}"


@pytest.mark.parametrize("infobox", [1, 2.5, True, "broken", {"name": "x"}])
def test_an_infobox_that_is_no_list_is_one_reason(infobox):
    """Found by the property above: `"infobox": 1` raised TypeError in validate (on main too)."""
    raw, detail = validate_raw_entry(dict(SHANGDA, infobox=infobox))
    assert raw is None and detail == f"infobox: expected list, got {type(infobox).__name__}"


# ------------------------------------- valid but hostile entries through every stage

_ALPHABET = st.sampled_from(list("上海大学鲁迅绍兴长江年月日1234567890.,，。、；：（）()《》-—/ \t\n\x00\u200b\u3000%"
                                 "零一二三四五六七八九十百千万亿米公里kmcm℃°é") + ["\U0001F600", "𠀀"])
_text = st.text(alphabet=_ALPHABET, max_size=60)
_value = st.one_of(_text, st.integers(1000, 20000).map(lambda n: "鲁" * n), st.integers(-10**20, 10**20),
                   st.floats(allow_nan=True, allow_infinity=True), st.none())
_valid_entries = st.fixed_dictionaries({
    "title": st.one_of(_text.filter(str.strip), st.just("上海大学")),
    "summary": st.one_of(_text, st.integers(1000, 20000).map(lambda n: "上海大学位于上海。" * (n // 9))),
    "subtitle": st.one_of(st.none(), _text),
    "lemma_id": st.one_of(st.none(), _text, st.integers(-10**30, 10**30)),
    "infobox": st.lists(st.fixed_dictionaries({
        "name": _text.filter(str.strip), "value": _value,
        "value_links": st.lists(st.fixed_dictionaries({"title": _text, "url": _text}), max_size=2)}), max_size=10),
    "tags": st.lists(_text, max_size=3),
    "depth": st.integers(0, 2**31 - 1),
})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_valid_entries, min_size=1, max_size=4))
def test_valid_hostile_entries_pass_every_stage_and_every_triple_is_accounted_for(entries):
    from pipeline.cleaning_steps import (finalise_batch, pair_relations, redundant_description_batch,
                                         redundant_triple_batch, relation_frequency_batch)
    from transforms.domain import DomainClassifier, DomainConfig, classify_pairs
    from transforms.entity_type import type_pair

    records = [(f"v.jsonl@{i}", _encode(e)) for i, e in enumerate(entries)]
    valid = validate_batch(records)
    assert len(valid.pairs) + len(valid.audit) == len(records)
    cfg = CleaningConfig()
    triple = redundant_triple_batch(valid.pairs, cfg)
    vocab = frozenset(i["name"].strip() for e in entries for i in e["infobox"])
    described = redundant_description_batch(triple.pairs, vocab, cfg)
    frequent = relation_frequency_batch(described.pairs, frozenset(pair_relations(described.pairs, None)), None)
    pairs = classify_pairs([type_pair(p) for p in frequent.pairs], DomainClassifier(DomainConfig(embedder="none")))
    final = finalise_batch(pairs)
    dropped = [r for step in (triple, described, frequent) for r in step.audit if r["kind"] == "triple"]
    kept = [r for r in final.audit if r["kind"] == "triple"]
    assert triple.triples_in == len(dropped) + len(kept)  # triples in = kept + dropped
    assert all(r["reason"] for r in dropped)
    entries_out = [r for step in (triple, described, frequent, final) for r in step.audit if r["kind"] == "entry"]
    assert len(entries_out) == len(valid.pairs)  # one final row per valid entry
