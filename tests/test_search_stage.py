"""The Beam stage ValidateBySearch: TestPipeline + assert_that over a local
index of our own sentences (the corpus is written by the test)."""
from __future__ import annotations

import json

import apache_beam as beam
import pytest
from apache_beam.options.pipeline_options import PipelineOptions
from apache_beam.testing import test_pipeline
from apache_beam.testing.util import assert_that, equal_to

from pipeline.batch import items_of
from pipeline.search_stage import ValidateBySearch, audit_rows, prepare_search
from transforms.search.local_index import build_index_from_patterns
from transforms.search.types import SearchConfig
from transforms.search.validate import make_backend, validate_pairs

DOCS = [
    {"url": "https://corpus.example/hz", "title": "杭州", "text": "杭州是浙江省的省会，西湖位于杭州市区西部。"},
    {"url": "https://corpus.example/su", "title": "苏轼", "text": "苏轼，号东坡居士，北宋文学家，曾任杭州通判。"},
    {"url": "https://corpus.example/xihu", "title": "西湖", "text": "西湖是中国著名的淡水湖。"},
]


def _t(h, r, t):
    return {"head": h, "relation": r, "tail": t, "start": 0, "end": 2, "match": "exact", "tail_type": None,
            "search_status": None}


PAIRS = [
    {"pair_id": "hz", "entity": "杭州", "source_url": "https://corpus.example/hz", "_entry_key": "baidu:lemma:1",
     "_source": "raw.jsonl", "text": "…", "num_triples": 2,
     # 浙江省 is stated only on 杭州's own page; 杭州通判 on 苏轼's page.
     "triples": [_t("杭州", "所属省份", "浙江省"), _t("苏轼", "任职", "杭州通判")]},
    {"pair_id": "su", "entity": "苏轼", "source_url": "https://corpus.example/su", "_entry_key": "baidu:lemma:2",
     "_source": "raw.jsonl", "text": "…", "num_triples": 2,
     "triples": [_t("苏轼", "号", "东坡居士"), _t("苏轼", "朝代", "唐朝")]},
]


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stage")
    corpus = tmp / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in DOCS), encoding="utf-8")
    stats, read = build_index_from_patterns([str(corpus)], str(tmp / "index.duckdb"))
    assert (stats.documents, read.invalid) == (3, 0)
    return str(tmp / "index.duckdb")


def _options():
    return PipelineOptions(runner="DirectRunner")


def test_stage_keeps_cooccurring_triples_and_audits_the_rest(index, tmp_path):
    cfg = SearchConfig(enabled=True, backend="local", index_path=index, cache_dir=str(tmp_path / "c"), batch_size=2)
    with test_pipeline.TestPipeline(options=_options()) as p:
        out = p | beam.Create(PAIRS) | ValidateBySearch(cfg)
        kept = out["pairs"] | "KeptPairs" >> beam.FlatMap(items_of) | "Kept" >> beam.Map(
            lambda pair: (pair["pair_id"], pair["num_triples"],
                          sorted((t["tail"], t["search_status"], t["search_evidence"]) for t in pair["triples"])))
        assert_that(kept, equal_to([
            ("hz", 1, [("杭州通判", "verified", "https://corpus.example/su")]),
        ]), label="pairs")
        reasons = out["audit"] | "Rows" >> beam.FlatMap(items_of) | "Reasons" >> beam.Map(
            lambda r: (r["kind"], r["pair_id"], r["tail"], r["fate"], r["stage"], r["reason"], r["entry_key"],
                       json.loads(r["detail"]).get("query")))
        assert_that(reasons, equal_to([
            # only its own page says 杭州 is in 浙江省
            ("triple", "hz", "浙江省", "dropped", "search_validation", "no_cooccurrence", "baidu:lemma:1", "杭州 浙江省"),
            # 东坡居士 likewise: only on 苏轼's own page
            ("triple", "su", "东坡居士", "dropped", "search_validation", "no_cooccurrence", "baidu:lemma:2", "苏轼 东坡居士"),
            ("triple", "su", "唐朝", "dropped", "search_validation", "no_cooccurrence", "baidu:lemma:2", "苏轼 唐朝"),
            ("entry", "su", None, "dropped", "search_validation", "no_triple_left", "baidu:lemma:2", None),
        ]), label="audit")


def test_stage_ids_match_the_pipeline_audit_convention(index):
    """Dropped triple rows carry the same triple_id the finalise stage would give."""
    from pipeline import audit

    cfg = SearchConfig(enabled=True, backend="local", index_path=index)
    out = validate_pairs(PAIRS, make_backend(cfg), cfg)
    rows = [row for d in out.drops for row in audit_rows(d)]
    hz_ids = audit.triple_ids(PAIRS[0])
    assert [r["triple_id"] for r in rows if r["pair_id"] == "hz"] == [hz_ids[0]]
    assert all(r["source"] == "raw.jsonl" for r in rows)
    # the kept pair remembers where the text states the dropped triple: T2KG uses no sentence there
    (hz,) = out.pairs
    assert hz["dropped_mentions"] == [[0, 2]] and [t["tail"] for t in hz["triples"]] == ["杭州通判"]


def test_disabled_stage_passes_pairs_through(index):
    with test_pipeline.TestPipeline(options=_options()) as p:
        out = p | beam.Create(PAIRS) | ValidateBySearch(SearchConfig(enabled=False))
        assert_that(out["pairs"] | beam.Map(lambda x: x["pair_id"]), equal_to(["hz", "su"]), label="same")
        assert_that(out["audit"], equal_to([]), label="none")


def test_prepare_search_indexes_the_build_input_and_caches_in_out(tmp_path):
    raw = tmp_path / "raw.jsonl"
    entry = {"url": "https://baike.example/item/西湖", "source": "baidu", "title": "西湖", "summary": "西湖位于杭州。",
             "infobox": [{"name": "所在地", "value": "杭州", "value_links": []}]}
    raw.write_text(json.dumps(entry, ensure_ascii=False) + "\n", encoding="utf-8")
    cfg = prepare_search(SearchConfig(enabled=True, backend="local"), [str(raw)], str(tmp_path / "out"))
    assert cfg.index_path == str(tmp_path / "out" / "search_index.duckdb")
    assert cfg.cache_dir == str(tmp_path / "out" / "search_cache")
    results = make_backend(cfg).search("西湖 杭州", 10)
    assert [r.url for r in results] == ["https://baike.example/item/西湖"]
    assert prepare_search(None, [], str(tmp_path)) is None
    # a given index is opened before the pipeline starts: a missing or foreign file was
    # found by a Beam worker, whose traceback filled the log before the error
    from pipeline.errors import CdtpError

    with pytest.raises(CdtpError, match="search index .*missing.duckdb does not exist"):
        prepare_search(SearchConfig(enabled=True, backend="local", index_path=str(tmp_path / "missing.duckdb")),
                       [str(raw)], str(tmp_path / "out2"))
    (tmp_path / "zero.duckdb").write_bytes(b"\0" * 4096)
    with pytest.raises(CdtpError, match="is not a cdtp search index"):
        prepare_search(SearchConfig(enabled=True, backend="local", index_path=str(tmp_path / "zero.duckdb")),
                       [str(raw)], str(tmp_path / "out2"))
    # an index with no document would drop every triple, and the build would "succeed" empty
    from pipeline.cli import main

    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    assert main(["search", "index", "--input", str(tmp_path / "empty.jsonl"), "--out", str(tmp_path / "e.duckdb")]) == 2
    with pytest.raises(CdtpError, match="holds no documents"):
        prepare_search(SearchConfig(enabled=True, backend="local", index_path=str(tmp_path / "e.duckdb")),
                       [str(raw)], str(tmp_path / "out3"))
    with pytest.raises(CdtpError, match="no document to index in the build's input"):
        prepare_search(SearchConfig(enabled=True, backend="local"), [str(tmp_path / "empty.jsonl")],
                       str(tmp_path / "out4"))


def _entry(title, lemma, summary, infobox):
    return {"url": f"https://baike.example/item/{title}/{lemma}", "source": "baidu", "lemma_id": lemma, "title": title,
            "subtitle": None, "summary": summary, "tags": [], "links": [], "depth": 0, "seed": None,
            "fetched_at": "2026-01-01T00:00:00Z",
            "infobox": [{"name": n, "value": v, "value_links": []} for n, v in infobox]}


def test_cdtp_build_with_local_search_accounts_for_everything(tmp_path):
    """`cdtp build --search-backend local` indexes its own input, drops what no
    OTHER page corroborates, and every entry/triple keeps exactly one audit row."""
    import duckdb

    from pipeline.cli import main

    raw = tmp_path / "raw.jsonl"
    entries = [
        _entry("杭州", "101", "杭州是浙江省的省会，市内有著名的西湖。", [("所属地区", "浙江省"), ("著名景点", "西湖")]),
        _entry("苏轼", "102", "苏轼是北宋文学家，曾任杭州通判。", [("朝代", "北宋"), ("职务", "杭州通判")]),
        _entry("西湖", "103", "西湖位于杭州西部，是著名的淡水湖。", [("所在城市", "杭州")]),
    ]
    raw.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")
    out = tmp_path / "out"
    args = ["build", "--input", str(raw), "--out", str(out), "--search-backend", "local", "--no-domain", "--no-split",
            "--position-index", "0", "--min-relation-count", "1",
            "--set", "cleaning.check_enumerations=false", "--set", "cleaning.check_relation_mentions=false"]
    assert main(args) == 0
    assert (out / "search_index.duckdb").exists() and (out / "search_cache" / "search_cache.sqlite").exists()
    search = json.loads((out / "stats.json").read_text(encoding="utf-8"))["search"]
    assert search["triples_verified"] == 2 and search["triples_not_cooccurring"] == 3
    assert search["cache_misses"] == 5 and search["cache_hits"] == 0
    # A rerun into the same OUT asks the index nothing: every query comes from the cache.
    assert main(args + ["--overwrite"]) == 0
    search = json.loads((out / "stats.json").read_text(encoding="utf-8"))["search"]
    assert (search["cache_hits"], search["cache_misses"]) == (5, 0)
    con = duckdb.connect()
    audit = f"read_parquet('{out}/audit/**/*.parquet')"
    pairs = f"read_parquet('{out}/pairs/**/*.parquet', hive_partitioning=true)"
    rows = con.execute(f"SELECT kind, head, tail, fate, stage, reason FROM {audit}").fetchall()
    search_rows = sorted((k, h, t, r) for k, h, t, f, s, r in rows if s == "search_validation")
    assert search_rows == [
        ("entry", "苏轼", None, "no_triple_left"),
        ("triple", "杭州", "浙江省", "no_cooccurrence"),
        ("triple", "苏轼", "北宋", "no_cooccurrence"),
        ("triple", "苏轼", "杭州通判", "no_cooccurrence"),
    ]
    assert sorted(k for k, *_ in rows) == ["entry"] * 3 + ["triple"] * 5  # one row per input, no more
    kept = con.execute(
        f"SELECT t.head, t.tail, t.search_status, t.search_evidence FROM {pairs}, unnest(triples) AS u(t) ORDER BY 1"
    ).fetchall()
    assert kept == [
        ("杭州", "西湖", "verified", "https://baike.example/item/西湖/103"),
        ("西湖", "杭州", "verified", "https://baike.example/item/杭州/101"),
    ]


def test_index_built_with_worker_processes_is_identical(index, tmp_path):
    import duckdb

    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in DOCS), encoding="utf-8")
    build_index_from_patterns([str(corpus)], str(tmp_path / "w2.duckdb"), workers=2)
    rows = [duckdb.connect(p, read_only=True).execute("SELECT * FROM docs ORDER BY doc_id").fetchall()
            for p in (index, str(tmp_path / "w2.duckdb"))]
    assert rows[0] == rows[1] and len(rows[0]) == 3


def test_stage_runs_on_multiprocess_direct_runner(index, tmp_path):
    """Every DoFn is pickled to worker processes: the client must be built in setup()."""
    cfg = SearchConfig(enabled=True, backend="local", index_path=index, cache_dir=str(tmp_path / "c"))
    opts = PipelineOptions(runner="DirectRunner", direct_running_mode="multi_processing", direct_num_workers=2)
    with test_pipeline.TestPipeline(options=opts) as p:
        out = p | beam.Create(PAIRS) | ValidateBySearch(cfg)
        assert_that(out["pairs"] | "P" >> beam.FlatMap(items_of) | beam.Map(lambda x: x["pair_id"]),
                    equal_to(["hz"]), label="pairs")
        assert_that(out["audit"] | "A" >> beam.FlatMap(items_of) | beam.Map(lambda r: r["reason"]),
                    equal_to(["no_cooccurrence"] * 3 + ["no_triple_left"]), label="audit")
