"""Run outputs: predictions Parquet, results.json, the Markdown table, and the
shared results table (RESULT_SCHEMA, long format).

The results table is a folder of Parquet files, one per run
(`run-<run_id>.parquet`), so "append" is one atomic rename and re-scoring a
run (`--reuse`) replaces its own rows instead of adding a second copy.
DuckDB reads the folder as one table (`cdtp query BUILD "… FROM results"`).
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import os
import subprocess
from typing import Any, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from schemas.items import RESULT_SCHEMA

PREDICTION_SCHEMA = pa.schema([
    ("key", pa.string()),  # item_id#rotation
    ("item_id", pa.string()),
    ("task", pa.string()),
    ("domain", pa.string()),
    ("split", pa.string()),
    ("rotation", pa.int32()),  # option shift (circular evaluation); 0 = as presented
    ("prompt", pa.string()),
    ("raw_output", pa.string()),
    ("logliks", pa.list_(pa.float64())),  # per option, when ranked by log-likelihood
    # full | partial | unparseable | loglik (QA/KGC); text | empty_output | output_truncated (T2T);
    # text | no_triples (T2KG); error
    ("parse_status", pa.string()),
    ("ranking", pa.list_(pa.int32())),  # option indices (rotated order), best first
    ("prediction", pa.string()),  # the top option / generated text / parsed triples as JSON
    ("scores", pa.map_(pa.string(), pa.float64())),
    ("error", pa.string()),
    ("attempts", pa.int32()),
])

# Dataset names at the CUGE level, as the paper's tables name them.
TASK_LABEL = {"qa": "QA", "kgc": "KGC", "t2t": "T2T", "t2kg": "T2KG"}


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        base = version("cdtp")
    except PackageNotFoundError:
        base = "0"
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        sha = subprocess.run(["git", "-C", here, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                             text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        sha = ""
    return f"{base}+g{sha}" if sha else base


def stable_hash(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()[:16]


def _atomic_write_table(table: pa.Table, path: str) -> None:
    tmp = f"{path}.tmp-{os.getpid()}"
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def write_predictions(rows: Sequence[dict[str, Any]], path: str) -> None:
    cols = {f.name: [r.get(f.name) for r in rows] for f in PREDICTION_SCHEMA}
    cols["scores"] = [list((r.get("scores") or {}).items()) for r in rows]
    _atomic_write_table(pa.table(cols, schema=PREDICTION_SCHEMA), path)


def result_rows(metrics: dict[str, dict[str, dict[str, float]]], counts: dict[str, dict[str, int]], *,
                run_id: str, model: str, split: str, fingerprints: dict[tuple[str, str], str],
                created_at: str) -> list[dict]:
    """Long rows of the results table. Each row carries its own dataset's
    fingerprint (`fingerprints[(task, domain)]`, domain "ALL" for the task),
    not the whole run's, so the same items scored in runs of other tasks or
    domains are one item set to the leaderboard."""
    rows = []
    for task, by_domain in sorted(metrics.items()):
        for domain, values in sorted(by_domain.items()):
            for metric, value in sorted(values.items()):
                rows.append({"run_id": run_id, "model": model, "task": task, "domain": domain, "split": split,
                             "dataset": f"CDTP_{domain}_{TASK_LABEL.get(task, task.upper())}",
                             "metric": metric, "value": float(value), "n": int(counts[task][domain]),
                             "fingerprint": fingerprints[(task, domain)], "code_version": code_version(),
                             "created_at": created_at})
    return rows


def append_results(rows: Sequence[dict], results_dir: str, run_id: str) -> str:
    os.makedirs(results_dir, exist_ok=True)
    path = os.path.join(results_dir, f"run-{run_id}.parquet")
    cols = {f.name: [r[f.name] for r in rows] for f in RESULT_SCHEMA}
    _atomic_write_table(pa.table(cols, schema=RESULT_SCHEMA), path)
    return path


def markdown_table(metrics: dict[str, dict[str, dict[str, float]]], counts: dict[str, dict[str, int]],
                   *, model: str, fingerprint: str) -> str:
    lines = [f"# Evaluation of `{model}`", "", f"Item set fingerprint `{fingerprint}`.", ""]
    for task, by_domain in sorted(metrics.items()):
        names = sorted({m for v in by_domain.values() for m in v})
        lines += [f"## {TASK_LABEL.get(task, task)}", "",
                  "| domain | n | " + " | ".join(names) + " |",
                  "|---|---:|" + "---:|" * len(names)]
        for domain, values in sorted(by_domain.items(), key=lambda kv: (kv[0] == "ALL", kv[0])):
            cells = [f"{values[m]:.4f}" if m in values else "" for m in names]
            lines.append(f"| {domain} | {counts[task][domain]} | " + " | ".join(cells) + " |")
        lines.append("")
    lines.append("`f1_cdtp` is the paper's F1 (= 2·acc/(1+acc)); `f1_char` is the character-level answer F1.")
    return "\n".join(lines) + "\n"


def now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
