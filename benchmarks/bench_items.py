"""Benchmark items: difficulty baselines, distractor type consistency, items/s (not a timed test).

On a build over the real corpora (benchmarks/raw_corpus.py recombines
../shared/data into raw entries), it reports on the eval QA/KGC items:

  Hits@1 and MRR of
    random              options in a random (seeded) order
    embedding           options ranked by similarity to the question (USE, offline)
    answer-only baselines, which never see the question:
    longest             the longest option first
    centroid            the option most similar to the other nine
    tail_frequency      the option most frequent as a tail in the graph
    classifier          logistic regression on option features, trained on the
                        TRAIN split's items only (length, script shares, 《》,
                        tail frequency, similarity to the other options, and
                        their ranks within the item)
  Targets: no baseline >= 0.6 Hits@1; answer-only <= 0.2 (chance 0.1).

  and the distractors' type consistency with the gold (target >= 95%), the
  embedder calls per unique string (must be 1: cold cache), and items/s of
  the items stage alone on the DirectRunner with the embeddings cached
  (target >= 1,000, goal 3,000), median of --repeats runs.

  Every figure, with these targets, goes to benchmarks/run.py through
  benchmarks.results.emit.

    python -m benchmarks.bench_items [--n 20000] [--repeats 3] [--workers 1 2]
"""
from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.raw_corpus import generate, write_jsonl  # noqa: E402
from benchmarks.results import emit, figure, skip  # noqa: E402
from transforms.text import normalise  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"


def hits_mrr(scores: list[list[float]], golds: list[int], seed: int = 0) -> tuple[float, float]:
    """Hits@1 and MRR of per-item option scores (higher first; ties broken at random, seeded)."""
    rng = random.Random(seed)
    h, rr = 0, 0.0
    for s, g in zip(scores, golds):
        jitter = [rng.random() * 1e-9 for _ in s]
        order = sorted(range(len(s)), key=lambda i: -(s[i] + jitter[i]))
        rank = order.index(g) + 1
        h += rank == 1
        rr += 1.0 / rank
    n = max(1, len(golds))
    return round(h / n, 4), round(rr / n, 4)


def _script_shares(s: str) -> list[float]:
    n = max(1, len(s))
    return [sum(c.isdigit() for c in s) / n, sum(c.isascii() and c.isalpha() for c in s) / n,
            sum("\u4e00" <= c <= "\u9fff" for c in s) / n]


def option_features(options: list[str], tail_freq: Counter, vecs: np.ndarray) -> np.ndarray:
    """Per-option features an answer-only model could exploit (never the question)."""
    sims = vecs @ vecs.T
    centr = (sims.sum(1) - 1.0) / (len(options) - 1)
    lens = np.array([len(o) for o in options], float)
    freqs = np.array([math.log1p(tail_freq.get(normalise(o), 0)) for o in options])

    def z(x):
        return (x - x.mean()) / (x.std() + 1e-9)

    def rank(x):
        return np.argsort(np.argsort(-x)) / (len(x) - 1)

    rows = []
    for i, o in enumerate(options):
        rows.append([lens[i], *_script_shares(o), float("《" in o), freqs[i], centr[i],
                     z(lens)[i], z(freqs)[i], z(centr)[i], rank(lens)[i], rank(freqs)[i], rank(centr)[i]])
    return np.array(rows)


def baselines(build: Path) -> dict:
    from sklearn.linear_model import LogisticRegression

    from pipeline.query import connect
    from transforms.embed import make_embedder

    con = connect(str(build))
    cols = "item_id, task, split, question, options, answer_index"
    rows = con.execute(f"SELECT {cols} FROM items WHERE task IN ('qa','kgc') ORDER BY item_id").fetchall()
    tail_freq = Counter(normalise(t) for (t,) in con.execute("SELECT tail FROM triples").fetchall())
    emb = make_embedder("use-m3")
    evals = [r for r in rows if r[2] == "eval"]
    trains = [r for r in rows if r[2] == "train"]
    golds = [r[5] for r in evals]
    out: dict = {"eval_items": len(evals), "train_items": len(trains)}

    rng = random.Random(1)
    out["random"] = hits_mrr([[rng.random() for _ in r[4]] for r in evals], golds)
    q_vecs = emb.encode([r[3] for r in evals])
    opt_vecs = {r[0]: emb.encode(list(r[4])) for r in rows}
    out["embedding"] = hits_mrr([list(opt_vecs[r[0]] @ q) for r, q in zip(evals, q_vecs)], golds)
    out["longest"] = hits_mrr([[len(o) for o in r[4]] for r in evals], golds)
    cent = []
    for r in evals:
        v = opt_vecs[r[0]]
        s = v @ v.T
        cent.append(list((s.sum(1) - 1.0) / 9))
    out["centroid"] = hits_mrr(cent, golds)
    out["tail_frequency"] = hits_mrr([[tail_freq.get(normalise(o), 0) for o in r[4]] for r in evals], golds)

    x_train = np.vstack([option_features(list(r[4]), tail_freq, opt_vecs[r[0]]) for r in trains])
    y_train = np.concatenate([[1 if i == r[5] else 0 for i in range(10)] for r in trains])
    clf = LogisticRegression(max_iter=2000, class_weight="balanced").fit(x_train, y_train)
    out["classifier"] = hits_mrr(
        [list(clf.predict_proba(option_features(list(r[4]), tail_freq, opt_vecs[r[0]]))[:, 1]) for r in evals], golds)
    out["classifier_train_hits1"] = hits_mrr(
        [list(clf.predict_proba(option_features(list(r[4]), tail_freq, opt_vecs[r[0]]))[:, 1]) for r in trains],
        [r[5] for r in trains])[0]
    by_task = {}
    for task in ("qa", "kgc"):
        sub = [(r, q) for r, q in zip(evals, q_vecs) if r[1] == task]
        by_task[task] = {"items": len(sub), "embedding": hits_mrr([list(opt_vecs[r[0]] @ q) for r, q in sub],
                                                                  [r[5] for r, _ in sub])}
    out["by_task"] = by_task
    return out


def items_speed(build: Path, workers: int) -> tuple[float, int]:
    """Items/s of the items stage alone (pairs read from the build, embeddings cached)."""
    import apache_beam as beam
    from apache_beam.io.parquetio import ReadFromParquet

    from pipeline.commands import make_runner, pipeline_options
    from pipeline.items_stage import BuildItems
    from pipeline.write import WriteParquetShards
    from schemas.items import ITEM_SCHEMA
    from transforms.items.config import ItemsConfig

    cfg = ItemsConfig(seed=3)
    out = Path(tempfile.mkdtemp(prefix="bench_items_"))
    args = ["--direct_running_mode=multi_processing", f"--direct_num_workers={workers}"] if workers > 1 else []
    options = pipeline_options(args)
    start = time.perf_counter()
    with beam.Pipeline(runner=make_runner(options), options=options) as p:
        pairs = p | ReadFromParquet(str(build / "pairs" / "**" / "*.parquet"))
        built = pairs | BuildItems(cfg, str(out), str(out / "_spill"), str(build / "embed_cache"))
        _ = built["items"] | WriteParquetShards(str(out / "items"), ITEM_SCHEMA, ("item_id",),
                                               ("task", "domain", "split"), num_shards=2,
                                               spill_dir=str(out / "_spill_w"))
    elapsed = time.perf_counter() - start
    import pyarrow.parquet as pq

    n = sum(pq.read_metadata(f).num_rows for f in (out / "items").rglob("*.parquet"))
    shutil.rmtree(out, ignore_errors=True)  # one copy of the items a run: counted, not kept
    return elapsed, n


QUESTION_BASELINES = ("random", "embedding")
ANSWER_ONLY_BASELINES = ("longest", "centroid", "tail_frequency", "classifier")


def _workers(key: str) -> str:
    """'workers_2' as the README says it: '1 worker', '2 processes'."""
    n = int(key.rsplit("_", 1)[1])
    return "1 worker" if n == 1 else f"{n} processes"


def figures(report: dict) -> list[dict]:
    """The report's figures with the docstring's targets, so run.py can say which were met."""
    b = report["baselines"]
    figs = [figure(f"eval QA+KGC Hits@1, {name} baseline ({b['eval_items']} items)", b[name][0], "Hits@1", "< 0.6")
            for name in QUESTION_BASELINES]
    figs += [figure(f"eval QA+KGC Hits@1, answer-only {name} baseline", b[name][0], "Hits@1", "<= 0.2",
                    note="chance 0.1") for name in ANSWER_ONLY_BASELINES]
    figs += [figure("invariant violations", report["invariant_violations"], "items", "== 0"),
             figure("leakage after drops", report["leakage"]["after_drops"], "items", "== 0"),
             figure("distractor type consistency", report["type_consistency"], "share", ">= 0.95"),
             figure("embedder calls per unique string, cold cache",
                    report["embeddings"]["embedded_per_unique_uncached"], "ratio", "== 1")]
    figs += [figure(f"items stage alone, embeddings cached, {_workers(key)} ({r['items']:,} items, median)",
                    r["median"], "items/s", ">= 1000", note="goal 3,000")
             for key, r in report["items_per_second_cached"].items()]
    return figs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=20000, help="raw entries recombined from the real corpora")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                    help="DirectRunner workers for the items/s runs (2 = multi_processing on 2 processes)")
    ap.add_argument("--out", default=None, help="keep the build here (default: a temp dir)")
    args = ap.parse_args(argv)
    if not SHARED.is_dir():  # a clean clone: recorded as skipped, with the reason
        return skip("items", f"no shared data at {SHARED}")
    base = Path(args.out or tempfile.mkdtemp(prefix="bench_items_build_"))
    try:
        return _measure(args, base)
    finally:  # a temp build of 20k entries: each run left one behind
        if not args.out:
            shutil.rmtree(base, ignore_errors=True)


def _measure(args, base: Path) -> int:
    from pipeline.cli import main as cdtp

    write_jsonl(generate(SHARED, args.n), base / "raw", shards=4)
    start = time.perf_counter()
    rc = cdtp(["build", "--input", str(base / "raw" / "raw-*.jsonl"), "--out", str(base / "build"), "--overwrite",
               "--seed", "3", "--set", "split.subset_size=1000"])
    build_s = time.perf_counter() - start
    if rc:
        return rc
    stats = json.loads((base / "build" / "stats.json").read_text(encoding="utf-8"))["items"]
    report = {"raw_entries": args.n, "build_seconds_cold_cache": round(build_s, 1), "written": stats["written"],
              "skipped": stats["skipped"], "invariant_violations": stats["invariant_violations"],
              "type_consistency": stats["type_consistency"], "leakage": stats["leakage"],
              "embeddings": stats["embeddings"], "distractor_origins": stats["distractor_origins"],
              "distractor_similarity": stats["distractor_similarity"]["shares"]}
    report["baselines"] = baselines(base / "build")
    speed = {}
    for w in args.workers:
        runs = [items_speed(base / "build", w) for _ in range(args.repeats)]
        rates = [n / s for s, n in runs]
        speed[f"workers_{w}"] = {"median": round(statistics.median(rates)), "runs": [round(r) for r in rates],
                                 "items": runs[0][1]}
    report["items_per_second_cached"] = speed
    print(json.dumps(report, ensure_ascii=False, indent=1))
    b = report["baselines"]
    print("\nbaseline          Hits@1   MRR     (eval QA+KGC items: %d)" % b["eval_items"])
    for name in ("random", "embedding", "longest", "centroid", "tail_frequency", "classifier"):
        print(f"  {name:<16} {b[name][0]:<8} {b[name][1]}")
    print(f"type consistency {stats['type_consistency']}  embedded/unique {stats['embeddings']}"
          f"  items/s (cached, median) {json.dumps(report['items_per_second_cached'])}")
    emit("items", figures(report), report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
