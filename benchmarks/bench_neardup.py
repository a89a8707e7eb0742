"""Benchmark of the near_duplicate stage (not a test): build cost, and recall on perturbed copies.

    python -m benchmarks.bench_neardup [--n 100000] [--repeats 3] [--texts 3000]

(a) Cost. `cdtp build` on N raw entries recombined from the real corpora
    (benchmarks/raw_corpus.py), with the stages bench_build switches off kept
    off, once with the near_duplicate stage off and once with it on (the default
    config). Reports raw entries/s/core from the build's CPU time (median over
    --repeats), the stage's share, and its own figures (candidate and verified
    edges, copies dropped). Note that the recombined corpus gives several
    DuIE subjects the same sentence as their text, so the stage finds many
    "copies" there; real Baike summaries are rarely shared.
(b) Recall. Unique real summaries (≥ 60 characters) from the same corpora,
    each with a perturbed copy per edit rate: random CJK substitutions,
    deletions and insertions of 1%–10% of the characters, plus punctuation
    swaps (which normalisation ignores). Per rate: the share of copies whose
    exact shingle Jaccard is ≥ the threshold (what the stage should find),
    the share found (LSH candidate + verified), and the LSH recall (found
    / should find). Also the verified edges between different originals
    (false positives, if they are not real near-duplicates in the corpus).

The figures go to benchmarks/run.py through benchmarks.results.emit (the
build rate with the stage on against the build's target, >= 2,000).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
RATES = (0.01, 0.02, 0.05, 0.10)
PUNCT_SWAPS = (("，", "、"), ("。", "；"), ("，", " "), ("“", "\""))


def perturb(text: str, rate: float, rng: random.Random, alphabet: str) -> str:
    chars = list(text)
    for a, b in PUNCT_SWAPS:  # punctuation differences, like Baidu vs Sogou (ignored by normalisation)
        if rng.random() < 0.5:
            chars = list("".join(chars).replace(a, b, 1))
    for _ in range(max(1, round(rate * len(text)))):
        op, i = rng.random(), rng.randrange(len(chars))
        if op < 0.4:
            chars[i] = rng.choice(alphabet)
        elif op < 0.7 and len(chars) > 1:
            del chars[i]
        else:
            chars.insert(i, rng.choice(alphabet))
    return "".join(chars)


def recall(texts_n: int, seed: int = 11) -> dict:
    import numpy as np

    from benchmarks.raw_corpus import base_records
    from pipeline.neardup_steps import candidates_of, is_candidate, sketch_batch
    from transforms.neardup import (NearDuplicateConfig, candidate_edges, exact_groups, jaccard, shingle_hashes,
                                    verify)

    cfg = NearDuplicateConfig()
    rng = random.Random(seed)
    summaries = sorted({r["summary"] for r in base_records(SHARED) if len(r["summary"] or "") >= 60})
    originals = rng.sample(summaries, min(texts_n, len(summaries)))
    alphabet = "".join(sorted({c for t in originals[:500] for c in t if "\u4e00" <= c <= "\u9fff"}))
    pairs, truth = [], {}
    for i, t in enumerate(originals):
        pairs.append({"pair_id": f"o{i:06d}", "text": t})
        for rate in RATES:
            pid = f"c{i:06d}-{rate}"
            pairs.append({"pair_id": pid, "text": perturb(t, rate, rng, alphabet)})
            truth[pid] = (f"o{i:06d}", rate)
    start = time.process_time()
    tables = [t for k in range(0, len(pairs), 256) for _, t in sketch_batch(pairs[k:k + 256], cfg)]
    edges, _ = candidate_edges(np.concatenate(tables), cfg.max_bucket)
    sketch_cpu = time.process_time() - start
    # The stage's own decision path: exact groups, then verified edges between their best copies.
    nodes = np.unique(edges.reshape(-1))
    cands = candidates_of([p for p in pairs if is_candidate(p, nodes)], cfg, None)
    rep = exact_groups(cands)
    verified = verify(edges, cands, cfg.threshold, rep)
    near = {(a, b) for a, b, _ in verified}

    def found_pair(x: str, y: str) -> bool:
        rx, ry = rep.get(x), rep.get(y)
        return rx is not None and ry is not None and (rx == ry or tuple(sorted((rx, ry))) in near)

    found = {pid for pid, (orig, _) in truth.items() if found_pair(orig, pid)}
    def origin(pid: str) -> int:  # o12 and c12-0.01 both come from original 12
        return int(pid[1:].split("-")[0])

    false_pos = len({tuple(sorted((origin(a), origin(b)))) for a, b in near if origin(a) != origin(b)})

    shingles: dict[str, np.ndarray] = {}

    def sh(pid_text):
        pid, text = pid_text
        if pid not in shingles:
            shingles[pid] = shingle_hashes(text, cfg.shingle_size, cfg.min_chars)
        return shingles[pid]

    text_of = {p["pair_id"]: p["text"] for p in pairs}
    per_rate = {}
    for rate in RATES:
        copies = [pid for pid, (_, r) in truth.items() if r == rate]
        should = [pid for pid in copies
                  if jaccard(sh((truth[pid][0], text_of[truth[pid][0]])), sh((pid, text_of[pid]))) >= cfg.threshold]
        hit = [pid for pid in should if pid in found]
        per_rate[f"{rate:.0%}"] = {
            "copies": len(copies),
            "share_at_or_above_threshold": round(len(should) / len(copies), 4),
            "share_found": round(sum(pid in found for pid in copies) / len(copies), 4),
            "lsh_recall": round(len(hit) / len(should), 4) if should else None,
        }
    should_all = sum(v["share_at_or_above_threshold"] * v["copies"] for v in per_rate.values())
    hit_all = sum((v["lsh_recall"] or 0) * v["share_at_or_above_threshold"] * v["copies"] for v in per_rate.values())
    return {
        "originals": len(originals),
        "threshold": cfg.threshold, "num_perm": cfg.num_perm, "bands": cfg.bands, "shingle_size": cfg.shingle_size,
        "per_edit_rate": per_rate,
        "lsh_recall_overall": round(hit_all / should_all, 4) if should_all else None,
        "candidate_edges": int(len(edges)),
        "original_pairs_found_near_duplicate": false_pos,  # near-duplicates within the corpus itself
        "sketch_us_per_text": round(sketch_cpu / len(pairs) * 1e6, 1),
    }


def figures(fig: dict) -> list[dict]:
    """Recall per edit rate, and the build's rate with the stage off and on (the README's target on the latter)."""
    from benchmarks.results import figure

    rec, build = fig["recall"], fig["build"]
    figs = [figure(f"LSH recall at Jaccard >= {rec['threshold']}, {rec['originals']:,} real summaries",
                   rec["lsh_recall_overall"], "share")]
    figs += [figure(f"copies found, {rate} of characters edited", r["share_found"], "share")
             for rate, r in rec["per_edit_rate"].items()]
    figs += [figure(f"build, {build['entries']:,} entries, near_duplicate off", build["entries_per_s_per_core_off"],
                    "raw entries/s/core"),
             figure(f"build, {build['entries']:,} entries, near_duplicate on", build["entries_per_s_per_core_on"],
                    "raw entries/s/core", ">= 2000"),
             figure("near_duplicate share of the build's CPU", build["stage_share_of_build_cpu"], "share"),
             figure("peak RSS, near_duplicate on", build["rss_mb"]["on"], "MB")]
    return figs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--texts", type=int, default=3000, help="originals for the recall measurement")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    from benchmarks.results import emit, skip

    if not SHARED.is_dir():  # a clean clone: recorded as skipped, with the reason
        return skip("neardup", f"no shared data at {SHARED}")
    from benchmarks.bench_build import STAGES_OFF, run_build_child
    from benchmarks.raw_corpus import generate, write_jsonl

    fig: dict = {"recall": recall(args.texts)}
    print(json.dumps(fig["recall"], indent=2), flush=True)

    work = Path(args.workdir or tempfile.mkdtemp(prefix="bench_neardup_"))
    os.environ.setdefault("TMPDIR", str(work))
    d = work / f"in-{args.n}"
    if not d.exists():
        write_jsonl(generate(SHARED, args.n), d, shards=4)
    pattern = str(d / "raw-*.jsonl")
    with_stage = [a for a in STAGES_OFF if a != "--no-near-duplicate"]
    runs: dict[str, list[dict]] = {"off": [], "on": []}
    for r in range(args.repeats):
        for name, stages in (("off", STAGES_OFF), ("on", with_stage)):
            runs[name].append(run_build_child(pattern, str(work / f"out-{name}"), [], stages_off=stages))
            print(f"repeat {r} near_duplicate {name}: {runs[name][-1]['cpu']:.1f}s cpu, "
                  f"{runs[name][-1]['maxrss_mb']:.0f} MB", flush=True)
    stats = json.loads((work / "out-on" / "stats.json").read_text())
    n = runs["on"][0]["entries"]
    cpu = {k: statistics.median(x["cpu"] for x in v) for k, v in runs.items()}
    stage = next(s for s in stats["funnel"] if s["stage"] == "near_duplicate")
    fig["build"] = {
        "entries": n,
        "repeats": args.repeats,
        "entries_per_s_per_core_off": round(n / cpu["off"]),
        "entries_per_s_per_core_on": round(n / cpu["on"]),
        "stage_cpu_s": round(cpu["on"] - cpu["off"], 2),
        "stage_share_of_build_cpu": round((cpu["on"] - cpu["off"]) / cpu["on"], 3),
        "cpu_s_per_repeat": {k: [round(x["cpu"], 1) for x in v] for k, v in runs.items()},
        "rss_mb": {k: round(statistics.median(x["maxrss_mb"] for x in v)) for k, v in runs.items()},
        "pairs_into_stage": stage["in"]["entries"],
        "near_duplicate": stats.get("near_duplicate"),
        "leakage": stats.get("leakage"),
        "load_average": os.getloadavg(),
    }
    print(json.dumps(fig["build"], indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(fig, indent=2))
    emit("neardup", figures(fig), fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
