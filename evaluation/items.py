"""Reading benchmark items with DuckDB, and the item set's fingerprint.

`--items DIR` is a build folder holding `items/`, the `items/` folder itself,
or any folder of Parquet files in ITEM_SCHEMA (OOD sets included). The
command's filters become SQL over the files' own task/domain/split columns
(the Hive directories only prune; see pipeline/query.py on why DuckDB must
not trust Hive keys). Items that break the schema's promises (10 options, the
gold among them) are returned separately with a reason, never asked.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any, Sequence

from pipeline.errors import CdtpError
from schemas.items import ITEM_SCHEMA, NUM_OPTIONS, TASKS, UNASSIGNED_SPLIT


@dataclass
class ItemSelection:
    tasks: Sequence[str] = TASKS
    domains: Sequence[str] | None = None  # None = every domain
    split: str = "eval"
    subset: bool = False
    limit: int | None = None  # per (task, domain), lowest item_id first


@dataclass
class LoadedItems:
    items: list[dict[str, Any]]
    invalid: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    fingerprint: str = ""  # the whole selection: the run's identity
    glob: str = ""
    # per dataset (task, domain) and per task (task, "ALL"): the items a
    # dataset's score is over, so runs with other --tasks/--domains compare
    datasets: dict[tuple[str, str], str] = field(default_factory=dict)


def items_glob(path: str) -> str:
    path = path.rstrip("/")
    if os.path.isfile(path):
        return path
    if not os.path.isdir(path):
        raise CdtpError(f"{path}: no such items folder")
    base = os.path.join(path, "items") if os.path.isdir(os.path.join(path, "items")) else path
    for _root, _dirs, files in os.walk(base):
        if any(f.endswith(".parquet") for f in files):
            return f"{base}/**/*.parquet"
    raise CdtpError(f"{path}: no items Parquet files (expected items/task=…/domain=…/split=…/part-*.parquet)")


def results_home(items_path: str) -> str:
    """Where the results table lives by default: beside items/ in the build folder."""
    path = items_path.rstrip("/")
    if os.path.isfile(path):
        path = os.path.dirname(path)
    if os.path.basename(path) == "items":
        path = os.path.dirname(path)
    return os.path.join(path, "results")


def load_ontology_files(items_path: str) -> dict[str, dict]:
    """The build's T2KG ontologies (`BUILD/ontologies/<id>.json`, Text2KGBench format), by id."""
    folder = os.path.join(os.path.dirname(results_home(items_path)), "ontologies")
    out: dict[str, dict] = {}
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                try:
                    with open(os.path.join(folder, name), encoding="utf-8") as fh:
                        ont = json.load(fh)
                except (OSError, ValueError) as exc:
                    raise CdtpError(f"{folder}/{name}: not a readable ontology ({exc})") from None
                if not isinstance(ont, dict) or not isinstance(ont.get("relations"), list):
                    raise CdtpError(f"{folder}/{name}: an ontology needs a 'relations' list")
                out[ont.get("id") or name[: -len(".json")]] = ont
    return out


def _q(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _sql(glob: str, sel: ItemSelection, *, split: str | None = None, limit: bool = True) -> tuple[str, list]:
    cols = ", ".join(f'"{f.name}"' for f in ITEM_SCHEMA)
    where, params = ["task IN (SELECT unnest(?))"], [list(sel.tasks)]
    if sel.domains:
        where.append("domain IN (SELECT unnest(?))")
        params.append(list(sel.domains))
    if (split or sel.split) == UNASSIGNED_SPLIT:
        where.append("split IS NULL")  # a --no-split build's items
    else:
        where.append("split = ?")
        params.append(split or sel.split)
    if sel.subset and (split or sel.split) == sel.split:
        where.append("coalesce(in_subset, false)")
    sql = (f"SELECT {cols} FROM read_parquet({_q(glob)}, hive_partitioning=0, union_by_name=1) "
           f"WHERE {' AND '.join(where)}")
    if limit and sel.limit is not None:
        sql += f" QUALIFY row_number() OVER (PARTITION BY task, domain ORDER BY item_id) <= {int(sel.limit)}"
    return sql + " ORDER BY task, domain, item_id", params


def _check_shards(glob: str) -> None:
    """Name the first shard whose footer or schema is not an items shard, or say that a
    build's items/ holds other files or rows than the build wrote (a clear error, before any SQL)."""
    from pathlib import Path

    from pipeline.query import count_problem, recorded_counts, shard_problem

    base = glob.split("**")[0].rstrip("/")
    files = [base] if os.path.isfile(base) else sorted(str(p) for p in Path(base).rglob("*.parquet"))
    for path in files:
        problem = shard_problem(path, "items")
        if problem:
            raise CdtpError(f"items shard {path}: {problem}")
    if os.path.basename(base) == "items":  # a build's items/: all of it, as the build wrote it
        problem = count_problem("items", files, recorded_counts(os.path.dirname(base)))
        if problem:
            raise CdtpError(f"{os.path.dirname(base)}: {problem}")


def _fetch(glob: str, sql: str, params: list) -> list[dict[str, Any]]:
    import duckdb

    con = duckdb.connect()
    try:
        cur = con.execute(sql, params)
    except duckdb.Error as exc:
        raise CdtpError(f"cannot read items from {glob}: {exc}") from None
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def validate(item: dict[str, Any]) -> str | None:
    """Why an item cannot be asked, or None."""
    if not item.get("item_id"):
        return "missing_item_id"
    task = item.get("task")
    if task in ("qa", "kgc"):
        opts = item.get("options") or []
        if len(opts) != NUM_OPTIONS:
            return f"options_count:{len(opts)}"
        if len(set(opts)) != len(opts):
            return "duplicate_options"
        idx = item.get("answer_index")
        if idx is None or not 0 <= idx < len(opts) or opts[idx] != item.get("answer"):
            return "answer_not_at_answer_index"
        if not item.get("question"):
            return "missing_question"
    elif task == "t2t":
        if not item.get("triples") or not item.get("reference"):
            return "missing_triples_or_reference"
    elif task == "t2kg":
        if not item.get("text") or not item.get("gold_triples"):
            return "missing_text_or_gold_triples"
    else:
        return f"unknown_task:{task}"
    return None


def fingerprint(items: Sequence[dict[str, Any]]) -> str:
    """sha256 over the selected items' content in item_id order: same items, same fingerprint."""
    h = hashlib.sha256()
    for it in sorted(items, key=lambda x: (x.get("task") or "", x.get("item_id") or "")):
        h.update(json.dumps(it, ensure_ascii=False, sort_keys=True, default=str).encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def dataset_fingerprints(items: Sequence[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """The fingerprint of each (task, domain)'s items and of each (task, "ALL").

    A dataset's score depends only on its own items, so it is identified by
    them alone: the same QA items asked in a run of every task or of QA only
    get the same fingerprint, and the leaderboard compares them."""
    groups: dict[tuple[str, str], list] = {}
    for it in items:
        task, domain = it.get("task") or "", it.get("domain") or ""
        groups.setdefault((task, domain), []).append(it)
        groups.setdefault((task, "ALL"), []).append(it)
    return {key: fingerprint(grp) for key, grp in sorted(groups.items())}


def duplicate_ids(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """item_id -> how often it occurs, for the ids that occur more than once."""
    seen: dict[str, int] = {}
    for r in rows:
        if r.get("item_id"):
            seen[r["item_id"]] = seen.get(r["item_id"], 0) + 1
    return {k: n for k, n in seen.items() if n > 1}


def load_items(path: str, sel: ItemSelection) -> LoadedItems:
    bad = [t for t in sel.tasks if t not in TASKS]
    if bad:
        raise CdtpError(f"unknown task(s) {', '.join(bad)}: choose from {', '.join(TASKS)}")
    glob = items_glob(path)
    _check_shards(glob)  # once per run: load_train reads the same, already checked, files
    rows = _fetch(glob, *_sql(glob, sel))
    dups = duplicate_ids(rows)
    if dups:  # answers are keyed by item_id: a second copy would be scored as one item, or lost
        first = sorted(dups)[0]
        raise CdtpError(f"{glob}: {len(dups)} item_id(s) occur more than once in the selection "
                        f"(e.g. {first!r} {dups[first]} times), as when a partition file is copied; "
                        "remove the copies")
    good, invalid = [], []
    for row in rows:
        reason = validate(row)
        (invalid.append((row, reason)) if reason else good.append(row))
    if not rows:
        raise CdtpError(f"no items match task in {list(sel.tasks)}, domain in {sel.domains or 'any'}, "
                        f"split={sel.split}{', subset' if sel.subset else ''} under {glob}")
    return LoadedItems(good, invalid, fingerprint(rows), glob, dataset_fingerprints(rows))


def load_train(glob: str, sel: ItemSelection) -> list[dict[str, Any]]:
    """Train-split items of the same tasks and domains (k-shot demos, baselines that fit)."""
    train_sel = ItemSelection(tasks=sel.tasks, domains=sel.domains, split="train")
    return [r for r in _fetch(glob, *_sql(glob, train_sel, split="train", limit=False)) if validate(r) is None]
