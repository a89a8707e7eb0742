"""Never report success for lost output (issue 12, point 1).

A build checks what it wrote against its own funnel, and refuses local paths
with runners whose workers may not share the launcher's disk. The lost-output
case with a real worker pool in its own mount namespace is in
tests/test_cluster_rehearsal.py; here the damage is done by hand to a real
build, one kind at a time, so each test names the reason it expects.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from apache_beam.options.pipeline_options import PipelineOptions

from pipeline.cli import main
from pipeline.config import load_config
from pipeline.errors import CdtpError
from pipeline.output_check import verify_written, workers_may_not_share_disk
from tests.build_fixtures import write_fixture

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def raw(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("raw")
    write_fixture(d / "raw-00000.jsonl", repeat=3)
    return d


@pytest.fixture(scope="module")
def built(raw, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / "out"
    assert main(["build", "--input", str(raw / "raw-*"), "--out", str(out), "--min-relation-count", "4",
                 "--num-shards", "2", "--runner", "DirectRunner"]) == 0
    return out


def _copy(built: Path, tmp_path: Path) -> tuple[Path, dict, object]:
    out = tmp_path / "copy"
    shutil.copytree(built, out)
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    cfg = load_config(overrides={"output": {"out_dir": str(out)}})
    return out, stats, cfg


def test_a_good_build_records_its_check_config_and_code_version(built):
    stats = json.loads((built / "stats.json").read_text(encoding="utf-8"))
    finalised = next(s for s in stats["funnel"] if s["stage"] == "finalise")["out"]["entries"]
    assert finalised > 0
    assert stats["output_check"]["pairs"]["rows"] == finalised
    assert stats["output_check"]["audit"]["rows"] == sum(v for t in stats["totals"].values() for v in t.values())
    assert stats["config"]["relation_frequency"]["min_count"] == 4
    cv = stats["code_version"]
    assert cv["package"] and len(cv["source_sha256"]) == 64


def test_a_missing_pairs_shard_is_an_error_naming_both_counts(built, tmp_path):
    out, stats, cfg = _copy(built, tmp_path)
    victim = sorted((out / "pairs").rglob("*.parquet"))[0]
    victim.unlink()
    with pytest.raises(CdtpError) as exc:
        verify_written(str(out), stats, cfg)
    msg = str(exc.value)
    finalised = stats["output_check"]["pairs"]["rows"]
    assert f"but the funnel counted {finalised}" in msg and "pairs/ holds" in msg


def test_a_truncated_shard_is_unreadable(built, tmp_path):
    out, stats, cfg = _copy(built, tmp_path)
    victim = sorted((out / "audit").rglob("*.parquet"))[0]
    victim.write_bytes(victim.read_bytes()[:-20])
    with pytest.raises(CdtpError, match=r"audit/part-00000-of-00002\.parquet is not readable Parquet"):
        verify_written(str(out), stats, cfg)


def test_stats_without_relations_or_split_is_incomplete(built, tmp_path):
    out, stats, cfg = _copy(built, tmp_path)
    stats["relations"]["top"] = []
    del stats["split"]
    with pytest.raises(CdtpError) as exc:
        verify_written(str(out), stats, cfg)
    assert "no top relations" in str(exc.value) and "no split section" in str(exc.value)


def test_only_empty_placeholders_is_lost_output(built, tmp_path):
    """What a worker on its own disk leaves the launcher: counters, and no rows."""
    out, stats, cfg = _copy(built, tmp_path)
    for name in ("pairs", "audit", "discarded_triples"):
        shutil.rmtree(out / name)
    with pytest.raises(CdtpError, match="pairs/ holds 0 rows in 0 files"):
        verify_written(str(out), stats, cfg)


def test_input_the_workers_could_not_see_is_an_error(built, tmp_path):
    """Workers that match no file build nothing, consistently; the launcher's matched bytes disagree."""
    out, stats, cfg = _copy(built, tmp_path)
    for name in ("pairs", "audit", "discarded_triples"):
        shutil.rmtree(out / name)
    for section in stats["totals"].values():
        section.update(kept=0, dropped=0)
    for step in stats["funnel"]:
        step["in"] = {"entries": 0, "triples": 0}
        step["out"] = {"entries": 0, "triples": 0}
    stats["triples_per_pair"]["counts"] = {b: 0 for b in stats["triples_per_pair"]["counts"]}
    stats["blank_lines"] = 0
    verify_written(str(out), stats, cfg)  # nothing in, nothing out: consistent by itself
    with pytest.raises(CdtpError, match="matched 1,234 bytes of input, but the workers read no record"):
        verify_written(str(out), stats, cfg, input_bytes=1234)


@pytest.mark.parametrize("args,shared", [
    (["--runner=DirectRunner"], True),
    (["--runner=PortableRunner", "--environment_type=LOOPBACK"], True),
    (["--runner=PortableRunner", "--environment_type=EXTERNAL", "--environment_config=localhost:1"], False),
    (["--runner=PortableRunner"], False),  # DOCKER by default
    (["--runner=DataflowRunner"], False),
])
def test_which_runners_may_not_share_the_disk(args, shared):
    assert (workers_may_not_share_disk(PipelineOptions(args)) is None) == shared


def test_local_out_with_remote_workers_is_refused_before_the_job(raw, tmp_path, capsys):
    out = tmp_path / "never"
    rc = main(["build", "--input", str(raw / "raw-*"), "--out", str(out), "--runner=PortableRunner",
               "--job_endpoint=embed", "--environment_type=EXTERNAL", "--environment_config=localhost:1"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "are local paths" in err and "--force-local-paths" in err and "s3://" in err
    assert not out.exists()  # refused before the job: nothing written, nothing started


def test_a_local_embedding_cache_with_remote_workers_is_refused(tmp_path, capsys):
    """Chunks embedded on one worker are read back on another: a cache on each
    worker's own disk would lack them (`--out` in a store does not help)."""
    rc = main(["build", "--input", "s3://bucket/raw-*", "--out", "s3://bucket/out", "--embed-cache",
               str(tmp_path / "cache"), "--runner=PortableRunner", "--job_endpoint=embed",
               "--environment_type=EXTERNAL", "--environment_config=localhost:1"])
    assert rc == 2
    err = capsys.readouterr().err
    assert f"--embed-cache {tmp_path / 'cache'} is a local path" in err and "--out s3://" not in err
    assert not (tmp_path / "cache").exists()


def test_a_build_of_an_empty_input_reads_back(tmp_path, capsys):
    """An empty input gives empty outputs, each one empty shard so that
    readers see the schema; the build's own record counts those shards, so
    `cdtp query` reads them instead of calling them replaced."""
    (tmp_path / "empty.jsonl").write_bytes(b"")
    out = tmp_path / "out"
    assert main(["build", "--input", str(tmp_path / "empty.jsonl"), "--out", str(out), "--runner", "DirectRunner"]) == 0
    record = json.loads((out / "stats.json").read_text(encoding="utf-8"))["output_check"]
    assert {k: record["pairs"][k] for k in ("files", "rows")} == {"files": 1, "rows": 0}
    assert {k: record["audit"][k] for k in ("files", "rows")} == {"files": 1, "rows": 0}
    capsys.readouterr()
    for view in ("pairs", "audit", "discarded_triples"):
        assert main(["query", str(out), f"SELECT count(*) AS n FROM {view}", "--format", "csv"]) == 0
        assert capsys.readouterr().out.split() == ["n", "0"]


def _relation_counts(base: Path) -> dict[str, int]:
    import pyarrow.parquet as pq

    counts: dict[str, int] = {}
    for f in sorted(base.rglob("*.parquet")):
        for triples in pq.ParquetFile(f).read(columns=["triples"]).column("triples").to_pylist():
            for t in triples:
                counts[t["relation"]] = counts.get(t["relation"], 0) + 1
    return counts


def test_stats_top_relations_are_those_of_the_written_pairs(built):
    """stats.json `relations.top` was counted by the relation-frequency stage, before near-duplicates
    (here) or search validation dropped pairs and triples: it said 中文名 12 where pairs/ holds 4."""
    stats = json.loads((built / "stats.json").read_text(encoding="utf-8"))
    counts = _relation_counts(built / "pairs")
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[: stats["config"]["output"]["top_relations"]]
    assert stats["relations"]["top"] == [{"relation": r, "count": n} for r, n in ranked]
    assert stats["relations"]["distinct"] == len(counts)
    assert sum(counts.values()) == stats["totals"]["triple"]["kept"]
    # The stage's own counts keep their honest name: what the frequency filter decided on.
    early = stats["relations"]["top_after_cleaning"]
    assert early[0]["relation"] == "中文名" and early[0]["count"] > counts["中文名"]
    assert stats["relations"]["distinct_after_cleaning"] >= stats["relations"]["kept"] >= len(counts)


def _rewrite_same_rows(path: Path) -> None:
    """Replace a pairs shard with valid Parquet of the same schema and row count, other content."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    t = pq.ParquetFile(path).read()
    assert t.num_rows >= 1
    i = t.schema.get_field_index("text")
    texts = t.column("text").to_pylist()
    texts[0] = texts[0] + "（已改）"
    pq.write_table(t.set_column(i, t.schema.field(i), pa.array(texts, t.schema.field(i).type)), path)


def test_read_back_compares_each_files_content_hash(built, tmp_path):
    """output_check recorded files and rows only: a shard replaced by other valid Parquet of the same
    rows passed read_back (so `cdtp release` shipped it); an edited ontology was not checked at all."""
    import hashlib

    import pyarrow.parquet as pq

    out, stats, cfg = _copy(built, tmp_path)
    record = stats["output_check"]
    for name in ("pairs", "audit", "discarded_triples", "items"):
        base = out / name
        assert record[name]["sha256"] == {p.relative_to(base).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                                          for p in sorted(base.rglob("*.parquet"))}, name
    ontologies = sorted((out / "ontologies").glob("*.json"))
    assert ontologies and record["ontologies"] == {
        "files": len(ontologies), "sha256": {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in ontologies}}
    assert verify_written(str(out), stats, cfg, read_back=True)["pairs"] == record["pairs"]
    victim = next(p for p in sorted((out / "pairs").rglob("*.parquet")) if pq.read_metadata(p).num_rows)
    _rewrite_same_rows(victim)
    with pytest.raises(CdtpError) as exc:
        verify_written(str(out), stats, cfg, read_back=True)
    rel = victim.relative_to(out / "pairs").as_posix()
    assert f"pairs/{rel}" in str(exc.value) and "sha256" in str(exc.value)
    out2, stats2, cfg2 = _copy(built, tmp_path / "2")
    onto = sorted((out2 / "ontologies").glob("*.json"))[0]
    onto.write_bytes(onto.read_bytes().replace(b'"relations"', b'"relations" ', 1))
    with pytest.raises(CdtpError, match=rf"ontologies/{onto.name}.*sha256"):
        verify_written(str(out2), stats2, cfg2, read_back=True)
    (out2 / "ontologies" / onto.name).unlink()
    with pytest.raises(CdtpError, match=rf"ontologies/{onto.name}"):
        verify_written(str(out2), stats2, cfg2, read_back=True)
