"""Entries given more than once (two crawls, a re-crawl): one copy is kept, the others are audited."""
from __future__ import annotations

import json
from collections import Counter

import pyarrow.parquet as pq
import pytest

import numpy as np

from pipeline.cleaning_steps import DUPLICATE_ENTRY, deduplicate_batch, scan_batch
from pipeline.cli import main
from tests.build_fixtures import ENTRIES, _e, write_fixture
from transforms.dedup import UNKNOWN_TIME, content_hash, fetched_seconds, hash64, winners
from transforms.redundancy import CleaningConfig


def _line(entry: dict) -> bytes:
    return json.dumps(entry, ensure_ascii=False).encode()


def _winners(records) -> dict:
    """{entry key hash: location hash kept}, the way the build combines the scan of each batch."""
    tables = [t for r in records for t in scan_batch([r]).copies.values()]
    return winners(np.concatenate(tables)) if tables else {}


def test_scan_finds_vocabulary_names_from_every_record_with_a_title():
    records = [
        ("a@0", _line({"title": "甲", "infobox": [{"name": " 出生地 ", "value": "x"}, {"name": ""}]})),
        ("a@1", b"{oops"),                                                          # malformed: nothing
        ("a@2", _line({"title": "", "infobox": [{"name": "国籍"}]})),               # no title: nothing
        # rejected later for its tags, but its infobox names are still Baike relations
        ("a@3", _line({"title": "乙", "tags": "x", "infobox": [{"name": "职业", "value": "y"}]})),
        ("b.parquet#row=0", {"title": "丙", "infobox": [{"name": "出生地", "value": "z"}, "bad item"]}),
    ]
    assert scan_batch(records).names == ["出生地", "职业", "出生地"]


def test_the_newest_copy_wins_then_the_smallest_content_then_location_hash():
    old = _e("201", "苏轼", "苏轼是北宋文学家。", [("朝代", "北宋")], fetched_at="2026-01-01T00:00:00Z")
    new = dict(old, summary="苏轼，北宋文学家、书法家。", fetched_at="2026-06-01T08:00:00+08:00")
    undated = dict(old, fetched_at=None)
    other = _e("202", "黄庭坚", "黄庭坚是北宋诗人。", [("朝代", "北宋")])
    bad_key = dict(old, subtitle=["not", "a string"])  # rejected by validate: never a candidate
    key = hash64("baidu:lemma:201")
    assert _winners([("b.jsonl@0", _line(old)), ("a.jsonl@7", _line(new)), ("c.jsonl@0", _line(other)),
                     ("d.jsonl@0", _line(undated)), ("z.jsonl@0", _line(bad_key))]) == {key: hash64("a.jsonl@7")}
    # As new as each other: the smaller content hash, whatever the order of the
    # records and wherever they lie (the same files under another folder keep
    # the same copy); copies of one content, the smaller location hash.
    other_text = dict(old, summary="又一份。")
    first = min((old, other_text), key=lambda e: content_hash(_line(e)))
    for b, a in (("b.jsonl@0", "a.jsonl@9"), ("/x/b.jsonl@0", "/y/a.jsonl@9"), ("a.jsonl@9", "b.jsonl@0")):
        same = [(b, _line(old)), (a, _line(other_text))]
        expected = {key: hash64(b if first is old else a)}
        assert _winners(same) == _winners(same[::-1]) == expected
    twins = [("b.jsonl@0", _line(old)), ("a.jsonl@9", _line(old))]
    assert _winners(twins) == _winners(twins[::-1]) == {key: min(hash64("b.jsonl@0"), hash64("a.jsonl@9"))}
    assert fetched_seconds("2026-01-01T00:00:00Z") > fetched_seconds("2025-12-31T23:59:59Z") > UNKNOWN_TIME
    assert fetched_seconds("not a date") == fetched_seconds(None) == UNKNOWN_TIME


def test_dropped_copies_are_audited_with_their_triples_and_the_copy_kept():
    from transforms.pairs import validate_raw_entry

    old = _e("201", "苏轼", "苏轼是北宋文学家。", [("朝代", "北宋"), ("职业", "文学家、书法家")],
             fetched_at="2026-01-01T00:00:00Z")
    raw, _ = validate_raw_entry(old)
    result = deduplicate_batch([(raw, "b.jsonl@0"), (raw, "a.jsonl@7")],
                               {hash64("baidu:lemma:201"): hash64("a.jsonl@7")}, CleaningConfig())
    assert [loc for _, loc in result.pairs] == ["a.jsonl@7"]
    rows = result.audit
    assert [(r["kind"], r["stage"], r["reason"]) for r in rows] == [
        ("entry", "read", DUPLICATE_ENTRY)] + [("triple", "read", f"pair_dropped:{DUPLICATE_ENTRY}")] * 3
    assert all(r["source"] == "b.jsonl@0" and "another copy" in r["detail"] for r in rows)
    assert sorted(r["tail"] for r in rows[1:]) == ["书法家", "北宋", "文学家"]  # split like the kept copy


@pytest.mark.slow
def test_a_build_over_two_crawls_keeps_one_pair_per_entry(tmp_path):
    first = tmp_path / "in" / "crawl-a.jsonl"
    write_fixture(first, bad=False)
    # A second crawl: every entry again, 鲁迅 re-fetched later with a longer summary.
    second = tmp_path / "in" / "crawl-b.jsonl"
    lu_xun = dict(ENTRIES[0][0], fetched_at="2026-12-01T00:00:00Z",
                  summary="鲁迅，出生于浙江绍兴，中国现代文学家、思想家，代表作品有《朝花夕拾》。")
    second.write_text("\n".join(json.dumps(e if i else lu_xun, ensure_ascii=False)
                                for i, (e, _) in enumerate(ENTRIES)) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--input", str(tmp_path / "in" / "*.jsonl"), "--out", str(out), "--min-relation-count", "1",
                 "--no-domain", "--no-split"]) == 0

    pairs = [r for f in sorted((out / "pairs").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
    # 101-104 and (with a min count of 1) 109 are designed to be kept, once each
    assert len(pairs) == len({p["pair_id"] for p in pairs}) == 5
    lu = next(p for p in pairs if p["entity"] == "鲁迅")
    assert "《朝花夕拾》" in {t["tail"] for t in lu["triples"]}  # the newer copy states it

    audit = [r for f in sorted((out / "audit").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
    dup = [r for r in audit if r["reason"] == DUPLICATE_ENTRY]
    assert len(dup) == len(ENTRIES)  # one copy of each entry dropped
    lu_dup = next(r for r in dup if r["head"] == "鲁迅")
    assert lu_dup["source"].startswith(str(first))  # the older copy
    lu_kept = [r for r in audit if r["entry_key"] == lu_dup["entry_key"] and r["kind"] == "entry" and r is not lu_dup]
    assert [r["source"].split("@")[0] for r in lu_kept] == [str(second)]
    # Same fetched_at elsewhere: the copy with the smaller location hash is kept.
    for r in dup:
        if r["head"] != "鲁迅":
            kept = next(k for k in audit if k["entry_key"] == r["entry_key"] and k["kind"] == "entry" and k is not r)
            assert hash64(kept["source"]) < hash64(r["source"])
    # Still one final fate per input entry copy: inputs = kept + dropped.
    entries = [r for r in audit if r["kind"] == "entry"]
    assert len(entries) == 2 * len(ENTRIES)
    assert Counter(r["fate"] for r in entries)["kept"] == 5
    stats = json.loads((out / "stats.json").read_text())
    read = next(s for s in stats["funnel"] if s["stage"] == "read")
    assert read["in"]["entries"] == 2 * len(ENTRIES) and read["out"]["entries"] == len(ENTRIES)
    assert read["dropped"]["entry"] == {DUPLICATE_ENTRY: len(ENTRIES)}


def test_the_copy_kept_does_not_depend_on_where_the_input_lies(tmp_path):
    """Two copies as new as each other with other texts: the same files under
    another folder keep the same one (by content hash), so the pairs are the
    same to the byte; only the audit's sources name the new place. The folder is chosen so
    that the order of the two locations' hashes flips."""
    other = dict(ENTRIES[1][0], summary=ENTRIES[1][0]["summary"] + "（又一版本）")

    def build(folder: str) -> tuple[list, list]:
        inp = tmp_path / folder
        inp.mkdir()
        write_fixture(inp / "one.jsonl", bad=False)
        (inp / "two.jsonl").write_text(json.dumps(other, ensure_ascii=False) + "\n", encoding="utf-8")
        out = tmp_path / f"out-{folder}"
        assert main(["build", "--input", str(inp / "*.jsonl"), "--out", str(out), "--min-relation-count", "1",
                     "--no-domain", "--no-split"]) == 0
        pairs = [r for f in sorted((out / "pairs").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
        audit = [r for f in sorted((out / "audit").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
        key = next(r["entry_key"] for r in audit if r["reason"] == DUPLICATE_ENTRY)
        sources = sorted(r["source"] for r in audit if r["entry_key"] == key and r["kind"] == "entry")
        return sorted(json.dumps(p, ensure_ascii=False, sort_keys=True, default=str) for p in pairs), sources

    first, sources = build("a")
    assert len(sources) == 2

    def order(folder: str) -> bool:
        moved = [src.replace(str(tmp_path / "a"), str(tmp_path / folder), 1) for src in sources]
        return hash64(moved[0]) < hash64(moved[1])

    elsewhere = next(f"b{i}" for i in range(64) if order(f"b{i}") != order("a"))
    assert build(elsewhere)[0] == first


def test_a_file_matched_by_two_patterns_is_read_once(tmp_path):
    from pipeline.read import expand_inputs

    for name in ("raw-0.jsonl", "raw-1.jsonl", "extra.jsonl"):
        (tmp_path / name).write_text("{}\n")
    one, every = str(tmp_path / "raw-0.jsonl"), str(tmp_path / "*.jsonl")
    assert expand_inputs([every, one]).jsonl_patterns == [every]
    assert expand_inputs([one, every]).jsonl_patterns == [one, str(tmp_path / "extra.jsonl"), str(tmp_path / "raw-1.jsonl")]
    assert expand_inputs([every, every]).jsonl_patterns == [every]
