"""Throughput of the default embedder and of domain classification.

Run: python -m benchmarks.embed_domain [N]
Short names come from the labelled set's entities and relation names, so the
figure is for the strings the domain fallback and distractor generation embed.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(n: int = 5000) -> None:
    from transforms.domain import DomainClassifier, DomainConfig
    from transforms.domain_labels import load_labels
    from transforms.embed import make_embedder

    from benchmarks.results import skip

    if not (ROOT.parent / "shared" / "data").is_dir():
        skip("domain", "no shared data (the labelled set is locators into it)")
        return
    items = load_labels(ROOT / "tests" / "data" / "domain_labels.jsonl", ROOT.parent / "shared" / "data")
    names = sorted({it["entity"] for it in items} | {t["relation"] for it in items for t in it["triples"]}
                   | {t["tail"][:20] for it in items for t in it["triples"]})
    texts = [f"{names[i % len(names)]}{i}" for i in range(n)]  # distinct strings: no cache hits
    emb = make_embedder("use-m3", shared=False)
    emb.encode(texts[:64])  # load weights
    t = time.perf_counter()
    emb.encode(texts)
    dt = time.perf_counter() - t
    print(f"use-m3: {n} short strings in {dt:.2f} s = {n / dt:,.0f}/s")
    embed_rate = n / dt
    clf = DomainClassifier(DomainConfig(), embedder=make_embedder("use-m3", shared=False))
    batch = (items * (max(1, n // len(items))))[:n]
    t = time.perf_counter()
    clf.classify_batch(batch)
    dt = time.perf_counter() - t
    print(f"domain classification: {len(batch)} items in {dt:.2f} s = {len(batch) / dt:,.0f}/s")
    from benchmarks.results import emit, figure

    emit("domain", [figure("use-m3 embedding of short strings", round(embed_rate), "strings/s"),
                    figure("domain classification", round(len(batch) / dt), "items/s")])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
