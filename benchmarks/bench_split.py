"""Split stage: subset distances and Beam throughput/determinism (not a timed test).

1. Allocation quality: the max absolute difference of proportions between the
   full set and the stratified subset per variable, for synthetic pair sets
   with skewed marginals (Zipf relations, lognormal text lengths, rare entity
   types), with the marginal-repaired largest remainder and, for comparison,
   plain largest remainder over the joint strata.
2. Beam: SplitAndSample over generated pairs (generated on the workers, not
   through beam.Create) on 1 worker and on 2 processes; prints pairs/s and an
   order-independent digest of (pair_id, split, in_subset) per run, which must
   be equal.

    python benchmarks/bench_split.py [--n 200000] [--subset 10000]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_split import plain_largest_remainder, synthetic_pairs  # noqa: E402
from transforms.split import (  # noqa: E402
    SplitBins,
    SplitConfig,
    relation_counts,
    relation_freq_bins,
    split_and_sample,
    stratum_key,
    subset_distances,
)

CHUNK = 5000


def allocation_quality() -> list[dict]:
    out = []
    for n, subset in [(50_000, 10_000), (50_000, 1_000), (2_000, 300), (500, 100)]:
        pairs, stats = split_and_sample(synthetic_pairs(n), SplitConfig(subset_size=subset))
        rc = relation_counts(pairs)
        bins = relation_freq_bins(rc, SplitBins())
        counts = Counter(stratum_key(p, rc, bins, SplitBins()) for p in pairs)
        plain = subset_distances(counts, plain_largest_remainder(counts, subset))
        out.append({
            "pairs": n, "subset": subset, "strata": stats["strata"],
            "distance": stats["subset_distance"],
            "plain_largest_remainder": {k: round(v, 6) for k, v in plain.items()},
        })
    return out


def _chunk(i: int) -> list[dict]:
    pairs = synthetic_pairs(CHUNK, seed=1000 + i)
    for p in pairs:
        p["pair_id"] = f"c{i:05d}-{p['pair_id']}"
    return pairs


def _digest(rows) -> dict:
    total, n, sub = 0, 0, 0
    for r in rows:
        h = hashlib.blake2b(json.dumps(r).encode(), digest_size=8).digest()
        total = (total + int.from_bytes(h, "big")) % (1 << 64)
        n += 1
        sub += bool(r[2])
    return {"digest": f"{total:016x}", "pairs": n, "in_subset": sub}


def beam_run(n: int, subset: int, options: list[str]) -> dict:
    import apache_beam as beam
    from apache_beam.options.pipeline_options import PipelineOptions

    from pipeline.split_stage import SplitAndSample

    out = Path(tempfile.mkdtemp()) / "digest.json"
    t0 = time.perf_counter()
    with beam.Pipeline(options=PipelineOptions(["--runner=DirectRunner", *options])) as p:
        res = (p | beam.Create(list(range(n // CHUNK))) | beam.Reshuffle() | beam.FlatMap(_chunk)
               | SplitAndSample(SplitConfig(seed=11, subset_size=subset)))
        (res["pairs"]
         | beam.Map(lambda x: (x["pair_id"], x["split"], x["in_subset"]))
         | beam.combiners.ToList()
         | beam.Map(lambda rows, path=str(out): Path(path).write_text(json.dumps(_digest(rows)))))
    secs = time.perf_counter() - t0
    return {"options": options, "seconds": round(secs, 1), "pairs_per_s": round(n / secs), **json.loads(out.read_text())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--subset", type=int, default=10_000)
    args = ap.parse_args()
    os.environ.setdefault("TMPDIR", tempfile.gettempdir())
    from benchmarks.results import emit, figure

    quality = allocation_quality()
    for row in quality:
        print(json.dumps(row))
    runs = [beam_run(args.n, args.subset, []),
            beam_run(args.n, args.subset, ["--direct_num_workers=2", "--direct_running_mode=multi_processing"])]
    for r in runs:
        print(json.dumps(r))
    identical = len({r["digest"] for r in runs}) == 1
    print(json.dumps({"identical_across_worker_counts": identical}))
    emit("split", [
        *[figure(f"subset distance, {row['pairs']:,} -> {row['subset']:,} pairs", round(max((v for v in row["distance"].values() if v is not None), default=0.0), 6),
                 "max over variables", "<= 0.02") for row in quality],
        *[figure(f"split + subset on Beam, {'2 processes' if r['options'] else '1 worker'}", r["pairs_per_s"], "pairs/s")
          for r in runs],
        figure("same split on 1 worker and 2 processes", int(identical), "bool", "== 1"),
    ], {"allocation_quality": quality})


if __name__ == "__main__":
    main()
