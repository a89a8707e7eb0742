"""Offline baselines: floors every real model must beat, runnable anywhere.

They score multiple-choice options through `loglikelihood` (higher = better),
so the runner ranks them exactly as it ranks a real model's log-likelihoods:
  random         a seeded pseudo-random score per (item, option): reruns agree
  most-frequent  how often the option string is the gold answer among the
                 train items of the same task (ties: option order)
  embed          cosine similarity between the question and the option
                 (the embedder of transforms/embed.py)
Generation is the same for every baseline: for T2T the template read-out
(each triple becomes "头实体的关系是尾实体。"); for T2KG an empty answer, since
none of them reads the sentence, which gives Text2KGBench's floor (P/R/F1 0,
OC 1). The `template` spec ranks multiple-choice options like `random`.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any, Sequence

from evaluation.backends import Generation
from pipeline.errors import CdtpError


def template_text(triples: Sequence[dict] | None) -> str:
    """T2T template: the triples read out with their relation names, one clause each."""
    parts = []
    for tr in triples or []:
        head, rel, tail = (tr.get("head") or "", tr.get("relation") or "", tr.get("tail") or "")
        if head and rel and tail:
            parts.append(f"{head}的{rel}是{tail}。")
    return "".join(parts)


class Baseline:
    supports_loglikelihood = True

    def __init__(self, spec: str) -> None:
        self.spec = spec

    def fit(self, train_items: Sequence[dict[str, Any]]) -> None:
        """Baselines that learn from the train split override this."""

    def generate(self, prompts: Sequence[str]) -> list[Generation]:
        out = []
        for p in prompts:
            item = getattr(p, "item", None) or {}
            text = template_text(item.get("triples")) if item.get("task") == "t2t" else ""
            out.append(Generation(text=text))
        return out

    def loglikelihood(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class RandomBaseline(Baseline):
    def __init__(self, spec: str, seed: str = "0") -> None:
        super().__init__(spec)
        self.seed = seed

    def loglikelihood(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        item = getattr(prompt, "item", None) or {}
        key = item.get("item_id") or str(prompt)
        scores = []
        for c in continuations:
            h = hashlib.blake2b(f"{self.seed}\x00{key}\x00{c}".encode(), digest_size=8).digest()
            scores.append(int.from_bytes(h, "big") / 2**64)
        return scores


class MostFrequentBaseline(Baseline):
    def __init__(self, spec: str) -> None:
        super().__init__(spec)
        self.counts: dict[str, Counter] = {}

    def fit(self, train_items: Sequence[dict[str, Any]]) -> None:
        for it in train_items:
            if it.get("answer"):
                self.counts.setdefault(it.get("task") or "", Counter())[it["answer"]] += 1

    def loglikelihood(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        item = getattr(prompt, "item", None) or {}
        counts = self.counts.get(item.get("task") or "", Counter())
        n = len(continuations)
        # Frequency first; earlier options win ties (a fixed, documented order).
        return [counts[c] + (n - i) / (n + 1) / 1e6 for i, c in enumerate(continuations)]


class EmbeddingBaseline(Baseline):
    def __init__(self, spec: str, embedder_spec: str = "") -> None:
        super().__init__(spec)
        from transforms.embed import EmbedderError, make_embedder

        try:
            self.embedder = make_embedder(embedder_spec or None)
        except EmbedderError as exc:
            raise CdtpError(str(exc)) from None

    def prime(self, requests: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Encode every question and option up front in large batches (the
        embedder caches them): one batched pass instead of two small calls per item."""
        texts: dict[str, None] = {}
        for prompt, continuations in requests:
            item = getattr(prompt, "item", None) or {}
            texts[item.get("question") or str(prompt)] = None
            texts.update(dict.fromkeys(continuations))
        todo = list(texts)
        for start in range(0, len(todo), 20_000):  # stays inside the embedder's cache
            self.embedder.encode(todo[start : start + 20_000])

    def loglikelihood(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        item = getattr(prompt, "item", None) or {}
        query = item.get("question") or str(prompt)
        sims = self.embedder.similarity([query], list(continuations))[0]
        return [float(s) for s in sims]


def make_baseline(kind: str, arg: str, *, spec: str, **_: Any) -> Baseline:
    if kind == "random":
        return RandomBaseline(spec, seed=arg or "0")
    if kind == "most-frequent":
        return MostFrequentBaseline(spec)
    if kind == "embed":
        return EmbeddingBaseline(spec, arg)
    if kind == "template":
        return RandomBaseline(spec, seed=arg or "0")  # its options are ranked at random
    raise CdtpError(f"unknown baseline {kind!r}")
