"""Evaluation stage: scoring throughput per metric family, and the HTTP
backend's request rate against the local OpenAI-compatible server (not a
timed test).

1. Scoring, items/s (median of --repeats):
   choice  ranking parse + MRR/Hits/acc + char F1 on ten-option answers;
   t2t     BLEU-4/ROUGE-1/2/L/METEOR on jieba tokens, DuIE sentences from
           ../shared/data as references, a clause-shuffled copy as prediction;
   t2kg    Text2KGBench's seven metrics on the Vicuna-13B responses in
           ../shared/data (English, Porter stems).
2. Requests/s of `OpenAIBackend.generate` at concurrency 1, 8 and 32 against
   evaluation/local_server.py with --latency seconds of think time per reply
   (the rate a real server would allow), and with none (the client's own ceiling).

The rates go to benchmarks/run.py through benchmarks.results.emit; a scorer
whose data is absent is left out of the figures and named in the details.

    python -m benchmarks.bench_eval [--items 2000] [--requests 400] [--latency 0.02] [--repeats 3]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"

from evaluation import metrics as M  # noqa: E402
from evaluation import t2t_metrics as T  # noqa: E402
from evaluation import text2kg as K  # noqa: E402
from evaluation.local_server import running_server  # noqa: E402
from evaluation.openai_backend import OpenAIBackend  # noqa: E402
from evaluation.ranking import parse_ranking  # noqa: E402

LETTERS = "ABCDEFGHIJ"


def _median_rate(fn, n: int, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        rates.append(n / (time.perf_counter() - t0))
    return statistics.median(rates)


def bench_choice(n: int, repeats: int) -> float:
    rng = random.Random(0)
    opts = [f"选项{i}号答案" for i in range(10)]
    outs = []
    for _ in range(n):
        order = list(LETTERS)
        rng.shuffle(order)
        outs.append(rng.choice([" > ".join(order), "".join(order), "答案：" + order[0], opts[3] + "，然后是" + opts[1]]))

    def run():
        for o in outs:
            p = parse_ranking(o, opts)
            if p.ranking:
                M.item_ranking_scores(p.ranking, 3)
                M.f1_char(opts[p.ranking[0]], opts[3])
    return _median_rate(run, n, repeats)


def bench_t2t(n: int, repeats: int) -> float | None:
    path = SHARED / "duie" / "train.jsonl"
    if not path.exists():
        return None
    refs = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            refs.append(json.loads(line)["text"])
            if len(refs) >= n:
                break
    rng = random.Random(0)
    preds = []
    for r in refs:
        parts = r.replace("，", "，|").split("|")
        rng.shuffle(parts)
        preds.append("".join(parts))
    T.tokenize("预热")  # jieba's dictionary load is not scoring

    def run():
        for p, r in zip(preds, refs):
            T.item_t2t_scores(p, r)
    return _median_rate(run, len(refs), repeats)


def bench_t2kg(repeats: int) -> tuple[float, int] | None:
    d = SHARED / "text2kgbench" / "wikidata_tekgen"
    if not d.exists():
        return None
    cases = []
    for f in sorted((d / "ontologies").glob("*_ontology.json")):
        key = f.name[: -len("_ontology.json")]
        ont = json.loads(f.read_text())
        gold = {}
        for line in open(d / "ground_truth" / f"ont_{key}_ground_truth.jsonl", encoding="utf-8"):
            r = json.loads(line)
            gold[r["id"]] = r
        for line in open(d / "baselines" / "Vicuna-13B" / "llm_responses" / f"ont_{key}_llm_responses.jsonl"):
            r = json.loads(line)
            g = gold[r["id"]]
            cases.append((ont, g["sent"], [[t["sub"], t["rel"], t["obj"]] for t in g["triples"]], r["response"]))
    K.clean_entity("warm up", "en")

    def run():
        K._stem_join.cache_clear()  # every repeat pays for its own stems
        for ont, sent, gold_tr, resp in cases:
            K.sentence_scores(gold_tr, [list(t) for t in K.parse_triples(resp)], ont, sent, lang="en")
    return _median_rate(run, len(cases), repeats), len(cases)


def bench_http(n: int, latency: float, repeats: int) -> dict[int, float]:
    out = {}
    with running_server(delay=latency) as srv:
        for conc in (1, 8, 32):
            m = OpenAIBackend.from_spec(f"openai-chat:bench@{srv.url}?concurrency={conc}&timeout=30")
            prompts = [f"第{i}个请求：长江" for i in range(n)]
            m.generate(prompts[: min(conc, n)])  # warm the pool

            def run():
                gens = m.generate(prompts)
                assert all(g.error is None for g in gens)
            out[conc] = _median_rate(run, n, repeats)
            m.close()
    return out


def scoring_figures(items: int, repeats: int) -> tuple[list[dict], list[str]]:
    """Items/s per metric family, printed as measured; a family without its data is named, not guessed."""
    from benchmarks.results import figure

    figs, skipped = [], []
    print(f"scoring throughput (median of {repeats}):")
    choice = bench_choice(items, repeats)
    print(f"  choice  {choice:>10.0f} items/s")
    figs.append(figure("scoring, choice (ranking parse, MRR/Hits, char F1)", round(choice), "items/s"))
    t2t = bench_t2t(items, repeats)
    print(f"  t2t     {t2t:>10.0f} items/s" if t2t else "  t2t     skipped (no ../shared/data/duie)")
    if t2t:
        figs.append(figure("scoring, t2t (BLEU/ROUGE/METEOR on DuIE sentences)", round(t2t), "items/s"))
    else:
        skipped.append("t2t: no ../shared/data/duie")
    t2kg = bench_t2kg(repeats)
    print(f"  t2kg    {t2kg[0]:>10.0f} items/s ({t2kg[1]} Vicuna-13B responses)" if t2kg
          else "  t2kg    skipped (no ../shared/data/text2kgbench)")
    if t2kg:
        figs.append(figure(f"scoring, t2kg ({t2kg[1]:,} Vicuna-13B responses)", round(t2kg[0]), "items/s"))
    else:
        skipped.append("t2kg: no ../shared/data/text2kgbench")
    return figs, skipped


def http_figures(requests: int, latency: float, repeats: int) -> list[dict]:
    """Requests/s per concurrency, with the given server latency and with none."""
    from benchmarks.results import figure

    figs = []
    for lat in (latency, 0.0):
        rates = bench_http(requests, lat, repeats)
        print(f"HTTP requests/s, server latency {lat * 1000:.0f} ms: "
              + ", ".join(f"concurrency {c}: {r:.0f}" for c, r in rates.items()))
        figs += [figure(f"HTTP backend, server latency {lat * 1000:.0f} ms, concurrency {c}", round(r), "requests/s")
                 for c, r in rates.items()]
    return figs


def main(argv: list[str] | None = None) -> int:
    from benchmarks.results import emit

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--items", type=int, default=2000)
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--latency", type=float, default=0.02, help="server think time per reply, seconds")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    figs, skipped = scoring_figures(args.items, args.repeats)
    figs += http_figures(args.requests, args.latency, args.repeats)
    emit("eval", figs, {"repeats": args.repeats, "items": args.items, "requests": args.requests,
                        "skipped": skipped})
    return 0


if __name__ == "__main__":
    sys.exit(main())
