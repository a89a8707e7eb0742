"""Entity and tail typing speed (`type_pair`), pairs per second of CPU.

The pairs are the base records of benchmarks/raw_corpus.py (DuIE, KdConv,
LandscapeKnowledge, the Baike pages), shaped like the pairs the entity_typing
stage receives: entity = title, text = summary, tags, one triple per infobox
row. Typing runs once per pair in the build, so it should stay far cheaper
than the cleaning stages (a few thousand raw entries/s/core). Reports the
median of --repeats passes and the share of pairs typed `other`, through
benchmarks.results.emit.
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.raw_corpus import base_records
from benchmarks.results import emit, figure, skip
from transforms.entity_type import type_pair

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def row_relation_tail(row: Any) -> tuple[str, str]:
    """(relation, tail) of one infobox row, in either shape the corpora hand out.

    base_records gives (relation, value, value_links) tuples; a RawEntry (raw_corpus.generate, the
    crawler) gives {"name", "value", "value_links"} dicts. Unpacking `for k, v in rows` broke when the
    tuples grew their value links, so the shape is read here, once, for both."""
    if isinstance(row, dict):
        return row.get("name") or "", row.get("value") or ""
    return row[0], row[1]


def as_pair(record: dict) -> dict:
    """A base record as the entity_typing stage sees a pair: title, summary, tags, one triple per row."""
    rows = map(row_relation_tail, record.get("infobox") or [])
    return {"entity": record["title"], "text": record.get("summary") or "", "tags": record.get("tags") or [],
            "triples": [{"relation": r, "tail": t} for r, t in rows]}


def time_typing(pairs: list[dict], repeats: int) -> tuple[list[float], list[dict]]:
    """CPU seconds of each pass over `pairs`, and the last pass's typed pairs."""
    type_pair(pairs[0])  # load the lexicon outside the timing
    times, typed = [], []
    for _ in range(max(1, repeats)):
        start = time.process_time()
        typed = [type_pair(p) for p in pairs]
        times.append(max(time.process_time() - start, 1e-9))  # a tiny --n can round to 0 s
    return times, typed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=0, help="pairs to type (default: all base records)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--data", default=str(SHARED))
    args = ap.parse_args(argv)
    try:
        records = base_records(Path(args.data))
    except FileNotFoundError as exc:  # a clean clone: recorded as skipped, with the reason
        return skip("typing", str(exc))
    if args.n:
        records = records[: args.n]
    pairs = [as_pair(r) for r in records]
    times, typed = time_typing(pairs, args.repeats)
    med = statistics.median(times)
    types = Counter(p["entity_type"] for p in typed)
    other = round(types["other"] / len(pairs), 4)
    print(f"pairs: {len(pairs)}  typing: {len(pairs) / med:,.0f} pairs/s of CPU (median of {len(times)}, "
          f"range {len(pairs) / max(times):,.0f}-{len(pairs) / min(times):,.0f})")
    print(f"typed other: {other:.4f}  by type: {dict(types.most_common())}")
    emit("typing", [
        figure(f"entity and tail typing, {len(pairs):,} base records (median of {len(times)})",
               round(len(pairs) / med), "pairs/s of CPU", ">= 2000",
               note="runs once per pair in the build, so well above its 2,000 raw entries/s/core"),
        figure("pairs typed other", other, "share"),
    ], {"pairs": len(pairs), "cpu_s_per_repeat": [round(t, 4) for t in times], "by_type": dict(types.most_common())})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
