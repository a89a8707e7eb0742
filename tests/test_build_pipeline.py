"""`cdtp build` / `cdtp query`: audit completeness, reasons, schemas, funnel,
determinism across worker counts, shard balance and the DuckDB views."""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import apache_beam as beam
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from apache_beam.testing.test_pipeline import TestPipeline
from apache_beam.testing.util import assert_that, equal_to

from pipeline.batch import items_of
from pipeline.cleaning import RedundantTripleFilter, ValidateRawEntries
from pipeline.cli import main
from pipeline.query import run_query
from schemas.outputs import AUDIT_SCHEMA, DISCARDED_TRIPLE_SCHEMA, PAIR_SCHEMA
from schemas.raw_entry import RAW_ENTRY_SCHEMA
from tests.build_fixtures import BAD_LINES, ENTRIES, write_fixture
from transforms.pairs import entry_to_pair
from transforms.redundancy import CleaningConfig

pytestmark = pytest.mark.slow

BEAM_OPTS = {"runner": "DirectRunner"}
OUTPUTS = {"pairs": PAIR_SCHEMA, "audit": AUDIT_SCHEMA, "discarded_triples": DISCARDED_TRIPLE_SCHEMA}


def _test_pipeline():
    from pipeline.commands import make_runner

    opts = beam.options.pipeline_options.PipelineOptions(**BEAM_OPTS)
    return TestPipeline(runner=make_runner(opts), options=opts)


def _read(out: Path, name: str) -> pa.Table:
    files = sorted((out / name).rglob("*.parquet"))
    assert files, f"no {name} files"
    return pa.concat_tables([pq.read_table(f, schema=OUTPUTS[name]) for f in files])


def _content_hash(out: Path) -> str:
    """Hash of the sorted rows of every output (independent of file layout)."""
    h = hashlib.sha256()
    for name in OUTPUTS:
        rows = sorted(json.dumps(r, ensure_ascii=False, sort_keys=True, default=str)
                      for r in _read(out, name).to_pylist())
        h.update(name.encode())
        for r in rows:
            h.update(r.encode())
    return h.hexdigest()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict:
    d = tmp_path_factory.mktemp("raw")
    meta = write_fixture(d / "raw-00000.jsonl", repeat=3)
    # The same fields as Parquet, with one row lacking a title (row 2).
    rows = [dict(e, lemma_id=f"pq-{e['lemma_id']}") for e, _ in ENTRIES[:3]]
    rows.append(dict(ENTRIES[3][0], lemma_id="pq-x", title=None))
    pq.write_table(pa.Table.from_pylist(rows, schema=RAW_ENTRY_SCHEMA), d / "raw-00001.parquet")
    valid_raws = [dict(e, lemma_id=(e["lemma_id"] if r == 0 else f"{e['lemma_id']}-{r}"))
                  for r in range(3) for e, _ in ENTRIES] + rows[:3]
    return {"dir": d, "entries": meta["entries"] + 3, "bad": meta["bad"] + 1, "valid_raws": valid_raws}


@pytest.fixture(scope="module")
def built(inputs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / "out"
    # The fixture gives every entry 3 times under fresh lemma ids (re-crawls) to feed the
    # relation counts; the near_duplicate stage would keep one copy (tests/test_neardup.py).
    rc = main(["build", "--input", str(inputs["dir"] / "raw-*"), "--out", str(out), "--no-near-duplicate",
               "--min-relation-count", "4", "--num-shards", "2", "--runner", "DirectRunner"])
    assert rc == 0
    return out


# --------------------------------------------------------------- transforms

def test_validate_turns_bad_records_into_invalid_input_rows():
    good = json.dumps(ENTRIES[0][0], ensure_ascii=False).encode()
    records = [("f.jsonl@0", good), ("f.jsonl@10", b"{oops"), ("f.jsonl@20", b"   \n"),
               ("f.jsonl@30", json.dumps({"title": ["x"]}).encode()),
               ("f.parquet#row=3", {"title": None, "summary": "x"}),
               ("f.jsonl@40", b"\xef\xbb\xbf" + good)]
    with _test_pipeline() as p:
        out = p | beam.Create(records) | ValidateRawEntries()
        assert_that(out["raws"] | beam.Map(lambda e: (e[0]["title"], e[1])),
                    equal_to([("鲁迅", "f.jsonl@0"), ("鲁迅", "f.jsonl@40")]), label="raws")
        assert_that(out["audit"] | beam.FlatMap(items_of) | beam.Map(lambda r: (r["source"], r["stage"], r["reason"], r["fate"])),
                    equal_to([("f.jsonl@10", "read", "invalid_input", "dropped"),
                              ("f.jsonl@30", "read", "invalid_input", "dropped"),
                              ("f.parquet#row=3", "read", "invalid_input", "dropped")]), label="audit")


def test_redundant_triple_stage_accounts_for_every_triple():
    raw = ENTRIES[0][0]  # 鲁迅: 《朝花夕拾》 is not in the text
    n_in = len(entry_to_pair(raw)["triples"])
    with _test_pipeline() as p:
        out = p | beam.Create([(raw, "f@0")]) | RedundantTripleFilter(CleaningConfig())
        assert_that(out["pairs"] | beam.Map(lambda x: sorted(t["tail"] for t in x["triples"])),
                    equal_to([["思想家", "文学家", "浙江绍兴", "鲁迅"]]), label="pairs")
        # Audit and discarded elements are batches: one list of rows per input element.
        assert_that(out["audit"] | "A" >> beam.FlatMap(items_of) | "A2" >> beam.Map(lambda r: (r["tail"], r["reason"])),
                    equal_to([("《朝花夕拾》", "unsupported_by_text")]), label="audit")
        assert_that(out["discarded_triples"] | "D" >> beam.FlatMap(items_of)
                    | "D2" >> beam.Map(lambda r: (r["relation"], r["tail"], r["reason"])),
                    equal_to([("代表作品", "《朝花夕拾》", "unsupported_by_text")]), label="discarded")
    assert n_in == 5


def test_a_batch_stays_one_element_through_a_stage():
    """Pairs travel as lists (pipeline/batch.py): a batch of entries gives one
    list of pairs and one list of audit rows, with the same content as the
    entries given one by one."""
    raws = [(ENTRIES[i][0], f"f@{i}") for i in range(4)]
    with _test_pipeline() as p:
        batched = p | "Batch" >> beam.Create([raws]) | "Batched" >> RedundantTripleFilter(CleaningConfig())
        single = p | "Singles" >> beam.Create(raws) | "OneByOne" >> RedundantTripleFilter(CleaningConfig())
        assert_that(batched["pairs"] | "BatchShape" >> beam.Map(lambda e: (type(e).__name__, len(e))),
                    equal_to([("list", 4)]), label="one_list_of_pairs")
        assert_that(batched["audit"] | "AuditShape" >> beam.Map(lambda e: type(e).__name__),
                    equal_to(["list"]), label="one_list_of_rows")
        ids = beam.Map(lambda pair: pair["pair_id"])
        assert_that(batched["pairs"] | "Unbatch" >> beam.FlatMap(items_of) | "Ids" >> ids,
                    equal_to([entry_to_pair(r)["pair_id"] for r, _ in raws]), label="same_pairs")
        assert_that(single["pairs"] | "SingleShape" >> beam.Map(lambda e: type(e).__name__),
                    equal_to(["dict"] * 4), label="singles_stay_single")


# ---------------------------------------------------------------- end to end

def test_every_input_entry_and_triple_has_exactly_one_audit_row(built, inputs):
    audit = _read(built, "audit").to_pylist()
    entries = [r for r in audit if r["kind"] == "entry"]
    triples = [r for r in audit if r["kind"] == "triple"]
    assert len(entries) == inputs["entries"] + inputs["bad"]
    assert len({r["entry_key"] for r in entries}) == len(entries)
    expected_triples = sum(len(entry_to_pair(r)["triples"]) for r in inputs["valid_raws"])
    assert len(triples) == expected_triples
    assert len({r["triple_id"] for r in triples}) == len(triples)
    # inputs = kept + dropped, per kind
    for rows in (entries, triples):
        fates = Counter(r["fate"] for r in rows)
        assert set(fates) <= {"kept", "dropped"} and fates["kept"] + fates["dropped"] == len(rows)
    # Every kept triple is in a kept pair, and vice versa.
    pairs = _read(built, "pairs").to_pylist()
    kept_ids = {r["triple_id"] for r in triples if r["fate"] == "kept"}
    assert kept_ids == {t["triple_id"] for p in pairs for t in p["triples"]}


def test_entry_fates_match_the_designed_reasons(built):
    audit = _read(built, "audit").to_pylist()
    fate = {r["entry_key"]: (r["stage"], r["reason"]) for r in audit if r["kind"] == "entry"}
    for entry, expected in ENTRIES:
        assert fate[f"baidu:lemma:{entry['lemma_id']}"] == expected, entry["title"]
    triple = {(r["head"], r["tail"]): (r["stage"], r["reason"]) for r in audit if r["kind"] == "triple"}
    assert triple[("鲁迅", "《朝花夕拾》")] == ("redundant_triple", "unsupported_by_text")
    assert triple[("西湖", "杭州")] == ("redundant_triple", "pair_dropped:empty_text")
    assert triple[("上海大学", "上海大学")] == ("redundant_description",
                                               "pair_dropped:position_index_below_threshold")
    # 所属地区 occurs 3 times (min count 4); 全长 4 times (3 JSON Lines + 1 Parquet copy).
    assert triple[("杭州", "浙江省")] == ("relation_frequency", "rare_relation")
    assert triple[("长江", "6397公里")] == ("finalise", "kept")
    assert triple[("长江", "青藏高原")] == ("finalise", "kept")


def test_malformed_lines_are_invalid_input_rows_with_their_location(built, inputs):
    audit = _read(built, "audit").to_pylist()
    bad = [r for r in audit if r["reason"] == "invalid_input"]
    assert len(bad) == len(BAD_LINES) + 1
    assert all(r["stage"] == "read" and r["fate"] == "dropped" and r["kind"] == "entry" for r in bad)
    details = " | ".join(r["detail"] for r in bad)
    assert "malformed JSON" in details
    assert "title: missing or empty" in details
    assert "title: expected string, got int" in details
    assert "infobox: expected list" in details
    assert "expected a JSON object" in details
    # The location points back at the line (byte offset) or Parquet row.
    jsonl = inputs["dir"] / "raw-00000.jsonl"
    data = jsonl.read_bytes()
    for r in bad:
        if "@" in r["source"]:
            offset = int(r["source"].rsplit("@", 1)[1])
            assert data[offset:].split(b"\n", 1)[0].decode() in BAD_LINES
    assert any(r["source"].endswith("raw-00001.parquet#row=3") for r in bad)


def test_parquet_outputs_have_the_declared_schemas(built):
    for name, schema in OUTPUTS.items():
        files = sorted((built / name).rglob("*.parquet"))
        assert files
        for f in files:
            got = pq.read_schema(f)
            assert got.equals(schema, check_metadata=False), f"{f}: {got}"
            assert got.metadata[b"cdtp.schema"] == schema.metadata[b"cdtp.schema"]
    # Pairs are Hive-partitioned by domain and split, and each file holds only its partition.
    for f in (built / "pairs").rglob("*.parquet"):
        dom, split = (part.split("=", 1) for part in f.parent.relative_to(built / "pairs").parts)
        assert dom[0] == "domain" and dom[1] in {"HP", "HS", "TE", "NE", "unknown"}
        assert split[0] == "split" and split[1] in {"train", "eval", "unassigned"}
        t = pq.read_table(f, columns=["domain", "split"]).to_pylist()
        assert {(r["domain"] or "unknown", r["split"] or "unassigned") for r in t} == {(dom[1], split[1])}


def test_stats_funnel_is_consistent_with_the_audit(built, inputs):
    stats = json.loads((built / "stats.json").read_text())
    audit = _read(built, "audit").to_pylist()
    by_stage = {s["stage"]: s for s in stats["funnel"]}
    order = list(by_stage)
    assert order[:4] == ["read", "redundant_triple", "redundant_description", "relation_frequency"]
    assert order[-1] == "finalise"
    assert by_stage["read"]["in"]["entries"] == inputs["entries"] + inputs["bad"]
    for s in stats["funnel"]:
        dropped_entries = sum(s["dropped"].get("entry", {}).values())
        assert s["in"]["entries"] == s["out"]["entries"] + dropped_entries, s["stage"]
        if s["stage"] != "read":
            dropped_triples = sum(s["dropped"].get("triple", {}).values())
            assert s["in"]["triples"] == s["out"]["triples"] + dropped_triples, s["stage"]
        for kind in ("entry", "triple"):
            for reason, n in s["dropped"].get(kind, {}).items():
                assert n == sum(1 for r in audit if r["stage"] == s["stage"] and r["kind"] == kind
                                and r["reason"] == reason and r["fate"] == "dropped")
    # Consecutive stages hand over what they let through.
    order = [s["stage"] for s in stats["funnel"]]
    for a, b in zip(order[1:], order[2:]):
        assert by_stage[a]["out"] == by_stage[b]["in"], (a, b)
    assert stats["totals"]["entry"]["kept"] + stats["totals"]["entry"]["dropped"] == len(
        [r for r in audit if r["kind"] == "entry"])
    pairs = _read(built, "pairs").to_pylist()
    assert sum(stats["triples_per_pair"]["counts"].values()) == len(pairs)
    assert stats["triples_per_pair"]["counts"]["1-3+"] == sum(1 for p in pairs if len(p["triples"]) > 3)
    top = stats["relations"]["top"]
    assert top[0]["relation"] == "中文名" and len(top) <= 20
    assert stats["config"]["relation_frequency"]["min_count"] == 4
    assert stats["schema_version"] == "2"
    # Issue 10: the coverage histogram counts the written pairs by their coverage decile.
    from transforms.coverage import coverage, coverage_bin

    cov = stats["coverage"]["counts"]
    assert sum(cov.values()) == len(pairs)
    for b in cov:
        assert cov[b] == sum(1 for p in pairs if coverage_bin(p["coverage"]) == b), b
    for p in pairs:  # the written value is the coverage of the written triples
        assert p["coverage"] == coverage(p["text"], p["triples"])
        assert all(t["trivial"] in (True, False) and t["support_score"] is not None for t in p["triples"])


def test_query_views_and_the_why_was_it_dropped_query(built):
    cols, rows = run_query(str(built), "SELECT stage, reason, detail FROM audit "
                                       "WHERE kind='triple' AND head='鲁迅' AND tail='《朝花夕拾》'")
    assert cols == ["stage", "reason", "detail"]
    assert {(r[0], r[1]) for r in rows} == {("redundant_triple", "unsupported_by_text")}
    _, rows = run_query(str(built), "SELECT count(*) FROM triples t JOIN audit a USING (triple_id) "
                                    "WHERE a.fate = 'kept'")
    _, total = run_query(str(built), "SELECT count(*) FROM triples")
    assert rows[0][0] == total[0][0] > 0
    # The alignment evidence of each kept triple is a column of the view too.
    cols, rows = run_query(str(built), "SELECT relation, tail, match, cue, support_score, trivial, coverage "
                                       "FROM triples JOIN pairs USING (pair_id) WHERE head='鲁迅'")
    assert rows and all(round(r[4], 3) in (0.5, 0.75, 0.9, 1.0) and isinstance(r[5], bool) and 0 < r[6] <= 1 for r in rows)
    assert {r[1] for r in rows if r[5]} <= {"鲁迅"}  # a trivial tail restates the entity's name
    _, rows = run_query(str(built), "SELECT DISTINCT domain, split FROM pairs")
    assert rows and {r[1] for r in rows} <= {"train", "eval"}
    assert {r[0] for r in rows} <= {"HP", "HS", "TE", "NE", "unknown"}
    _, rows = run_query(str(built), "SELECT count(*) FROM discarded_triples WHERE tail='《朝花夕拾》'")
    assert rows[0][0] == 4  # three JSON Lines copies and one Parquet copy


def test_query_command_formats(built, capsys):
    assert main(["query", str(built), "SELECT entity, num_triples FROM pairs ORDER BY entity LIMIT 2",
                 "--format", "json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and set(json.loads(lines[0])) == {"entity", "num_triples"}
    assert main(["query", str(built), "SELECT * FROM no_such_view"]) == 2
    assert "query failed" in capsys.readouterr().err


def test_user_errors_are_clear(tmp_path, capsys, built):
    assert main(["build", "--input", str(tmp_path / "nothing-*.jsonl"), "--out", str(tmp_path / "o")]) == 2
    assert "matches no file" in capsys.readouterr().err
    # An earlier build is never overwritten by accident.
    assert main(["build", "--input", str(built / "stats.json"), "--out", str(built)]) == 2
    err = capsys.readouterr().err
    assert "neither JSON Lines" in err or "already holds" in err
    assert main(["query", str(tmp_path), "SELECT 1"]) == 2
    assert "not a cdtp build output" in capsys.readouterr().err


def test_same_content_from_one_worker_and_two_processes(built, inputs, tmp_path):
    out2 = tmp_path / "mp"
    rc = main(["build", "--input", str(inputs["dir"] / "raw-*"), "--out", str(out2), "--no-near-duplicate",
               "--min-relation-count", "4", "--num-shards", "2", "--runner", "DirectRunner",
               "--direct_running_mode=multi_processing", "--direct_num_workers=2"])
    assert rc == 0
    assert _content_hash(out2) == _content_hash(built)
    # Deterministic sharding: even the file layout and bytes are the same.
    files1 = sorted(p.relative_to(built).as_posix() for p in built.rglob("*.parquet"))
    files2 = sorted(p.relative_to(out2).as_posix() for p in out2.rglob("*.parquet"))
    assert files1 == files2
    s1, s2 = (json.loads((d / "stats.json").read_text()) for d in (built, out2))
    assert s1["funnel"] == s2["funnel"] and s1["relations"] == s2["relations"]


def test_shards_are_balanced(tmp_path):
    from pipeline.write import WriteParquetShards

    rows = [{"kind": "entry", "entry_key": f"k{i}", "fate": "kept", "stage": "finalise", "reason": "kept"}
            for i in range(20_000)]
    with _test_pipeline() as p:
        _ = p | beam.Create(rows) | WriteParquetShards(str(tmp_path / "audit"), AUDIT_SCHEMA, ("entry_key",),
                                                       num_shards=4, row_group_size=2_000)
    files = sorted((tmp_path / "audit").glob("part-*-of-00004.parquet"))
    counts = [pq.ParquetFile(f).metadata.num_rows for f in files]
    assert len(counts) == 4 and sum(counts) == 20_000
    assert max(counts) - min(counts) < 0.1 * 5_000, counts
    # Rows inside a shard are sorted by the key: reruns write the same bytes.
    keys = pq.read_table(files[0], columns=["entry_key"]).column(0).to_pylist()
    assert keys == sorted(keys)


def test_equal_sort_keys_are_ordered_by_content_whatever_the_run_order():
    """An entry given twice gives rows with equal keys; their order in the
    file must not depend on which run (bundle) came first."""
    from pipeline.write import RowKeyer, keyed_table, sort_order

    keyer = RowKeyer(AUDIT_SCHEMA.names, ("entry_key",))
    rows = [{"kind": "entry", "entry_key": k, "fate": "kept", "stage": "finalise", "reason": "kept", "source": src}
            for k, src in [("b", "x.jsonl@0"), ("a", "y.jsonl@9"), ("a", "x.jsonl@5"), ("c", None)]]
    orders = []
    for perm in (rows, rows[::-1], rows[2:] + rows[:2]):
        keyed = keyed_table(AUDIT_SCHEMA, [keyer(r) for r in perm])
        table = keyed.take(sort_order(keyed))
        orders.append(list(zip(table.column("entry_key").to_pylist(), table.column("source").to_pylist())))
    assert orders[0] == orders[1] == orders[2]
    assert [k for k, _ in orders[0]] == ["a", "a", "b", "c"]


def test_an_entrys_audit_rows_share_a_shard_whatever_the_batch(tmp_path):
    """Rows are sharded one by one by their first key column, so batches of
    mixed entries are spread, and all rows of one entry land together."""
    from pipeline.write import WriteParquetShards

    rows = [{"kind": kind, "entry_key": f"k{i}", "triple_id": f"t{i}-{j}" if kind == "triple" else None,
             "fate": "kept", "stage": "finalise", "reason": "kept"}
            for i in range(400) for j, kind in enumerate(["entry", "triple", "triple"])]
    batches = [rows[i:i + 64] for i in range(0, len(rows), 64)]  # batches cut across entries
    with _test_pipeline() as p:
        _ = p | beam.Create(batches) | WriteParquetShards(
            str(tmp_path / "audit"), AUDIT_SCHEMA, ("entry_key", "kind", "triple_id"), num_shards=4)
    shard_of: dict[str, set] = {}
    for f in sorted((tmp_path / "audit").glob("part-*.parquet")):
        for key in pq.read_table(f, columns=["entry_key"]).column(0).to_pylist():
            shard_of.setdefault(key, set()).add(f.name)
    assert len(shard_of) == 400 and all(len(s) == 1 for s in shard_of.values())
    assert len({next(iter(s)) for s in shard_of.values()}) == 4


@pytest.mark.shared
def test_whole_build_on_real_kdconv_entities(shared_data, tmp_path):
    """KdConv film/music entities (summary + infobox-style triples) as raw entries."""
    from benchmarks.raw_corpus import _kdconv

    raws = []
    for i, rec in enumerate(_kdconv(shared_data / "kdconv" / "entities_film_music_from_dev_test.jsonl")):
        raws.append({"url": f"https://baike.example/item/{i}", "source": "baidu", "lemma_id": f"kd{i}",
                     "title": rec["title"], "summary": rec["summary"], "tags": rec["tags"],
                     "infobox": [{"name": r, "value": t, "value_links": []} for r, t in rec["infobox"]]})
    src = tmp_path / "raw-00000.jsonl"
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in raws), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--input", str(src), "--out", str(out), "--runner", "DirectRunner"]) == 0
    audit = _read(out, "audit").to_pylist()
    entries = [r for r in audit if r["kind"] == "entry"]
    assert len(entries) == len(raws)
    n_triples = sum(len(entry_to_pair(r)["triples"]) for r in raws)
    assert sum(1 for r in audit if r["kind"] == "triple") == n_triples
    pairs = _read(out, "pairs").to_pylist()
    assert len(pairs) == sum(1 for r in entries if r["fate"] == "kept") > 0
    # Every kept triple's tail is found in the text at its recorded span.
    for p in pairs:
        for t in p["triples"]:
            assert 0 <= t["start"] < t["end"] <= len(p["text"]) and t["match"]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["relations"]["top"] and sum(stats["triples_per_pair"]["counts"].values()) == len(pairs)


def test_config_file_flags_and_set_overrides(tmp_path):
    from pipeline.config import load_config
    from pipeline.errors import CdtpError

    f = tmp_path / "build.json"
    f.write_text(json.dumps({"relation_frequency": {"min_count": 3, "top_k": 50},
                             "cleaning": {"position_index_threshold": 0.8}}))
    cfg = load_config(str(f), {"relation_frequency": {"min_count": 7}},
                      ["output.num_shards=8", "cleaning.trim_mode=true"])
    assert cfg.relation_frequency.min_count == 7  # flags win over the file
    assert cfg.relation_frequency.top_k == 50
    assert cfg.cleaning.position_index_threshold == 0.8 and cfg.cleaning.trim_mode is True
    assert cfg.output.num_shards == 8
    echo = cfg.to_dict()
    assert echo["relation_frequency"]["min_count"] == 7 and json.dumps(echo, ensure_ascii=False)
    f.write_text(json.dumps({"cleaning": {"no_such_knob": 1}}))
    with pytest.raises(CdtpError, match="unknown key"):
        load_config(str(f))
    with pytest.raises(CdtpError, match="expected an integer"):
        load_config(None, None, ["output.num_shards=\"many\""])
    # an unknown section, or no field, is a clear error (it was a KeyError traceback)
    with pytest.raises(CdtpError, match="unknown section 'nosuch'; sections: cleaning"):
        load_config(None, None, ["nosuch.field=1"])
    for bad in (".=1", "relation_frequency=3", "cleaning..x=1"):
        with pytest.raises(CdtpError, match="--set expects section.field=VALUE"):
            load_config(None, None, [bad])
    # a negative shard count ran as automatic (or as one shard) while stats.json recorded it
    for bad, said in (("output.num_shards=-1", "num_shards must be >= 0"), ("items.num_shards=-2", "num_shards must"),
                      ("output.row_group_size=0", "row_group_size must be >= 1")):
        with pytest.raises(CdtpError, match=said):
            load_config(None, None, [bad])


def test_stages_off_partitions_use_placeholders_and_query_keeps_nulls(inputs, tmp_path):
    out = tmp_path / "off"
    assert main(["build", "--input", str(inputs["dir"] / "raw-00000.jsonl"), "--out", str(out),
                 "--no-domain", "--no-split", "--min-relation-count", "1"]) == 0
    dirs = {f.parent.relative_to(out / "pairs").as_posix() for f in (out / "pairs").rglob("*.parquet")}
    assert dirs == {"domain=unknown/split=unassigned"}
    _, rows = run_query(str(out), "SELECT DISTINCT domain, split FROM pairs")
    assert rows == [(None, None)]
