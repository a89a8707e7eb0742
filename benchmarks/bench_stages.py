"""CPU cost of each build stage per raw entry, and what the paper's scale would cost (not a timed test).

Why: the cost and time estimate for 27M raw entries (README, "Many machines")
must come from measured per-entry costs, stage by stage, not from a guess.
Each stage's pure step function (pipeline/cleaning_steps.py, transforms/) runs
on the build's own batches of real-text entries (benchmarks/raw_corpus.py,
recombined from ../shared/data at run time), timed with the process's CPU
clock so a busy machine inflates the figures little. Stages measured: scan
(the second read for the vocabulary and duplicates), validate, dedup,
redundant triple, redundant description, relation frequency, entity typing,
domain classification (default embedder), finalise, and writing Parquet.
Search co-occurrence validation is left out: its cost is the search backend's
(bench_search).

Then, for N raw entries (default 27M, the paper's Baike scale), it prints the
CPU-hours, the time on one 2-core machine, and on Dataflow the worker vCPU-
hours and a cost at the given price per vCPU-hour and GB-hour (defaults: the
us-central1 batch list prices of n1-standard workers; check yours), plus the
Beam overhead factor measured by bench_build (build CPU / plain loop CPU).

The per-stage costs, the total and both estimates go to benchmarks/run.py
through benchmarks.results.emit.

    python -m benchmarks.bench_stages [--n 5000] [--scale 27000000]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from benchmarks.bench_build import _batches

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data"
# Stages whose work is per kept pair, not per raw entry.
PER_PAIR_STAGES = ("entity_typing", "domain_classification", "finalise")


def measure(paths: list[str]) -> dict:
    """CPU seconds per stage over the entries in `paths` (one pass each, in build order),
    with the build's garbage-collector thresholds (pipeline/gc_tuning.py)."""
    import numpy as np

    from pipeline.gc_tuning import tune_gc

    tune_gc()

    from pipeline.build import AUDIT_KEY
    from pipeline.cleaning_steps import (deduplicate_batch, finalise_batch, pair_relations,
                                         redundant_description_batch, redundant_triple_batch,
                                         relation_frequency_batch, scan_batch, validate_batch)
    from pipeline.config import BuildConfig
    from pipeline.write import RowKeyer, keyed_table, sort_order, write_arrow_file
    from schemas.outputs import AUDIT_SCHEMA, PAIR_SCHEMA
    from transforms import dedup
    from transforms.domain import DomainClassifier, classify_pairs
    from transforms.entity_type import type_pair
    from transforms.relations import relation_vocabulary, select_relations

    cfg = BuildConfig()
    syn = dict(cfg.relation_frequency.synonyms) if cfg.relation_frequency.synonyms is not None else None
    cpu: Counter = Counter()

    def timed(stage, fn, *args):
        c0 = time.process_time()
        out = fn(*args)
        cpu[stage] += time.process_time() - c0
        return out

    batches = list(_batches(paths))
    names: Counter = Counter()
    copies: list = []
    for batch in batches:
        scan = timed("scan", scan_batch, batch)
        names.update(scan.names)
        copies.extend(scan.copies.values())
    vocab = relation_vocabulary(names, cfg.input.vocabulary_min_count)
    winners = dedup.winners(np.concatenate(copies)) if copies else {}
    entries, pairs, audit = 0, [], []
    for batch in batches:
        v = timed("validate", validate_batch, batch)
        entries += len(v.pairs) + len(v.audit)
        u = timed("deduplicate", deduplicate_batch, v.pairs, winners, cfg.cleaning)
        t = timed("redundant_triple", redundant_triple_batch, u.pairs, cfg.cleaning)
        d = timed("redundant_description", redundant_description_batch, t.pairs, vocab, cfg.cleaning)
        pairs += d.pairs
        audit += v.audit + u.audit + t.audit + d.audit
    kept = timed("relation_frequency", lambda: select_relations(Counter(pair_relations(pairs, syn)),
                                                                cfg.relation_frequency))
    f = timed("relation_frequency", relation_frequency_batch, pairs, kept, syn)
    typed = timed("entity_typing", lambda: [type_pair(p) for p in f.pairs])
    clf = DomainClassifier(cfg.domain)
    timed("domain_setup", clf._ensure_embedder)
    classified = []
    for i in range(0, len(typed), 256):
        classified += timed("domain_classification", classify_pairs, typed[i:i + 256], clf)
    final = timed("finalise", finalise_batch, classified)
    audit += f.audit + final.audit
    with tempfile.TemporaryDirectory() as out:
        for name, schema, key, rows in (("pairs", PAIR_SCHEMA, ("pair_id",), final.pairs),
                                        ("audit", AUDIT_SCHEMA, AUDIT_KEY, audit)):
            def write(schema=schema, key=key, rows=rows, name=name):
                keyer = RowKeyer(schema.names, key)
                table = keyed_table(schema, [keyer(r) for r in rows])
                write_arrow_file(f"{out}/{name}.parquet", table, cfg.output.row_group_size, sort_order(table))
            timed("write", write)
    return {"entries": entries, "pairs": len(final.pairs), "cpu": dict(cpu)}


def estimate(per_entry: float, n: int, beam_factor: float, vcpu_price: float, gb_price: float,
             gb_per_vcpu: float, workers: int, vcpus_per_worker: int) -> dict:
    """Hours and cost of `n` entries at `per_entry` CPU seconds (times the Beam overhead)."""
    cpu_hours = per_entry * n * beam_factor / 3600
    vcpus = workers * vcpus_per_worker
    return {
        "cpu_hours": round(cpu_hours, 1),
        "one_2core_machine_hours": round(cpu_hours / 2, 1),
        "dataflow_wall_hours": round(cpu_hours / vcpus, 2),
        "dataflow_workers": workers,
        "dataflow_cost_usd": round(cpu_hours * (vcpu_price + gb_per_vcpu * gb_price), 2),
    }


def figures(per_stage: dict[str, float], per_entry: float, scale: int, est: dict, est2: dict) -> list[dict]:
    """CPU per raw entry, stage by stage and in total, and the two estimates for `scale` entries."""
    from benchmarks.results import figure

    figs = [figure(f"stage {s}", round(us, 1), "CPU us/raw entry") for s, us in per_stage.items()]
    figs += [figure("all stages", round(per_entry * 1e6, 1), "CPU us/raw entry"),
             figure("all stages, without Beam", round(1 / per_entry), "raw entries/s/core"),
             figure(f"{scale:,} entries from the stages (x Beam overhead)", est["cpu_hours"], "CPU-hours"),
             figure(f"{scale:,} entries from the whole-build rate + typing + domain", est2["cpu_hours"], "CPU-hours"),
             figure(f"{scale:,} entries on Dataflow, from the whole-build rate", est2["dataflow_cost_usd"], "USD")]
    return figs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=5000, help="raw entries to measure on")
    ap.add_argument("--repeats", type=int, default=3, help="medians over this many passes")
    ap.add_argument("--scale", type=int, default=27_000_000, help="raw entries to estimate for (paper: 27M)")
    ap.add_argument("--pair-ratio", type=float, default=7 / 27,
                    help="pairs per raw entry at the target scale (paper: about 7M of 27M); the per-pair "
                         "stages (typing, domain, finalise) are scaled from the measured ratio to this one")
    ap.add_argument("--beam-factor", type=float, default=1 / 0.96,
                    help="build CPU / plain-loop CPU (bench_build: loop/build = 0.96 -> 1.04)")
    ap.add_argument("--build-rate", type=float, default=2284.0,
                    help="raw entries/s/core of the whole DirectRunner build with typing and domain off "
                         "(bench_build, 100k entries, 2026-11-23): the conservative estimate adds those two "
                         "stages to it")
    ap.add_argument("--vcpu-price", type=float, default=0.056, help="USD per vCPU-hour (Dataflow batch)")
    ap.add_argument("--gb-price", type=float, default=0.003557, help="USD per GB-hour of worker memory")
    ap.add_argument("--gb-per-vcpu", type=float, default=3.75, help="worker memory per vCPU (n1-standard: 3.75)")
    ap.add_argument("--workers", type=int, default=25, help="Dataflow --max_num_workers")
    ap.add_argument("--vcpus-per-worker", type=int, default=4, help="n1-standard-4 = 4")
    args = ap.parse_args(argv)
    from benchmarks.results import emit, skip

    if not SHARED.is_dir():  # a clean clone: recorded as skipped, with the reason
        return skip("stages", f"no shared data at {SHARED}: it needs the real corpora")
    from benchmarks.raw_corpus import generate, write_jsonl

    with tempfile.TemporaryDirectory() as tmp:
        paths = [str(p) for p in write_jsonl(generate(SHARED, args.n), Path(tmp), shards=2)]
        runs = [measure(paths) for _ in range(args.repeats)]
    stages = sorted({s for r in runs for s in r["cpu"]}, key=lambda s: list(runs[0]["cpu"]).index(s))
    entries = runs[0]["entries"]
    per_stage = {s: sorted(r["cpu"].get(s, 0.0) for r in runs)[len(runs) // 2] / entries * 1e6 for s in stages}
    setup = per_stage.pop("domain_setup", 0.0) * entries / 1e6  # once per worker, not per entry
    measured_ratio = runs[0]["pairs"] / entries
    if measured_ratio:
        for s in PER_PAIR_STAGES:
            if s in per_stage:
                per_stage[s] *= args.pair_ratio / measured_ratio
    per_entry = sum(per_stage.values()) / 1e6
    print(f"bench_stages: {entries} raw entries -> {runs[0]['pairs']} pairs, median of {len(runs)}; "
          f"CPU microseconds per raw entry (per-pair stages scaled to {args.pair_ratio:.2f} pairs/entry):")
    for s, us in per_stage.items():
        print(f"  {s:<24} {us:9.1f}  ({us / (per_entry * 1e6):5.1%})")
    print(f"  {'total':<24} {per_entry * 1e6:9.1f}  -> {1 / per_entry:,.0f} raw entries/s/core without Beam; "
          f"embedder load {setup:.1f} s once per worker")
    est = estimate(per_entry, args.scale, args.beam_factor, args.vcpu_price, args.gb_price, args.gb_per_vcpu,
                   args.workers, args.vcpus_per_worker)
    print(f"estimate for {args.scale:,} raw entries, stages x{args.beam_factor:.2f} Beam overhead: "
          + json.dumps(est))
    # Conservative: the measured whole-build rate (reading, spilling, shuffles included), plus the
    # stages that rate did not run (entity typing, domain classification), with the Beam overhead.
    extra = (per_stage.get("entity_typing", 0.0) + per_stage.get("domain_classification", 0.0)) / 1e6
    conservative = 1 / args.build_rate + extra * args.beam_factor
    est2 = estimate(conservative, args.scale, 1.0, args.vcpu_price, args.gb_price, args.gb_per_vcpu,
                    args.workers, args.vcpus_per_worker)
    print(f"estimate for {args.scale:,} raw entries from the whole-build rate {args.build_rate:,.0f}/s/core "
          f"+ typing + domain ({conservative * 1e6:.0f} us/entry): " + json.dumps(est2))
    emit("stages", figures(per_stage, per_entry, args.scale, est, est2),
         {"entries": entries, "pairs": runs[0]["pairs"], "repeats": len(runs), "embedder_load_s": round(setup, 2),
          "estimate_from_stages": est, "estimate_from_build_rate": est2})
    return 0


if __name__ == "__main__":
    sys.exit(main())
