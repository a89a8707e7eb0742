"""`cdtp build` under faults and hostile input (issue 11: defects 1, 2, 11; fault tests).

* Hostile files given to the build (a deeply nested line, NUL bytes, wrong
  types, huge values, a truncated .gz shard, a corrupt, a zero-byte and a
  wrong-schema Parquet file): the build finishes, and the audit has exactly
  one entry row per input record, each rejected one with its reason.
* A failed `--overwrite` build keeps the previous outputs (defect 2).
* A build killed with SIGKILL leaves only scratch, which the next run removes
  and reports; the rerun's content equals an uninterrupted run's (defect 11).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from schemas.raw_entry import RAW_ENTRY_SCHEMA
from tests.build_fixtures import ENTRIES, embed_cache_folder, write_cut_cache_file, write_fixture

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def _content_hash(out: Path) -> str:
    """Hash of the sorted rows of every output, independent of the file layout."""
    h = hashlib.sha256()
    for name in ("pairs", "audit", "discarded_triples"):
        rows = sorted(json.dumps(r, ensure_ascii=False, sort_keys=True, default=str)
                      for f in sorted((out / name).rglob("*.parquet")) for r in pq.read_table(f).to_pylist())
        h.update(name.encode())
        for r in rows:
            h.update(r.encode())
    return h.hexdigest()


def _audit_entries(out: Path) -> list[dict]:
    rows = [r for f in sorted((out / "audit").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
    return [r for r in rows if r["kind"] == "entry"]


# ---------------------------------------------------------------- hostile input

def _hostile_inputs(d: Path) -> dict:
    """Files of every hostile kind; returns how many records each should account for."""
    d.mkdir(parents=True)
    meta = write_fixture(d / "raw-good.jsonl")  # 9 entries, a blank line and 5 bad lines
    good = dict(ENTRIES[1][0])
    hostile = [
        '{"title":"x","summary":"y","tags":' + "[" * 1000 + "]" * 1000 + "}",       # defect 1
        json.dumps(dict(good, lemma_id="nul", summary="长江\x00全长6397公里。"), ensure_ascii=False),
        json.dumps(dict(good, lemma_id="d30", depth=10**30), ensure_ascii=False),      # defect 11
        json.dumps(dict(good, lemma_id="yd", fetched_at="yesterday"), ensure_ascii=False),
        json.dumps(dict(good, lemma_id="huge", summary="长" * 300_000), ensure_ascii=False),
        json.dumps(dict(good, lemma_id="types", infobox=[{"name": ["x"], "value": {"a": 1}}], links=7)),
        '{"title": "截断', "\x00\x00\x00", "null", "[]", '"a string"',
    ]
    (d / "raw-hostile.jsonl").write_text("\n".join(hostile) + "\n", encoding="utf-8")
    # A .gz shard cut in the middle: its first lines are read, the rest is one row.
    whole = gzip.compress(("\n".join(json.dumps(dict(good, lemma_id=f"gz{i}"), ensure_ascii=False)
                                     for i in range(2000)) + "\n").encode())
    (d / "raw-cut.jsonl.gz").write_bytes(whole[: len(whole) // 2])
    rows = [dict(ENTRIES[2][0], lemma_id="pq-ok")]
    pq.write_table(pa.Table.from_pylist(rows, schema=RAW_ENTRY_SCHEMA), d / "raw-ok.parquet")
    (d / "raw-zero.parquet").write_bytes(b"")
    (d / "raw-garbage.parquet").write_bytes(b"PAR1" + os.urandom(64) + b"PAR1")
    pq.write_table(pa.table({"name": ["鲁迅"], "depth": [1.5]}), d / "raw-wrong-schema.parquet")
    return {"good": meta["entries"], "bad": meta["bad"], "hostile": len(hostile)}


def test_hostile_files_end_in_audit_rows_with_reasons(tmp_path, capsys):
    inputs = _hostile_inputs(tmp_path / "in")
    out = tmp_path / "out"
    rc = main(["build", "--input", str(tmp_path / "in" / "raw-*"), "--out", str(out), "--no-domain",
               "--min-relation-count", "1", "--num-shards", "1"])
    assert rc == 0, capsys.readouterr().err
    entries = _audit_entries(out)
    by_source: dict[str, list[dict]] = {}
    for r in entries:
        by_source.setdefault(r["source"].split("@")[0].split("#")[0].rsplit("/", 1)[-1], []).append(r)
    # inputs = outputs + rejected: one entry row per input record, no more, no less.
    assert len(by_source["raw-good.jsonl"]) == inputs["good"] + inputs["bad"]
    hostile = by_source["raw-hostile.jsonl"]
    assert len(hostile) == inputs["hostile"]
    reasons = {r["source"].rsplit("@", 1)[1]: (r["reason"], r["detail"] or "") for r in hostile}
    details = " | ".join(d for _, d in reasons.values())
    assert "nested more than" in details and "depth: too large" in details and "not an ISO 8601 time" in details
    assert "infobox[0].name" in details
    assert sum(reason == "invalid_input" for reason, _ in reasons.values()) == inputs["hostile"] - 2
    # The NUL-byte and the huge summary are entries like any other (their fate is the cleaning's).
    kept_or_cleaned = [r for r in hostile if r["reason"] != "invalid_input"]
    assert {r["entry_key"] for r in kept_or_cleaned} == {"baidu:lemma:nul", "baidu:lemma:huge"}
    # The cut .gz: some lines read, then one row saying where the file broke.
    gz = by_source["raw-cut.jsonl.gz"]
    broken = [r for r in gz if "unreadable compressed file" in (r["detail"] or "")]
    assert len(broken) == 1 and 0 < len(gz) - 1 < 2000
    # Parquet: the good file's row, one row per unreadable file, the wrong schema row rejected.
    assert [r["reason"] for r in by_source["raw-ok.parquet"]] != ["invalid_input"]
    for name in ("raw-zero.parquet", "raw-garbage.parquet"):
        [row] = by_source[name]
        assert row["reason"] == "invalid_input" and "unreadable Parquet file" in row["detail"]
    [row] = by_source["raw-wrong-schema.parquet"]
    assert row["reason"] == "invalid_input" and "title" in row["detail"]
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    assert stats["totals"]["entry"]["kept"] + stats["totals"]["entry"]["dropped"] == len(entries)
    assert not (out / "_staging").exists() and not (out / "_spill").exists()


# -------------------------------------------------------------- overwrite, kill

@pytest.fixture(scope="module")
def raw_input(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("raw")
    write_fixture(d / "raw-00000.jsonl", repeat=12)
    return d / "raw-00000.jsonl"


BUILD_ARGS = ["--min-relation-count", "4", "--num-shards", "2", "--no-domain"]


@pytest.fixture(scope="module")
def reference(raw_input, tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("ref") / "out"
    assert main(["build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS]) == 0
    return out, _content_hash(out)


# What a finished build leaves in OUT: its outputs and the embedding cache, no scratch.
OUTPUT_LISTING = ["audit", "discarded_triples", "embed_cache", "items", "ontologies", "pairs", "stats.json"]


def test_a_failed_overwrite_keeps_the_previous_outputs(reference, raw_input, tmp_path, capsys):
    out = tmp_path / "out"
    shutil.copytree(reference[0], out)  # the previous, good build
    before = _content_hash(out)
    assert before == reference[1]
    stats_before = (out / "stats.json").read_bytes()
    capsys.readouterr()
    # The new build fails after it started (an unknown runner): nothing of the old one is lost.
    rc = main(["build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS, "--overwrite",
               "--runner", "NoSuchRunner", "--force-local-paths"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "cannot start the pipeline" in err and "Traceback" not in err
    assert _content_hash(out) == before and (out / "stats.json").read_bytes() == stats_before
    assert sorted(p.name for p in out.iterdir()) == OUTPUT_LISTING
    # A successful --overwrite replaces them, and leaves no scratch.
    assert main(["build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS, "--overwrite"]) == 0
    assert _content_hash(out) == before
    assert sorted(p.name for p in out.iterdir()) == OUTPUT_LISTING


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "pipeline.cli", *args]


def _signal_mid_job(raw_input: Path, out: Path, sig: int, *extra: str) -> tuple[subprocess.Popen, str]:
    """Start a build in a child process, send it `sig` once its job has written
    spill files, and wait for it; (the process, its stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(_cli("build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS, *extra),
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    spill = out / "_staging" / "_spill"
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if spill.is_dir() and any(spill.rglob("*.*")):
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the build ended before the signal could be sent"
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc, err


def test_a_killed_build_leaves_only_scratch_and_the_rerun_matches(reference, raw_input, tmp_path):
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc, _ = _signal_mid_job(raw_input, out, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    # What the killed build left: scratch only, no outputs in OUT.
    assert sorted(p.name for p in out.iterdir()) == ["_staging"]
    rerun = subprocess.run(_cli("build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS),
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert "cleared what an interrupted build left" in rerun.stderr and "_staging/" in rerun.stderr
    assert sorted(p.name for p in out.iterdir()) == OUTPUT_LISTING
    assert _content_hash(out) == reference[1]


def test_out_that_is_a_file_is_a_clear_error(raw_input, tmp_path, capsys):
    target = tmp_path / "a-file"
    target.write_text("not a directory", encoding="utf-8")
    assert main(["build", "--input", str(raw_input), "--out", str(target), *BUILD_ARGS]) == 2
    err = capsys.readouterr().err
    assert "exists and is not a directory" in err and "Traceback" not in err
    assert target.read_text(encoding="utf-8") == "not a directory"


# ------------------------------------------------------------ embedding cache

def test_a_stray_file_in_the_embedding_cache_is_refused_before_the_build(raw_input, tmp_path, capsys, caplog):
    out = tmp_path / "out"
    (embed_cache_folder(out / "embed_cache") / "cache-notes.arrow").write_text("notes, not vectors", encoding="utf-8")
    assert main(["build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "cache-notes.arrow in the embedding cache is not a vector file" in err and "--embed-cache" in err
    assert "while running" not in err and not [r for r in caplog.records if r.exc_info]  # no job ran
    assert sorted(p.name for p in out.iterdir()) == ["embed_cache"]  # refused before OUT was touched


def test_a_truncated_cache_file_fails_the_job_in_one_clear_line(raw_input, tmp_path, capsys, caplog):
    """Its schema reads, so the build starts; the worker that maps the file
    raises a CdtpError, which the CLI prints once: Beam does not log it with
    the worker's traceback first."""
    out = tmp_path / "out"
    write_cut_cache_file(out / "embed_cache")
    assert main(["build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "cache-cut.arrow in the embedding cache is not a vector file" in err and "while running" in err
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage()[:200] for r in caplog.records]
    assert sorted(p.name for p in out.iterdir()) == ["embed_cache"]  # the staging directory is discarded


@pytest.mark.parametrize("typo", [["--postion-index", "0.9"], ["--min-relation-cout", "1"], ["--no_such_beam_flag"]])
def test_a_misspelt_option_is_refused_before_the_build(raw_input, tmp_path, capsys, typo):
    # Beam only logged "Discarding unparseable args" and the build ran with the default.
    out = tmp_path / "out"
    assert main(["build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS, *typo]) == 2
    err = capsys.readouterr().err
    assert f"unknown option {typo[0]}: neither cdtp's nor Beam's" in err and "Traceback" not in err
    assert not out.exists()


def test_ctrl_c_during_the_job_is_an_interruption_and_keeps_the_old_outputs(reference, raw_input, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(reference[0], out)
    proc, err = _signal_mid_job(raw_input, out, signal.SIGINT, "--overwrite")
    # It was reported as a failed job ("the Beam job failed on the runner (RuntimeError): KeyboardInterrupt").
    assert proc.returncode == 130, err[-2000:]
    assert "cdtp: interrupted" in err and "job failed" not in err and "Traceback" not in err
    assert _content_hash(out) == reference[1]


@pytest.mark.parametrize("flags, said", [
    (["--search-backend", "local", "--searxng-url", "http://127.0.0.1:9"], "--searxng-url cannot go with --search-backend local"),
    (["--search-backend", "searxng", "--search-index", "x.duckdb"], "--search-index cannot go with --search-backend searxng"),
    (["--search-backend", "off", "--search-index", "x.duckdb"], "--search-index cannot go with --search-backend off"),
    (["--search-index", "x.duckdb", "--searxng-url", "http://127.0.0.1:9"], "--search-index and --searxng-url cannot go with each other"),
])
def test_options_of_two_search_backends_are_refused(raw_input, tmp_path, capsys, flags, said):
    # `--search-backend local --searxng-url URL` ran the local backend and ignored the URL.
    out = tmp_path / "out"
    assert main(["build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS, *flags]) == 2
    assert said in capsys.readouterr().err
    assert not out.exists()


def test_a_build_refused_for_its_search_index_leaves_nothing(raw_input, tmp_path, capsys):
    out = tmp_path / "out"
    bad = tmp_path / "not-an-index.duckdb"
    bad.write_bytes(b"not a duckdb file")
    assert main(["build", "--input", str(raw_input), "--out", str(out), *BUILD_ARGS, "--search-index", str(bad)]) == 2
    assert "Traceback" not in capsys.readouterr().err
    assert not (out / "_staging").exists()  # it stayed until the next build removed it
