"""Throughput of the pure cleaning logic on one core (not a timed test).

Measures `clean_entry` (pair building, alignment, redundant-triple filter)
and `check_redundant_description` per raw entry, in a plain Python loop on
one core (CPU time of this process, robust to a busy machine), over two
real-text workloads read at run time from ../shared/data:

* duie: DuIE sentences as entries, annotated triples + as many negatives of
  the same relations from other sentences (transforms/corpora.py);
* kdconv: KDConv film/music entities (Baike-like summaries, most infobox
  rows not stated), repeated 4 times;
* mixed: the build benchmark's recombined corpus (benchmarks/raw_corpus.py:
  DuIE + KDConv + plant texts with decoy rows), when available.

The full build needs >= 2,000 raw entries/s/core; these functions are only a
part of it, so they must be well above that.

    python benchmarks/bench_clean.py [--n 20000] [--profile]
"""
from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from transforms.corpora import duie_to_raw_entries, kdconv_to_raw_entries  # noqa: E402
from transforms.pairs import validate_raw_entry  # noqa: E402
from transforms.redundancy import CleaningConfig, check_redundant_description, clean_entry  # noqa: E402
from transforms.relations import relation_vocabulary  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def run(entries: list[dict], vocab: frozenset[str], cfg: CleaningConfig) -> dict:
    fates: Counter = Counter()
    triples = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for e in entries:
        raw, err = validate_raw_entry(e)
        if raw is None:
            fates["invalid_input"] += 1
            continue
        res = clean_entry(raw, cfg)
        triples += len(res.dropped_triples) + (len(res.pair["triples"]) if res.pair else 0)
        if res.pair is None:
            fates[res.pair_reason] += 1
            continue
        d = check_redundant_description(res.pair, vocab, cfg)
        fates["kept" if d.keep else d.reason] += 1
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    # Per-core throughput uses CPU time: on a shared machine wall time also
    # counts the time other processes held the core.
    return {"entries": len(entries), "triples": triples, "wall_s": round(dt, 3), "cpu_s": round(cpu, 3),
            "entries_per_cpu_s": round(len(entries) / cpu), "triples_per_cpu_s": round(triples / cpu),
            "entries_per_wall_s": round(len(entries) / dt), "fates": dict(fates)}


def clean_only(entries: list[dict], cfg: CleaningConfig) -> int:
    """clean_entry alone (redundant-triple stage) on pre-validated entries:
    entries per CPU second."""
    raws = [r for r, _ in map(validate_raw_entry, entries) if r is not None]
    c0 = time.process_time()
    for raw in raws:
        clean_entry(raw, cfg)
    return round(len(raws) / (time.process_time() - c0))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=20000, help="entries of the mixed workload")
    ap.add_argument("--profile", action="store_true", help="print the top functions by cumulative time")
    args = ap.parse_args()
    from benchmarks.results import emit, figure, skip

    if not SHARED.is_dir():
        return skip("clean", f"no real data at {SHARED}")
    cfg = CleaningConfig()
    workloads = {
        "duie": duie_to_raw_entries(SHARED / "duie" / "train.jsonl").entries,
        # Baike-like: long summaries, ~8 infobox rows, most not stated.
        "kdconv": kdconv_to_raw_entries(SHARED / "kdconv" / "entities_film_music_from_dev_test.jsonl") * 4,
    }
    try:
        from benchmarks.raw_corpus import generate

        workloads["mixed"] = list(generate(SHARED, args.n))
    except ImportError:
        pass
    results = {}
    for name, entries in workloads.items():
        vocab = relation_vocabulary(Counter(i["name"] for e in entries for i in e["infobox"]), 2)
        run(entries[:500], vocab, cfg)  # warm caches of compiled regexes and char maps
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
        results[name] = run(entries, vocab, cfg)
        results[name]["clean_entry_only_per_cpu_s"] = clean_only(entries, cfg)
        if args.profile:
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(18)
    print(json.dumps(results, ensure_ascii=False, indent=2))
    emit("clean", [
        figure(f"cleaning logic, {name} workload", r["entries_per_cpu_s"], "raw entries/s/core", ">= 2000",
               note="a part of the build, so well above its 2,000" if i == 0 else "")
        for i, (name, r) in enumerate(results.items())
    ], results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
