"""Cost and reach of the issue-10 alignment levels (not a timed test).

Runs `clean_entry` (pair building + alignment of every triple) on one core
over real text read at run time from ../shared/data (DuIE sentences with
negatives, KDConv entities), once with everything on and once with the word
boundary and role checks off, and reports:

* entries per CPU second for both, and the ratio (what the checks cost);
* the share of kept triples per `match` level (exact, date, number, alias,
  lifespan, demonym, place, list_item, paraphrase, fuzzy);
* why triples were dropped (not found / only inside longer names / only in
  another role / value of another kind / shared with an exclusive relation);
* how often the jieba segmentation actually ran (most candidates never need
  it: their edges are not between two CJK characters, or no word crosses them).

The rates and the cost ratio go to benchmarks/run.py through
benchmarks.results.emit; the level shares and drop reasons go along as its
details (and are printed as JSON).

    python -m benchmarks.bench_align [--n 6000]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from transforms import mentions  # noqa: E402
from transforms.corpora import duie_to_raw_entries, kdconv_to_raw_entries  # noqa: E402
from transforms.pairs import validate_raw_entry  # noqa: E402
from transforms.redundancy import CleaningConfig, clean_entry  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def _why(detail: str) -> str:
    for key in ("only inside longer names", "only mentions in another role", "value of another kind",
                "value also given for", "value not found"):
        if detail.startswith(key):
            return key
    return "other"


def run(raws: list[dict], cfg: CleaningConfig) -> dict:
    levels: Counter = Counter()
    drops: Counter = Counter()
    c0 = time.process_time()
    for raw in raws:
        res = clean_entry(raw, cfg)
        for t in (res.pair or {}).get("triples", []):
            levels[t["match"]] += 1
        for _t, reason, detail in res.dropped_triples:
            drops[_why(detail) if reason == "unsupported_by_text" else reason] += 1
    cpu = time.process_time() - c0
    kept = sum(levels.values())
    return {"entries": len(raws), "cpu_s": round(cpu, 3), "entries_per_cpu_s": round(len(raws) / cpu),
            "kept": kept, "match_shares": {k: round(v / kept, 4) for k, v in levels.most_common()},
            "drops": dict(drops.most_common())}


def figures(out: dict) -> list[dict]:
    """Per workload: entries/s/core with and without the checks, and what the checks cost."""
    from benchmarks.results import figure

    figs = []
    for name, r in out.items():
        figs += [figure(f"clean_entry with the boundary and role checks, {name}", r["on"]["entries_per_cpu_s"],
                        "entries/s/core"),
                 figure(f"clean_entry without them, {name}", r["checks_off"]["entries_per_cpu_s"], "entries/s/core"),
                 figure(f"cost of the checks, {name}", r["cost_ratio"], "ratio off/on")]
    return figs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=6000, help="entries per workload")
    args = ap.parse_args(argv)
    from benchmarks.results import emit, skip

    if not SHARED.is_dir():  # a clean clone: recorded as skipped, with the reason
        return skip("align", f"no shared data at {SHARED}")
    duie = duie_to_raw_entries(SHARED / "duie" / "train.jsonl").entries[: args.n]
    kd = kdconv_to_raw_entries(SHARED / "kdconv" / "entities_film_music_from_dev_test.jsonl")
    kd = (kd * (args.n // len(kd) + 1))[: args.n]
    out = {}
    for name, entries in (("duie", duie), ("kdconv", kd)):
        raws = [validate_raw_entry(e)[0] for e in entries]
        clean_entry(raws[0])  # load jieba's dictionary outside the timing
        calls = Counter()
        orig = mentions._best_cuts

        def counted(*a, _orig=orig):
            calls["segmented_runs"] += 1
            return _orig(*a)

        mentions._best_cuts = counted
        mentions._cuts_cached.cache_clear()
        try:
            on = run(raws, CleaningConfig())
        finally:
            mentions._best_cuts = orig
        off_cfg = CleaningConfig()
        off_cfg.align.roles = off_cfg.align.word_boundaries = False
        off = run(raws, off_cfg)
        out[name] = {"on": {**on, "segmented_runs": calls["segmented_runs"]}, "checks_off": off,
                     "cost_ratio": round(off["entries_per_cpu_s"] / on["entries_per_cpu_s"], 2)}
    print(json.dumps(out, ensure_ascii=False, indent=2))
    emit("align", figures(out), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
