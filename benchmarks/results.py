"""Benchmark figures as data: what every benchmarks/bench_*.py hands to benchmarks/run.py.

A benchmark ends with `emit(name, figures)`, where each figure is
`figure(name, value, unit, target)`: a dict {name, value, unit, target, met}.
`target` is a string `">= 200"`, `"<= 1.5"` or None (a figure reported without
a target); `met` is computed from it, never typed in by hand. `emit` prints
the figures as one last line `BENCH-RESULT {json}` and, when benchmarks/run.py
set CDTP_BENCH_RESULT, writes the same JSON to that file, which run.py
collects into bench/results/<date>.json and a Markdown table. A benchmark that
cannot run (no shared data on a clean clone) calls `skip(name, reason)`.

Any new benchmark (items, evaluation, alignment) needs nothing else: call
`emit` and add it to run.BENCHMARKS.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
from typing import Any

ENV = "CDTP_BENCH_RESULT"
PREFIX = "BENCH-RESULT "
_TARGET_RE = re.compile(r"^\s*(>=|<=|>|<|==)\s*(-?[0-9.]+(?:e-?\d+)?)\s*$")


def target_met(value: Any, target: str | None) -> bool | None:
    """True/False when `value` meets `target` (">= 200"); None without a target or a number."""
    if target is None or not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    m = _TARGET_RE.match(target)
    if m is None:
        raise ValueError(f"target must look like '>= 200' or '<= 1.5', got {target!r}")
    op, bound = m.group(1), float(m.group(2))
    if math.isnan(value):
        return False
    return {">=": value >= bound, "<=": value <= bound, ">": value > bound, "<": value < bound, "==": value == bound}[op]


def figure(name: str, value: Any, unit: str = "", target: str | None = None, note: str = "") -> dict[str, Any]:
    out = {"name": name, "value": value, "unit": unit, "target": target, "met": target_met(value, target)}
    if note:
        out["note"] = note
    return out


def emit(bench: str, figures: list[dict[str, Any]], details: dict[str, Any] | None = None) -> None:
    """Hand the figures to run.py (file) and to a reader of stdout (last line)."""
    payload = {"bench": bench, "figures": figures, "details": details or {}}
    text = json.dumps(payload, ensure_ascii=False, default=str)
    path = os.environ.get(ENV)
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    print(PREFIX + text, flush=True)


def skip(bench: str, reason: str) -> int:
    """A benchmark that cannot run here: recorded with its reason, exit status 0."""
    payload = {"bench": bench, "skipped": reason, "figures": []}
    path = os.environ.get(ENV)
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(payload, fh, ensure_ascii=False)
    print(f"{bench}: skipped: {reason}", file=sys.stderr)
    print(PREFIX + json.dumps(payload, ensure_ascii=False), flush=True)
    return 0


def parse_stdout(text: str) -> dict[str, Any] | None:
    """The payload of the last BENCH-RESULT line of a benchmark's output, if any."""
    for line in reversed(text.splitlines()):
        if line.startswith(PREFIX):
            try:
                return json.loads(line[len(PREFIX):])
            except ValueError:
                return None
    return None


def infer_from_json(text: str, bench: str) -> dict[str, Any] | None:
    """A benchmark that does not call `emit` yet but ends with a JSON object (its last lines):
    its numbers become figures without targets, named by their keys, so nothing measured is lost."""
    lines = text.rstrip().splitlines()
    for start in range(len(lines) - 1, -1, -1):  # the last line, or the last pretty-printed object
        if not lines[start].lstrip().startswith("{"):
            continue
        try:
            obj = json.loads("\n".join(lines[start:]))
        except ValueError:
            continue
        if not isinstance(obj, dict):
            return None
        if isinstance(obj.get("figures"), list):
            return {"bench": bench, "figures": obj["figures"], "details": {}}
        figures = [figure(str(k), v, "", note="inferred from the benchmark's JSON output")
                   for k, v in obj.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        return {"bench": bench, "figures": figures, "details": obj, "inferred": True} if figures else None
    return None
