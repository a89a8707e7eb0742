"""`cdtp query` is read-only and confined to the build directory (issue 11,
defect 5), and a corrupt or missing output is a clear error naming the file
while the other views keep working (defect 6).

The build directory is written here directly with the output schemas (a
few rows of our own), so these tests need no Beam run.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.errors import CdtpError
from pipeline.query import run_query
from schemas.outputs import AUDIT_SCHEMA, DISCARDED_TRIPLE_SCHEMA, PAIR_SCHEMA

TRIPLE = {"head": "长江", "relation": "发源地", "tail": "青藏高原", "start": 9, "end": 13, "match": "exact",
          "tail_type": "place", "search_status": None, "search_evidence": None, "triple_id": "t1"}
PAIR = {"pair_id": "p1", "entity": "长江", "subtitle": None, "text": "长江全长6397公里，发源于青藏高原。",
        "triples": [TRIPLE], "source_url": "https://baike.baidu.com/item/长江/102", "position_index": 0.9,
        "num_triples": 1, "text_length": 18, "tags": ["河流"], "entity_type": "place", "domain": "NE",
        "domain_confidence": 0.9, "domain_evidence": "tags", "split": "train", "in_subset": True}
AUDIT = [{"kind": "entry", "entry_key": "baidu:lemma:102", "pair_id": "p1", "triple_id": None, "head": "长江",
          "relation": None, "tail": None, "fate": "kept", "stage": "finalise", "reason": "kept", "detail": None,
          "source": "raw.jsonl@0"},
         {"kind": "entry", "entry_key": "input:raw.jsonl@99", "pair_id": None, "triple_id": None, "head": None,
          "relation": None, "tail": None, "fate": "dropped", "stage": "read", "reason": "invalid_input",
          "detail": "raw.jsonl@99: malformed JSON", "source": "raw.jsonl@99"}]
DISCARDED = [{"pair_id": "p1", "entity": "长江", "head": "长江", "relation": "全长", "tail": "6300公里",
              "stage": "redundant_triple", "reason": "unsupported_by_text", "source_url": None}]


def _table(rows, schema):
    return pa.Table.from_pylist(rows, schema=schema)


@pytest.fixture()
def build(tmp_path) -> Path:
    out = tmp_path / "build"
    (out / "pairs" / "domain=NE" / "split=train").mkdir(parents=True)
    (out / "audit").mkdir()
    (out / "discarded_triples").mkdir()
    pq.write_table(_table([PAIR], PAIR_SCHEMA), out / "pairs" / "domain=NE" / "split=train" / "part-00000-of-00001.parquet")
    pq.write_table(_table(AUDIT, AUDIT_SCHEMA), out / "audit" / "part-00000-of-00002.parquet")
    pq.write_table(_table(AUDIT[:1], AUDIT_SCHEMA), out / "audit" / "part-00001-of-00002.parquet")
    (out / "stats.json").write_text("{}", encoding="utf-8")  # a finished build's record (no output_check)
    pq.write_table(_table(DISCARDED, DISCARDED_TRIPLE_SCHEMA), out / "discarded_triples" / "part-00000-of-00001.parquet")
    return out


def test_a_query_that_is_not_utf8_is_a_clear_error(build, capsys):
    from pipeline.cli import main

    # the shell passes such bytes as surrogates; DuckDB's parser raised a TypeError
    assert main(["query", str(build), "SELECT \udcff\udcfe"]) == 2
    assert "the query is not UTF-8 text" in capsys.readouterr().err
    # two statements printed the second's rows only
    assert main(["query", str(build), "SELECT 1; SELECT 2"]) == 2
    assert "one statement per query, not 2" in capsys.readouterr().err


def test_views_work_on_a_healthy_build(build):
    assert run_query(str(build), "SELECT count(*) FROM pairs")[1] == [(1,)]
    assert run_query(str(build), "SELECT tail FROM triples")[1] == [("青藏高原",)]
    assert run_query(str(build), "SELECT count(*) FROM audit")[1] == [(3,)]
    assert run_query(str(build), "SELECT relation FROM discarded_triples")[1] == [("全长",)]
    # Reading the build's own files directly stays allowed: they are inside the directory.
    assert run_query(str(build), f"SELECT count(*) FROM read_parquet('{build}/audit/*.parquet')")[1] == [(3,)]


# ------------------------------------------------------------------- defect 5

OUTSIDE = [
    ("SELECT * FROM read_csv('/etc/passwd')", "reads only the build directory"),
    ("SELECT * FROM read_text('/etc/hostname')", "reads only the build directory"),
    ("SELECT * FROM read_blob('{parent}/secret.txt')", "reads only the build directory"),
    ("SELECT * FROM read_text('{build}/../secret.txt')", "reads only the build directory"),
    ("SELECT * FROM glob('/etc/*')", "reads only the build directory"),
    ("COPY (SELECT 1) TO '{parent}/copied.csv'", "COPY statements are not allowed"),
    ("COPY (SELECT 1) TO '{build}/pairs/evil.csv'", "COPY statements are not allowed"),
    ("ATTACH '{parent}/other.duckdb'", "ATTACH statements are not allowed"),
    ("INSTALL httpfs", "not allowed"),
    ("LOAD fts", "not allowed"),
    ("SET enable_external_access=true", "not allowed"),
    ("RESET lock_configuration", "not allowed"),
    ("PRAGMA enable_profiling", "not allowed"),
    ("CREATE TABLE t AS SELECT 1", "not allowed"),
    ("SELECT 1; COPY (SELECT 1) TO '{parent}/two.csv'", "COPY statements are not allowed"),
    ("SELECT * FROM read_csv('http://127.0.0.1:9/x.csv')", "reads only the build directory"),
    # EXPLAIN ANALYZE runs what it explains: it wrote a shard into the build (a second copy of pairs/)
    ("EXPLAIN ANALYZE COPY (SELECT * FROM pairs) TO '{build}/pairs/evil.csv'", "EXPLAIN COPY statements are not allowed"),
    ("/* c */ explain /* d */ (FORMAT json, ANALYZE) COPY (SELECT 1) TO '{build}/evil.csv'", "EXPLAIN COPY"),
    ("EXPLAIN ANALYSE CREATE TABLE t AS SELECT 1", "EXPLAIN CREATE statements are not allowed"),
]


@pytest.mark.parametrize("sql, message", OUTSIDE)
def test_query_cannot_leave_the_build_directory(build, sql, message, capsys):
    parent = build.parent
    (parent / "secret.txt").write_text("secret", encoding="utf-8")
    sql = sql.format(build=build, parent=parent)
    with pytest.raises(CdtpError, match=message):
        run_query(str(build), sql)
    assert sorted(p.name for p in parent.iterdir()) == ["build", "secret.txt"]
    assert not list(build.rglob("*.csv"))
    # Through the command line: a clear error, exit 2, no traceback.
    assert main(["query", str(build), sql]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cdtp: error: ") and "Traceback" not in err


def test_explain_of_a_select_still_runs(build):
    assert run_query(str(build), "EXPLAIN ANALYZE SELECT count(*) FROM pairs")[0] == ["explain_key", "explain_value"]
    assert run_query(str(build), "/* plan */ EXPLAIN (FORMAT json) SELECT * FROM audit")[1]
    assert run_query(str(build), "EXPLAIN (SELECT 1)")[1]
    assert run_query(str(build), "EXPLAIN ANALYZE (SELECT count(*) FROM pairs) UNION ALL (SELECT 1)")[1]


def test_settings_cannot_be_undone_from_inside_a_select(build):
    with pytest.raises(CdtpError):
        run_query(str(build), "SELECT * FROM query('SET enable_external_access=true')")
    columns, rows = run_query(str(build), "SELECT current_setting('enable_external_access'), "
                                          "current_setting('lock_configuration'), "
                                          "current_setting('autoload_known_extensions'), "
                                          "current_setting('autoinstall_known_extensions')")
    assert rows == [(False, True, False, False)]


# ------------------------------------------------------------------- defect 6

def _corrupt(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "zero":
        path.write_bytes(b"")
    elif how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "footer":
        path.write_bytes(data[:-12] + bytes(b ^ 0xFF for b in data[-12:-4]) + data[-4:])
    elif how == "garbage":
        path.write_bytes(b"PAR1 this is not parquet PAR1")


@pytest.mark.parametrize("how", ["zero", "truncated", "footer", "garbage"])
def test_a_corrupt_audit_shard_is_named_and_the_other_views_work(build, how, capsys):
    bad = build / "audit" / "part-00001-of-00002.parquet"
    _corrupt(bad, how)
    with pytest.raises(CdtpError, match=rf"view audit is unavailable: bad shard .*{bad.name}"):
        run_query(str(build), "SELECT count(*) FROM audit")
    assert run_query(str(build), "SELECT count(*) FROM pairs")[1] == [(1,)]
    assert run_query(str(build), "SELECT count(*) FROM triples")[1] == [(1,)]
    assert run_query(str(build), "SELECT count(*) FROM discarded_triples")[1] == [(1,)]
    assert main(["query", str(build), "SELECT * FROM audit"]) == 2
    err = capsys.readouterr().err
    assert bad.name in err and "Traceback" not in err


def test_a_corrupt_pairs_shard_takes_triples_with_it(build):
    bad = next((build / "pairs").rglob("*.parquet"))
    _corrupt(bad, "truncated")
    for view in ("pairs", "triples"):
        with pytest.raises(CdtpError, match=rf"view {view} is unavailable: .*{bad.name}"):
            run_query(str(build), f"SELECT count(*) FROM {view}")
    assert run_query(str(build), "SELECT count(*) FROM audit")[1] == [(3,)]


def test_a_bit_flip_in_the_data_names_the_file(build):
    """The footer is intact, so only reading the data finds it."""
    bad = build / "discarded_triples" / "part-00000-of-00001.parquet"
    table = _table(DISCARDED * 2000, DISCARDED_TRIPLE_SCHEMA)
    pq.write_table(table, bad, compression="snappy")
    data = bytearray(bad.read_bytes())
    for i in range(64, 2000, 7):
        data[i] ^= 0x5A
    bad.write_bytes(bytes(data))
    try:
        rows = run_query(str(build), "SELECT relation, tail, count(*) FROM discarded_triples GROUP BY ALL")[1]
    except CdtpError as exc:
        assert bad.name in str(exc)
    else:  # DuckDB read it without noticing: then it must read the same as pyarrow would
        pytest.fail(f"a damaged shard was read silently: {rows}")
    assert run_query(str(build), "SELECT count(*) FROM pairs")[1] == [(1,)]


def test_a_wrong_schema_shard_is_named(build):
    stray = build / "audit" / "part-00002-of-00002.parquet"
    pq.write_table(pa.table({"title": ["鲁迅"], "summary": ["x"]}), stray)
    with pytest.raises(CdtpError, match=rf"wrong schema for audit: missing column.*{stray.name}|{stray.name}.*wrong schema"):
        run_query(str(build), "SELECT count(*) FROM audit")
    assert run_query(str(build), "SELECT count(*) FROM pairs")[1] == [(1,)]


def test_a_missing_output_directory(build):
    shutil.rmtree(build / "discarded_triples")
    with pytest.raises(CdtpError, match="view discarded_triples is unavailable: .*discarded_triples/ is missing"):
        run_query(str(build), "SELECT count(*) FROM discarded_triples")
    assert run_query(str(build), "SELECT count(*) FROM audit")[1] == [(3,)]


def test_not_a_build_directory(tmp_path):
    with pytest.raises(CdtpError, match="not a cdtp build output"):
        run_query(str(tmp_path), "SELECT 1")
    with pytest.raises(CdtpError, match="does not exist"):
        run_query(str(tmp_path / "nope"), "SELECT 1")


# ------------------------------------------------------------- property: any SQL

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FRAGMENTS = st.sampled_from([
    "SELECT", "*", "count(*)", "FROM", "pairs", "triples", "audit", "discarded_triples", "WHERE", "1=1", ";",
    "COPY", "TO", "'/tmp/x.csv'", "ATTACH", "INSTALL", "LOAD", "httpfs", "SET", "enable_external_access", "=",
    "true", "read_csv('/etc/passwd')", "read_text('../x')", "glob('/*')", "(", ")", ",", "UNION", "ALL",
    "PRAGMA", "CALL", "EXPORT DATABASE '/tmp/e'", "IMPORT DATABASE '/tmp/e'", "CHECKPOINT", "DETACH", "USE",
    "CREATE", "MACRO", "m()", "AS", "getenv('HOME')", "query_table('pairs')", "'\x00'", "--", "/*", "*/",
    "EXPLAIN", "ANALYZE", "EXPLAIN ANALYZE COPY (SELECT 1) TO '{build}/pairs/x.csv'",
])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(FRAGMENTS, min_size=1, max_size=10), st.text(max_size=20))
def test_any_sql_is_rows_or_a_clear_error_and_nothing_is_written(build, words, noise):
    sql = " ".join(words).replace("{build}", str(build)) + " " + noise
    before = sorted(p.relative_to(build.parent).as_posix() for p in build.parent.rglob("*"))
    try:
        run_query(str(build), sql)
    except CdtpError as exc:
        assert str(exc)
    after = sorted(p.relative_to(build.parent).as_posix() for p in build.parent.rglob("*"))
    assert after == before


@pytest.mark.parametrize("text", ["[]", '"stats"', "null"])
def test_a_stats_file_that_is_no_object_is_refused(build, text, capsys):
    """stats.json `[]` was read as a build of a version without output_check: its shards unchecked."""
    (build / "stats.json").write_text(text, encoding="utf-8")
    assert main(["query", str(build), "SELECT count(*) FROM pairs"]) == 2
    err = capsys.readouterr().err
    assert "is not a cdtp stats file" in err and "Traceback" not in err


def test_a_symlink_out_of_the_build_directory_is_refused(build, tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("user,password\nroot,hunter2\n", encoding="utf-8")
    (build / "pairs" / "notes.csv").symlink_to(secret)
    with pytest.raises(CdtpError, match=r"symbolic links that point outside it \(pairs/notes.csv\)"):
        run_query(str(build), f"SELECT * FROM read_csv('{build}/pairs/notes.csv')")
    # A link that stays inside is harmless.
    (build / "pairs" / "notes.csv").unlink()
    (build / "audit-link").symlink_to(build / "audit")
    assert run_query(str(build), "SELECT count(*) FROM audit")[1] == [(3,)]


def test_the_only_allowed_directories_are_the_build_and_a_private_scratch(build, tmp_path):
    (rows,) = run_query(str(build), "SELECT current_setting('allowed_directories'), "
                                    "current_setting('temp_directory')")[1]
    allowed, scratch = rows
    assert str(build.resolve()) + "/" in allowed
    assert all(a == str(build.resolve()) + "/" or a.rstrip("/") == scratch.rstrip("/") for a in allowed), allowed
    assert "cdtp-query-" in scratch and not Path(scratch).exists()  # created only if DuckDB spills, then removed
