"""Search co-occurrence validation: local index and cache figures (not a timed test).

Corpus: the real texts in ../shared/data (DuIE sentences, KdConv entity
summaries, LandscapeKnowledge plant texts, the 18 Baike pages with their
bodies), one document each. Pairs: one per DuIE text, its spo as triples
(head=subject, tail=object), source_url = that text's own document, so only
ANOTHER document can corroborate a triple. Wrong pairs: each subject with the
object of another text of the same predicate.

Prints: index build rate, queries/s of the local index (1 thread and
`--concurrency` threads), verified rates for true and wrong triples, and the
cache hit rate and speed of a rerun.

    python benchmarks/bench_search.py [--pairs 1000] [--concurrency 2]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"

from transforms.search.documents import Document  # noqa: E402
from transforms.search.local_index import LocalIndexBackend, build_index  # noqa: E402
from transforms.search.types import SearchConfig  # noqa: E402
from transforms.search.validate import make_backend, validate_pairs  # noqa: E402


def corpus() -> tuple[list[Document], list[dict]]:
    docs: list[Document] = []
    duie: list[dict] = []
    for i, line in enumerate((DATA / "duie" / "train.jsonl").open(encoding="utf-8")):
        rec = json.loads(line)
        docs.append(Document(f"duie://{i}", "", rec["text"]))
        duie.append({"url": f"duie://{i}", **rec})
    for i, line in enumerate((DATA / "kdconv" / "entities_film_music_from_dev_test.jsonl").open(encoding="utf-8")):
        rec = json.loads(line)
        if rec.get("summary"):
            docs.append(Document(f"kdconv://{i}", rec["entity"], rec["summary"]))
    for i, line in enumerate((DATA / "landscape-plant" / "dev.jsonl").open(encoding="utf-8")):
        rec = json.loads(line)
        docs.append(Document(f"plant://{i}", "", rec.get("text", "")))
    for page in sorted((DATA / "baike-baidu-2019" / "extracted" / "info-para").glob("*.txt")):
        docs.append(Document(f"baike://{page.stem}", page.stem, page.read_text(encoding="utf-8")))
    return docs, duie


def pairs_from(duie: list[dict], n: int, wrong: bool, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    by_pred: dict[str, list[str]] = {}
    for rec in duie:
        for spo in rec["spo_list"]:
            by_pred.setdefault(spo["predicate"], []).append(spo["object"]["@value"])
    out = []
    for rec in duie[:n]:
        triples = []
        for spo in rec["spo_list"]:
            tail = spo["object"]["@value"]
            if wrong:
                others = [o for o in by_pred[spo["predicate"]] if o != tail and o not in rec["text"]]
                if not others:
                    continue
                tail = rng.choice(others)
            triples.append({"head": spo["subject"], "relation": spo["predicate"], "tail": tail})
        if triples:
            out.append({"pair_id": rec["url"], "entity": triples[0]["head"], "source_url": rec["url"],
                        "triples": triples, "num_triples": len(triples)})
    return out


def rate(out) -> tuple[int, int]:
    verified = sum(t["search_status"] == "verified" for p in out.pairs for t in p["triples"])
    total = verified + sum(len(d.triples) for d in out.drops)
    return verified, total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=2)
    args = ap.parse_args()
    from benchmarks.results import emit, figure, skip

    if not DATA.is_dir():
        skip("search", f"no shared data at {DATA}")
        return
    figs = []
    tmp = Path(tempfile.mkdtemp(prefix="bench-search-"))
    docs, duie = corpus()
    stats = build_index(docs, str(tmp / "index.duckdb"))
    print(f"index: {stats.documents} documents, {stats.passages} passages in {stats.seconds:.1f}s "
          f"({stats.documents / stats.seconds:.0f} docs/s); {os.path.getsize(tmp / 'index.duckdb') / 1e6:.1f} MB")
    figs.append(figure("local index build", round(stats.documents / stats.seconds), "docs/s",
                       note=f"{stats.documents} real documents"))

    true_pairs = pairs_from(duie, args.pairs, wrong=False)
    wrong_pairs = pairs_from(duie, args.pairs, wrong=True)
    backend = LocalIndexBackend(str(tmp / "index.duckdb"))
    queries = [f"{t['head']} {t['tail']}" for p in true_pairs for t in p["triples"]]
    for threads in (1, args.concurrency):
        cfg = SearchConfig(enabled=True, backend="local", index_path=str(tmp / "index.duckdb"), max_concurrency=threads)
        started, cpu = time.perf_counter(), time.process_time()
        out = validate_pairs(true_pairs, backend, cfg)
        secs, cpu = time.perf_counter() - started, time.process_time() - cpu
        n = len(set(queries))
        print(f"local index, {threads} thread(s): {n} queries in {secs:.1f}s = {n / secs:.0f} queries/s wall, "
              f"{n / cpu:.0f} queries per CPU-second (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        figs.append(figure(f"local index queries, {threads} thread(s)", round(n / secs), "queries/s"))
    v, n = rate(out)
    print(f"true DuIE triples corroborated by another document: {v}/{n} = {v / n:.1%}")
    figs.append(figure("true DuIE triples corroborated", round(v / n, 4), "share"))
    v, n = rate(validate_pairs(wrong_pairs, backend, cfg))
    print(f"wrong triples (subject + another text's object, same predicate) verified: {v}/{n} = {v / n:.1%}")
    figs.append(figure("wrong triples verified", round(v / n, 4), "share"))

    cfg = SearchConfig(enabled=True, backend="local", index_path=str(tmp / "index.duckdb"),
                       cache_dir=str(tmp / "cache"), max_concurrency=args.concurrency)
    for run in ("first run", "rerun"):
        cached = make_backend(cfg)
        started = time.perf_counter()
        validate_pairs(true_pairs, cached, cfg)
        secs = time.perf_counter() - started
        print(f"cached backend, {run}: hits {cached.stats.hits}, misses {cached.stats.misses}, "
              f"hit rate {cached.stats.hit_rate:.1%}, {secs:.1f}s")
        if run == "rerun":
            figs.append(figure("search cache hit rate on a rerun", round(cached.stats.hit_rate, 4), "share", ">= 1"))
        cached.close()
    emit("search", figs)


if __name__ == "__main__":
    main()
