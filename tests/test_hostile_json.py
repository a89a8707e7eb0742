"""Defect 1 of issue 11: one deeply nested JSON document crashed the build,
`cdtp search index`, `cdtp seeds --format kgclue` and `cdtp search web`
with a RecursionError (not a ValueError, so every `except ValueError`
missed it). Each reader now rejects it with a reason, the same way on every
worker whatever its stack depth (transforms/safejson.py).
"""
from __future__ import annotations

import json
import sys

import pytest

from crawlers.seed_lines import Malformed, parse_kgclue_line
from pipeline.cleaning_steps import parse_record, scan_batch, validate_batch
from pipeline.cli import main
from transforms import safejson
from transforms.search.documents import ReadStats, read_documents
from transforms.search.searxng import parse_results
from transforms.search.types import SearchFailure


def nested(levels: int, open_: str = "[", close: str = "]") -> str:
    return open_ * levels + close * levels


DEEP_ENTRY = '{"title":"x","summary":"y","tags":' + nested(1000) + "}"
GOOD_ENTRY = json.dumps({
    "url": "https://baike.baidu.com/item/鲁迅/101", "lemma_id": "101", "title": "鲁迅",
    "summary": "鲁迅，出生于浙江绍兴，中国现代文学家。",
    "infobox": [{"name": "出生地", "value": "浙江绍兴", "value_links": []}],
    "tags": ["作家"], "depth": 1, "fetched_at": "2026-11-01T00:00:00Z"}, ensure_ascii=False)


# ------------------------------------------------------------------ the loader

def test_depth_bound_is_exact_and_ignores_brackets_in_strings():
    ok = '{"a":' + nested(safejson.MAX_DEPTH - 1) + "}"  # MAX_DEPTH levels in all
    assert safejson.loads(ok)["a"] is not None
    with pytest.raises(safejson.JSONTooDeep, match="nested more than 64"):
        safejson.loads('{"a":' + nested(safejson.MAX_DEPTH) + "}")
    # Brackets inside strings (escaped quotes too) are text, not nesting.
    text = json.dumps({"summary": "[" * 500 + '"\\' + "{" * 500, "x": [[1]]})
    assert safejson.loads(text)["x"] == [[1]]
    assert safejson.loads(text.encode("utf-8"))["x"] == [[1]]


@pytest.mark.parametrize("doc", [nested(10**5), "[" * 10**5, nested(3000, "{\"a\":", "}")])
def test_any_depth_is_a_value_error_not_a_recursion_error(doc):
    with pytest.raises(ValueError):
        safejson.loads(doc)
    with pytest.raises(ValueError):
        safejson.loads(doc.encode())


def test_same_answer_at_any_stack_depth():
    """json's own limit depends on how deep the caller already is (a 500-level
    document passes at the top of a stack and fails further down); ours does
    not, as long as the decoder has MAX_DEPTH frames to spare."""
    ok = '{"a":' + nested(safejson.MAX_DEPTH - 1) + "}"
    medium = nested(500)
    assert json.loads(medium) == json.loads(medium)  # json alone accepts it here...

    def deep(n, doc):
        return deep(n - 1, doc) if n else safejson.loads(doc)

    limit = sys.getrecursionlimit()
    for frames in (10, limit // 2, limit - 250):
        assert deep(frames, ok)["a"] is not None
        with pytest.raises(safejson.JSONTooDeep):  # ...but we never do
            deep(frames, medium)


# --------------------------------------------------------------- the build side

def test_deep_line_is_an_invalid_input_audit_row():
    raw, bad = parse_record("raw-0.jsonl@0", DEEP_ENTRY.encode())
    assert raw is None
    assert bad["reason"] == "invalid_input" and "nested more than" in bad["detail"]
    assert bad["detail"].startswith("raw-0.jsonl@0: malformed JSON")


def test_input_scan_and_validate_survive_a_deep_line():
    records = [("f@0", GOOD_ENTRY.encode()), ("f@1", DEEP_ENTRY.encode())]
    scan = scan_batch(records)
    assert scan.names == ["出生地"]
    result = validate_batch(records)
    assert [loc for _, loc in result.pairs] == ["f@0"]
    assert [row["source"] for row in result.audit] == ["f@1"]


# ------------------------------------------------------------ seeds and search

def test_kgclue_seed_line_nested_deeply_is_bad_json():
    line = '{"id": 1, "answer": ' + nested(5000) + "}"
    parsed = parse_kgclue_line(line)
    assert isinstance(parsed, Malformed) and parsed.reason == "bad_json"


def test_seeds_command_counts_the_deep_line(tmp_path, capsys):
    src = tmp_path / "kg.json"
    src.write_text(json.dumps({"id": 1, "question": "q", "answer": "鲁迅 ||| 出生地 ||| 绍兴"}, ensure_ascii=False)
                   + "\n" + '{"id": 2, "answer": ' + nested(5000) + "}\n", encoding="utf-8")
    out = tmp_path / "seeds.txt"
    assert main(["seeds", "--format", "kgclue", "--out", str(out), str(src)]) == 0
    assert out.read_text(encoding="utf-8").split() == ["鲁迅"]
    stats = json.loads((tmp_path / "seeds.txt.stats.json").read_text(encoding="utf-8"))
    assert "bad_json" in json.dumps(stats)


def test_search_corpus_reader_notes_the_deep_line(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"url": "https://example.org/a", "title": "长江", "text": "长江注入东海。"},
                                 ensure_ascii=False) + "\n" + DEEP_ENTRY + "\n", encoding="utf-8")
    stats = ReadStats()
    docs = list(read_documents(str(corpus), stats))
    assert [d.url for d in docs] == ["https://example.org/a"]
    assert any(":2: bad JSON" in p and "nested" in p for p in stats.examples), stats.examples


def test_searxng_reply_nested_deeply_is_bad_json():
    body = ('{"results": [' + nested(5000, "{\"a\":", "}") + "]}").encode()
    with pytest.raises(SearchFailure) as info:
        parse_results(body, 10)
    assert info.value.reason == "bad_json"


# ------------------------------------------------------- other user-supplied JSON

def test_domain_classify_config_and_set_reject_deep_json(tmp_path, capsys):
    entries = tmp_path / "entries.jsonl"
    entries.write_text(DEEP_ENTRY + "\n", encoding="utf-8")
    assert main(["domain", "classify", "--input", str(entries), "--embedder", "none"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cdtp: error: ") and "entries.jsonl:1: not JSON" in err and "nested" in err

    from pipeline.config import load_config
    from pipeline.errors import CdtpError

    config = tmp_path / "config.json"
    config.write_text('{"cleaning": ' + nested(2000, '{"a":', "}") + "}", encoding="utf-8")
    with pytest.raises(CdtpError, match="is not valid JSON: JSON nested more than"):
        load_config(str(config))
    with pytest.raises(CdtpError, match="--set cleaning.position_index_threshold: JSON nested"):
        load_config(None, None, ["cleaning.position_index_threshold=" + nested(2000)])


def test_crawl_store_recovery_counts_a_deep_line_as_bad(tmp_path):
    """A resumed crawl re-reads its shards: a deep line there is one bad line, not a crash."""
    from crawlers import store

    shard = tmp_path / "raw-00000.jsonl"
    shard.write_text(GOOD_ENTRY + "\n" + DEEP_ENTRY + "\n", encoding="utf-8")
    records, bad = store.read_json_lines(shard)
    assert [r["title"] for r in records] == ["鲁迅"] and bad == 1


def test_domain_label_file_with_a_deep_line_is_a_label_error(tmp_path):
    from transforms.domain_labels import LabelError, load_labels

    labels = tmp_path / "labels.jsonl"
    labels.write_text(DEEP_ENTRY + "\n", encoding="utf-8")
    with pytest.raises(LabelError, match="labels.jsonl:1: not JSON"):
        load_labels(labels, None)


# ------------------------------------------------- the fast decoder gives json's answer

def _answer(decode, data):
    """The value (its ascii repr tells int from float and -0.0 from 0.0), or the error json would give."""
    try:
        return ascii(decode(data))
    except ValueError as exc:
        return f"{type(exc).__name__}: {exc}"


EDGE_DOCUMENTS = [
    b'{"lemma_id": 123456789012345678901234567890}', b'[-9223372036854775809, 18446744073709551616]',
    b'[1e400, -1e400, 1e-400, -0.0, 0.1, 1E+5]', b'[NaN, Infinity, -Infinity]', b'\xef\xbb\xbf{"a": 1}',
    '{"title": "鲁迅"}'.encode("utf-16"), b'"\\ud800"', b'"\\ud83d\\ude00"', b'{"a": "\xed\xa0\x80"}',
    b'{"a": 1, "a": 2}', b'{"a": "x\ny"}', b'{"a": 1,}', b'[01]', b'{"a": 1} x', b'\x0c{}', b'{"a": "\xff"}',
    b'"\\u0000"', b' {"a" : [ ] } \n', b'{"infobox": [{"name": "x", "value": 12}]}',
]


@pytest.mark.parametrize("doc", EDGE_DOCUMENTS)
def test_fast_decoder_answers_as_json_on_edge_documents(doc):
    assert _answer(safejson.loads, doc) == _answer(json.loads, doc)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _containers(inner):
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(st.characters(exclude_categories=()), max_size=12)
    | st.text(st.sampled_from("\ud800\udc00\udfffa鲁\x00\"\\"), max_size=6),  # lone surrogates, often
    _containers, max_leaves=20)


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES, st.booleans(), st.lists(st.tuples(st.integers(0, 10**6), st.binary(max_size=2)), max_size=3))
def test_fast_decoder_answers_as_json_on_any_document(value, ascii_only, edits):
    """Every value json writes (big integers, NaN, lone surrogates included),
    and the same bytes with a few cut or inserted: the same value, or json's
    own error."""
    doc = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    assert _answer(safejson.loads, doc) == _answer(json.loads, doc)
    _assert_vouched_strings_encode(doc)
    for at, insert in edits:
        at %= len(doc) + 1
        broken = doc[:at] + insert + doc[at + 1:]
        assert _answer(safejson.loads, broken) == _answer(json.loads, broken)
        _assert_vouched_strings_encode(broken)


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)


def _assert_vouched_strings_encode(doc: bytes) -> None:
    """What loads_and_vouch vouches for holds no lone surrogate (the
    validate stage then skips its own search for them)."""
    try:
        value, vouched = safejson.loads_and_vouch(doc)
    except ValueError:
        return
    if vouched:
        for s in _strings(value):
            s.encode("utf-8")


@pytest.mark.parametrize("doc, vouched", [
    (b'{"title": "\\u9c81\\u8fc5", "x": "\\ud83d\\ude00"}', True),  # escapes, a surrogate pair
    (b'{"summary": "bad \\ud800 text"}', False),  # a lone surrogate escape: json reads it
    (b'{"summary": "\\udc00"}', False),
    (b'{"lemma_id": 1234567890123456789}', False),  # 19 digits: json reads it
    ('{"title": "鲁迅"}'.encode("utf-16"), False),
])
def test_only_what_orjson_read_is_vouched_for(doc, vouched):
    assert safejson.loads_and_vouch(doc)[1] is vouched
    if not vouched and b"summary" in doc:
        # and the validate stage still looks, and names the field
        from pipeline.cleaning_steps import parse_record

        raw, bad = parse_record("s.jsonl@0", b'{"title": "x", ' + doc[1:])
        assert raw is None and bad["detail"] == "s.jsonl@0: summary: not valid Unicode (lone surrogate)"
