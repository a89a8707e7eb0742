"""Entity and tail typing speed (`type_pair`), pairs per second of CPU.

The pairs are the base records of benchmarks/raw_corpus.py (DuIE, KdConv,
LandscapeKnowledge), shaped like the pairs the entity_typing stage receives:
entity = title, text = summary, tags, one triple per infobox row. Typing runs
once per pair in the build, so it should stay far cheaper than the cleaning
stages (a few thousand raw entries/s/core). Prints the median of --repeats
passes and the share of pairs typed `other`.
"""
from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from benchmarks.raw_corpus import base_records
from transforms.entity_type import type_pair

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=0, help="pairs to type (default: all base records)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--data", default=str(SHARED))
    args = ap.parse_args(argv)
    records = base_records(Path(args.data))
    if args.n:
        records = records[: args.n]
    pairs = [{"entity": r["title"], "text": r.get("summary") or "", "tags": r.get("tags") or [],
              "triples": [{"relation": k, "tail": v} for k, v in r.get("infobox") or []]} for r in records]
    type_pair(pairs[0])  # load the lexicon outside the timing
    times, typed = [], []
    for _ in range(max(1, args.repeats)):
        start = time.process_time()
        typed = [type_pair(p) for p in pairs]
        times.append(time.process_time() - start)
    med = statistics.median(times)
    types = Counter(p["entity_type"] for p in typed)
    print(f"pairs: {len(pairs)}  typing: {len(pairs) / med:,.0f} pairs/s of CPU (median of {len(times)}, "
          f"range {len(pairs) / max(times):,.0f}-{len(pairs) / min(times):,.0f})")
    print(f"typed other: {types['other'] / len(pairs):.4f}  by type: {dict(types.most_common())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
