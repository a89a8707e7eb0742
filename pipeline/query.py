"""`cdtp query DIR "SQL"`: DuckDB views over a build's Parquet outputs.

Views:
  pairs              DIR/pairs/**.parquet (Hive partitions domain=/split=)
  triples            one row per triple of a kept pair: pair_id, entity, domain, split + every field
                     of the triple (offsets, match, cue, support_score, trivial, ...)
  audit              DIR/audit/*.parquet: one row per input entry and per input triple
  discarded_triples  DIR/discarded_triples/*.parquet: the paper's auxiliary data
  items              DIR/items/**.parquet, when built: benchmark items (QA, KGC, T2T, T2KG; schemas/items.py)
  results            DIR/results/*.parquet, when present: `cdtp eval`'s results table (RESULT_SCHEMA)
  leaderboard        DIR/leaderboard/leaderboard.parquet, when present: `cdtp leaderboard`'s table

"Why was this triple dropped?" is one query:
  SELECT stage, reason, detail FROM audit WHERE kind='triple' AND head='…' AND tail='…'
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import CdtpError

OUTPUTS = ("pairs", "audit", "discarded_triples")
# Outputs a build folder may also hold; each is a view when present, and
# checked like the others (a bad shard makes only its own view unavailable).
OPTIONAL_OUTPUTS = ("items", "results", "leaderboard")
# Statements a query may run: reading only. COPY, ATTACH, INSTALL/LOAD, SET,
# PRAGMA, CREATE ... are refused before DuckDB sees them.
ALLOWED_STATEMENTS = ("SELECT", "EXPLAIN")


def _glob(out_dir: str, name: str) -> str:
    return f"{out_dir.rstrip('/')}/{name}/**/*.parquet"


def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _expected_columns(name: str) -> set[str]:
    from schemas.items import ITEM_SCHEMA, RESULT_SCHEMA
    from schemas.outputs import AUDIT_SCHEMA, DISCARDED_TRIPLE_SCHEMA, PAIR_SCHEMA

    if name == "leaderboard":
        return {"rank", "model", "level", "name", "score"}
    schema = {"pairs": PAIR_SCHEMA, "audit": AUDIT_SCHEMA, "discarded_triples": DISCARDED_TRIPLE_SCHEMA,
              "items": ITEM_SCHEMA, "results": RESULT_SCHEMA}[name]
    return set(schema.names)


def shard_problem(path: str, name: str) -> str | None:
    """Why the Parquet shard `path` of output `name` cannot be read (footer, schema), or None.

    Reads only the footer, so checking every shard before a query is cheap;
    a damaged data page is found when a query fails (find_bad_shards).
    """
    import pyarrow.parquet as pq

    try:
        if os.path.getsize(path) == 0:
            return "zero-byte file"
        schema = pq.read_schema(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a bad file
        return f"not a readable Parquet file ({type(exc).__name__}: {str(exc)[:160]})"
    partition_keys = {"pairs": {"domain", "split"}, "items": {"task", "domain", "split"}}.get(name, set())
    missing = sorted(_expected_columns(name) - set(schema.names) - partition_keys)
    if missing:
        return f"wrong schema for {name}: missing column(s) {', '.join(missing[:6])}"
    return None


def recorded_counts(out_dir: str) -> dict[str, dict]:
    """Files and rows of each output as the build checked them after writing
    (stats.json `output_check`); {} for a build of a version that wrote no such
    record. A build writes stats.json last (pipeline/staging.py), so a folder
    without a readable one holds no finished build: its shards may be a part
    or a mix of two, and are refused rather than read as a smaller build."""
    path = os.path.join(out_dir, "stats.json")
    try:
        with open(path, encoding="utf-8") as fh:
            stats = json.load(fh)
    except FileNotFoundError:
        raise CdtpError(f"{out_dir} has no stats.json: the build that wrote it did not finish (a build cut "
                        "short in its final move is finished by the next `cdtp build` into that folder)") from None
    except (OSError, ValueError) as exc:
        raise CdtpError(f"{path} cannot be read ({type(exc).__name__}): the build's record of its outputs is "
                        "damaged, so its shards cannot be checked; rebuild") from None
    if not isinstance(stats, dict):  # `[]`, a string: JSON, but no build's record
        raise CdtpError(f"{path} is not a cdtp stats file (a JSON {type(stats).__name__}, not an object): the "
                        "build's record of its outputs is damaged, so its shards cannot be checked; rebuild")
    record = stats.get("output_check")
    if not isinstance(record, dict):
        return {}
    return {k: v for k, v in record.items() if isinstance(v, dict) and {"files", "rows"} <= set(v)}


def count_problem(name: str, files: list[str], recorded: dict[str, dict]) -> str | None:
    """Why the shards of output `name` are not what the build wrote (fewer or
    other files, other rows), or None: a deleted shard must not pass for a
    smaller build."""
    want = recorded.get(name)
    if not want:
        return None
    import pyarrow.parquet as pq

    rows = sum(pq.read_metadata(f).num_rows for f in files)
    if len(files) == want["files"] and rows == want["rows"]:
        return None
    return (f"{name}/ holds {rows} rows in {len(files)} files, but the build wrote {want['rows']} rows in "
            f"{want['files']} files (stats.json output_check): a shard was removed, added or replaced")


def _shards(out_dir: str, name: str) -> list[str]:
    base = os.path.join(out_dir, name)
    return sorted(str(p) for p in Path(base).rglob("*.parquet")) if os.path.isdir(base) else []


def find_bad_shards(out_dir: str, names=OUTPUTS + OPTIONAL_OUTPUTS) -> list[str]:
    """Read every shard in full; 'file: reason' for each that fails (after a query failed)."""
    import pyarrow.parquet as pq

    bad = []
    for name in names:
        for path in _shards(out_dir, name):
            problem = shard_problem(path, name)
            if problem is None:
                try:
                    pq.read_table(path)
                except Exception as exc:  # noqa: BLE001
                    problem = f"damaged data ({type(exc).__name__}: {str(exc)[:160]})"
            if problem:
                bad.append(f"{path}: {problem}")
    return bad


def _links_out_of(root: str) -> list[str]:
    """Symbolic links under `root` whose target is outside it: DuckDB's
    allowed_directories checks the path as written, so such a link would let
    a query read any file the user can."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                target = os.path.realpath(path)
                if target != root and not target.startswith(root.rstrip("/") + "/"):
                    out.append(os.path.relpath(path, root))
    return sorted(out)


@dataclass
class Views:
    """A sandboxed connection and the views it could not define, with why."""

    con: Any
    out_dir: str
    unavailable: dict[str, str] = field(default_factory=dict)
    scratch: str | None = None  # DuckDB's spill directory, removed after the query


def connect(out_dir: str):
    """The sandboxed DuckDB connection of open_views (views that could not be defined are absent)."""
    return open_views(out_dir).con


def open_views(out_dir: str) -> Views:
    """A read-only DuckDB connection, confined to `out_dir`, with the build's views.

    Every shard's footer and schema is checked first: a view whose shards
    are all readable is defined; an output that is missing, or has a
    truncated, zero-byte or wrong-schema shard, or other files or rows than
    the build recorded in stats.json, is left out with the reason (naming
    the file), so the other views still work. Then the connection is
    locked down: no file outside `out_dir` (enable_external_access=false,
    allowed_directories), no extension install or autoload, and
    lock_configuration so no SET can undo it. A user who wants full DuckDB
    opens the Parquet files themselves.
    """
    import duckdb

    if "://" in out_dir:
        raise CdtpError(f"cdtp query reads local build outputs only; copy {out_dir} locally, "
                        "or open its Parquet files in DuckDB yourself")
    if not os.path.isdir(out_dir):
        raise CdtpError(f"{out_dir} does not exist or is not a directory")
    root = os.path.realpath(out_dir)
    links = _links_out_of(root)
    if links:
        raise CdtpError(f"{out_dir} holds symbolic links that point outside it ({', '.join(links[:3])}); "
                        "cdtp query reads only inside the build directory")
    present = [n for n in OUTPUTS + OPTIONAL_OUTPUTS if os.path.isdir(os.path.join(root, n))]
    if not present:
        raise CdtpError(f"{out_dir} is not a cdtp build output (missing {', '.join(OUTPUTS)}/)")
    unavailable: dict[str, str] = {}
    recorded = recorded_counts(root)
    for name in OUTPUTS + OPTIONAL_OUTPUTS:
        if name not in present:
            if name in OUTPUTS:
                unavailable[name] = f"{os.path.join(out_dir, name)}/ is missing"
            continue
        files = _shards(root, name)
        if not files:
            unavailable[name] = f"{os.path.join(out_dir, name)}/ holds no Parquet shard"
            continue
        problems = [f"{f}: {p}" for f in files if (p := shard_problem(f, name))]
        if problems:
            unavailable[name] = "bad shard " + "; ".join(problems[:3]) + (
                f" (+{len(problems) - 3} more)" if len(problems) > 3 else "")
        elif (problem := count_problem(name, files, recorded)):
            unavailable[name] = problem
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    # The pairs files carry their domain/split columns themselves (the Hive
    # directories are for pruning by other engines). DuckDB 1.5 returns garbage
    # for a Hive key whose file column is all null (stages switched off), so
    # the view reads the file columns: they are the source of truth.
    if "pairs" not in unavailable:
        con.execute(
            f"CREATE VIEW pairs AS SELECT * FROM read_parquet({_q(_glob(root, 'pairs'))}, "
            "hive_partitioning=0, union_by_name=1)"
        )
        # Every field of the triple struct (`t.*`), so the alignment evidence (cue,
        # support_score, trivial) is queryable, and a build of an older schema still opens.
        con.execute(
            "CREATE VIEW triples AS SELECT pair_id, entity, domain, split, t.* "
            "FROM (SELECT pair_id, entity, domain, split, unnest(triples) AS t FROM pairs)"
        )
    else:
        unavailable["triples"] = unavailable["pairs"]
    for name in ("audit", "discarded_triples"):
        if name not in unavailable:
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet({_q(_glob(root, name))})")
    for name in OPTIONAL_OUTPUTS:
        if name in present and name not in unavailable:
            # File columns, not Hive keys (as for pairs): task/domain/split are in the files.
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet({_q(_glob(root, name))}, "
                        "hive_partitioning=0, union_by_name=1)")
    # DuckDB adds its spill directory (default: ./.tmp under the working
    # directory) to the allowed ones: give it a private, not yet existing one.
    scratch = os.path.join(tempfile.gettempdir(), f"cdtp-query-{uuid.uuid4().hex}")
    con.execute(f"SET temp_directory={_q(scratch)}")
    con.execute(f"SET allowed_directories=[{_q(root.rstrip('/') + '/')}]")
    con.execute("SET enable_external_access=false")
    con.execute("SET lock_configuration=true")
    return Views(con, out_dir, unavailable, scratch)


def _explained_kind(con, sql: str) -> str:
    """The type of the statement an EXPLAIN statement explains ('SELECT', 'COPY', ...).

    `sql` is one EXPLAIN statement: the keyword, then ANALYZE/ANALYSE or a
    parenthesised option list, then the statement (comments are not tokens).
    """
    import duckdb

    def kinds(i: int) -> set[str]:
        try:
            return {getattr(s.type, "name", str(s.type)) for s in con.extract_statements(sql[starts[i]:])}
        except (duckdb.Error, IndexError):
            return set()

    starts = [offset for offset, _ in duckdb.tokenize(sql)]
    word = lambda i: sql[starts[i]:].split(None, 1)[0].upper() if i < len(starts) else ""  # noqa: E731
    i = 1 if word(0) == "EXPLAIN" else len(starts)
    if word(i) in ("ANALYZE", "ANALYSE"):
        i += 1
    elif i < len(starts) and sql[starts[i]] == "(" and kinds(i) != {"SELECT"}:  # options, not `(SELECT 1)`
        depth = 0
        for i in range(i, len(starts)):
            ch = sql[starts[i]]
            depth += (ch == "(") - (ch == ")")
            if depth == 0:
                break
        i += 1
    inner = kinds(i)
    return "SELECT" if inner == {"SELECT"} else f"EXPLAIN {'/'.join(sorted(inner)) or '(unrecognised)'}"


def _check_statements(con, sql: str) -> None:
    import duckdb

    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as exc:
        raise CdtpError(f"query failed: {exc}") from None
    if not statements:
        raise CdtpError("empty query")
    for st in statements:
        kind = getattr(st.type, "name", str(st.type))
        if kind == "EXPLAIN":
            # EXPLAIN ANALYZE runs the statement it explains: `EXPLAIN ANALYZE COPY ... TO
            # 'DIR/pairs/x.parquet'` wrote a shard into the build. Only a SELECT may be explained.
            kind = _explained_kind(con, st.query)
        if kind not in ALLOWED_STATEMENTS:
            raise CdtpError(f"cdtp query is read-only: {kind} statements are not allowed "
                            f"(only SELECT, and EXPLAIN [ANALYZE] of a SELECT); open the Parquet files in DuckDB "
                            "yourself for anything else")
    if len(statements) > 1:  # only the last one's rows would be printed
        raise CdtpError(f"one statement per query, not {len(statements)}: run each on its own")


def run_query(out_dir: str, sql: str) -> tuple[list[str], list[tuple]]:
    import duckdb

    try:
        sql.encode("utf-8")
    except UnicodeEncodeError:  # bytes the shell passed that are not UTF-8
        raise CdtpError("the query is not UTF-8 text") from None
    views = open_views(out_dir)
    con = views.con
    _check_statements(con, sql)
    try:
        cur = con.execute(sql)
        columns = [d[0] for d in cur.description] if cur.description else []
        rows = cur.fetchall()
    except duckdb.CatalogException as exc:
        missing = [n for n in views.unavailable if re.search(rf"\b{n}\b", str(exc))]
        if missing:
            raise CdtpError(f"view {missing[0]} is unavailable: {views.unavailable[missing[0]]}") from None
        raise CdtpError(f"query failed: {exc}") from None
    except duckdb.PermissionException as exc:
        raise CdtpError(f"query refused: cdtp query reads only the build directory {out_dir} "
                        f"({str(exc).splitlines()[0]})") from None
    except (duckdb.ParserException, duckdb.BinderException) as exc:
        raise CdtpError(f"query failed: {exc}") from None
    except duckdb.Error as exc:
        bad = find_bad_shards(views.out_dir)
        hint = f"; bad shard(s): {'; '.join(bad[:3])}" if bad else ""
        raise CdtpError(f"query failed: {str(exc).splitlines()[0]}{hint}") from None
    finally:
        con.close()
        if views.scratch:
            shutil.rmtree(views.scratch, ignore_errors=True)
    return columns, rows


def _cell(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False, default=str)
    return str(v)


def _width(s: str) -> int:
    # CJK characters take two terminal columns.
    return sum(2 if "\u1100" <= ch and (ch <= "\u115f" or "\u2e80" <= ch <= "\ua4cf" or "\uac00" <= ch <= "\ud7a3"
                                      or "\uf900" <= ch <= "\ufaff" or "\ufe30" <= ch <= "\ufe4f" or "\uff00" <= ch <= "\uff60"
                                      or "\uffe0" <= ch <= "\uffe6") else 1 for ch in s)


def format_table(columns: list[str], rows: list[tuple], max_width: int = 60) -> str:
    cells = [[_cell(v) for v in r] for r in rows]
    cells = [[c if _width(c) <= max_width else c[: max_width // 2 - 1] + "…" for c in r] for r in cells]
    widths = [max([_width(c)] + [_width(r[i]) for r in cells]) for i, c in enumerate(columns)]
    pad = lambda s, w: s + " " * (w - _width(s))  # noqa: E731
    lines = [" | ".join(pad(c, w) for c, w in zip(columns, widths)), "-+-".join("-" * w for w in widths)]
    lines += [" | ".join(pad(c, w) for c, w in zip(r, widths)) for r in cells]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


def format_rows(columns: list[str], rows: list[tuple], fmt: str) -> str:
    if fmt == "table":
        return format_table(columns, rows)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(columns)
        for r in rows:
            w.writerow(["" if v is None else (json.dumps(v, ensure_ascii=False, default=str)
                                               if isinstance(v, (list, dict)) else v) for v in r])
        return buf.getvalue().rstrip("\n")
    if fmt == "json":
        return "\n".join(json.dumps(dict(zip(columns, r)), ensure_ascii=False, default=str) for r in rows)
    raise CdtpError(f"unknown format {fmt!r}")
