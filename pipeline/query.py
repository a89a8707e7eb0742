"""`cdtp query DIR "SQL"`: DuckDB views over a build's Parquet outputs.

Views:
  pairs              DIR/pairs/**.parquet (Hive partitions domain=/split=)
  triples            one row per triple of a kept pair: pair_id, entity + the triple's fields
  audit              DIR/audit/*.parquet: one row per input entry and per input triple
  discarded_triples  DIR/discarded_triples/*.parquet: the paper's auxiliary data
  results            DIR/results/*.parquet, when present: `cdtp eval`'s results table
                     (RESULT_SCHEMA, one row per run/task/domain/split/metric)
  items              DIR/items/**.parquet: benchmark items (QA, KGC, T2T, T2KG; schemas/items.py),
                     when the build wrote them

"Why was this triple dropped?" is one query:
  SELECT stage, reason, detail FROM audit WHERE kind='triple' AND head='…' AND tail='…'
"""
from __future__ import annotations

import csv
import io
import json
import os
from typing import Any

from pipeline.errors import CdtpError

OUTPUTS = ("pairs", "audit", "discarded_triples")


def _glob(out_dir: str, name: str) -> str:
    return f"{out_dir.rstrip('/')}/{name}/**/*.parquet"


def connect(out_dir: str):
    """A DuckDB connection with the build's views defined."""
    import duckdb

    con = duckdb.connect()
    q = lambda s: "'" + s.replace("'", "''") + "'"  # noqa: E731
    has_results = "://" not in out_dir and any(
        f.endswith(".parquet") for f in (os.listdir(os.path.join(out_dir, "results"))
                                         if os.path.isdir(os.path.join(out_dir, "results")) else []))
    if has_results:
        results_glob = out_dir.rstrip("/") + "/results/*.parquet"
        con.execute(f"CREATE VIEW results AS SELECT * FROM read_parquet({q(results_glob)})")
    if "://" not in out_dir:
        missing = [n for n in OUTPUTS if not os.path.isdir(os.path.join(out_dir, n))]
        if missing and has_results and len(missing) == len(OUTPUTS):
            return con  # a folder holding only an evaluation results table
        if missing:
            raise CdtpError(f"{out_dir} is not a cdtp build output (missing {', '.join(missing)}/)")
    # The pairs files carry their domain/split columns themselves (the Hive
    # directories are for pruning by other engines). DuckDB 1.5 returns garbage
    # for a Hive key whose file column is all null (stages switched off), so
    # the view reads the file columns: they are the source of truth.
    con.execute(
        f"CREATE VIEW pairs AS SELECT * FROM read_parquet({q(_glob(out_dir, 'pairs'))}, "
        "hive_partitioning=0, union_by_name=1)"
    )
    con.execute(
        "CREATE VIEW triples AS SELECT pair_id, entity, domain, split, t.head, t.relation, t.tail, "
        "t.start, t.\"end\", t.match, t.tail_type, t.search_status, t.search_evidence, t.triple_id "
        "FROM (SELECT pair_id, entity, domain, split, unnest(triples) AS t FROM pairs)"
    )
    for name in ("audit", "discarded_triples"):
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet({q(_glob(out_dir, name))})")
    if "://" in out_dir or os.path.isdir(os.path.join(out_dir, "items")):
        # File columns, not the Hive keys (as for pairs): task/domain/split are in the files.
        con.execute(f"CREATE VIEW items AS SELECT * FROM read_parquet({q(_glob(out_dir, 'items'))}, "
                    "hive_partitioning=0, union_by_name=1)")
    return con


def run_query(out_dir: str, sql: str) -> tuple[list[str], list[tuple]]:
    import duckdb

    con = connect(out_dir)
    try:
        cur = con.execute(sql)
    except duckdb.Error as exc:
        raise CdtpError(f"query failed: {exc}") from exc
    columns = [d[0] for d in cur.description] if cur.description else []
    return columns, cur.fetchall()


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
