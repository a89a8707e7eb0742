"""Search co-occurrence validation of whole pairs (paper §3.2), Beam-free.

validate_pairs() takes a batch of pair dicts (PAIR_SCHEMA-shaped, triples with
TRIPLE_STRUCT keys), runs every distinct "head tail" query once through the
backend (bounded concurrency), and returns the surviving pairs plus what it
dropped and why (pipeline/search_stage.py turns that into audit rows):
  * not co-occurring in any top-k result other than the source page -> the
    triple is dropped, reason "no_cooccurrence";
  * the search failed -> the triple is "unverified" with the failure reason;
    unverified_policy "keep" keeps it (search_status="unverified",
    search_evidence=<reason>), "drop" drops it with reason "search_unverified";
  * a pair left without triples is dropped, reason "no_triple_left" (its
    triples already have their own rows).
Kept triples get search_status "verified" (search_evidence = evidence URL).
"""
from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Iterable

from transforms.pairs import with_dropped_mentions
from transforms.search.cooccur import (
    NOT_COOCCURRING,
    UNVERIFIED,
    VERIFIED,
    Decision,
    build_query,
    cache_key_query,
    decide,
    failed,
)
from transforms.search.types import SearchBackend, SearchConfig, SearchFailure, SearchResult

STAGE = "search_validation"


def make_backend(cfg: SearchConfig, index_path: str | None = None) -> SearchBackend:
    """The configured backend, wrapped in the on-disk cache when cfg.cache_dir is set.
    `index_path` overrides cfg.index_path (the Beam stage passes a local copy)."""
    if cfg.backend == "local":
        from transforms.search.local_index import LocalIndexBackend

        backend: SearchBackend = LocalIndexBackend(index_path or cfg.index_path or "")
    elif cfg.backend == "searxng":
        from transforms.search.searxng import SearxngBackend

        backend = SearxngBackend(
            cfg.searxng_url or "",
            timeout=cfg.timeout,
            retries=cfg.retries,
            backoff=cfg.backoff,
            max_backoff=cfg.max_backoff,
            max_concurrency=cfg.max_concurrency,
            extra_params=cfg.extra_params,
        )
    else:
        raise ValueError(f"unknown search backend {cfg.backend!r}")
    if cfg.cache_dir:
        from transforms.search.cache import CachedBackend, SearchCache

        return CachedBackend(backend, SearchCache(cfg.cache_dir))
    return backend


def search_all(
    backend: SearchBackend, queries: Iterable[str], k: int, max_concurrency: int
) -> dict[str, list[SearchResult] | SearchFailure]:
    """Run each distinct query once; map normalised query -> results or the failure."""
    distinct = sorted({cache_key_query(q) for q in queries})

    def one(q: str) -> list[SearchResult] | SearchFailure:
        if not q:
            return SearchFailure("empty_query")
        try:
            return backend.search(q, k)
        except SearchFailure as exc:
            return exc
        except Exception as exc:  # a backend bug must not lose the triple: unverified, with the cause
            return SearchFailure("backend_error", f"{exc.__class__.__name__}: {exc}")

    if max_concurrency <= 1 or len(distinct) <= 1:
        return {q: one(q) for q in distinct}
    with ThreadPoolExecutor(max_workers=max_concurrency) as pool:
        return dict(zip(distinct, pool.map(one, distinct)))


@dataclass
class PairDrops:
    """What the stage removed from one pair. `pair` and the triple dicts are
    the ORIGINAL objects (audit ids depend on a triple's position in its pair);
    `pair_reason` is set when the whole pair goes."""

    pair: dict[str, Any]
    triples: list[tuple[dict[str, Any], str, dict[str, Any]]] = field(default_factory=list)
    pair_reason: str | None = None
    pair_detail: dict[str, Any] | None = None


@dataclass
class ValidationOutput:
    pairs: list[dict[str, Any]] = field(default_factory=list)
    drops: list[PairDrops] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)  # triples_verified, triples_unverified_kept, ...


def decide_triple(pair: dict[str, Any], triple: dict[str, Any], answers: dict, k: int) -> tuple[str, Decision]:
    query = build_query(triple.get("head"), triple.get("tail"))
    answer = answers.get(cache_key_query(query), SearchFailure("empty_query"))
    if isinstance(answer, SearchFailure):
        return query, failed(answer.reason)
    return query, decide(triple.get("head"), triple.get("tail"), answer[:k], pair.get("source_url"))


def validate_pairs(pairs: list[dict[str, Any]], backend: SearchBackend, cfg: SearchConfig) -> ValidationOutput:
    out = ValidationOutput()
    queries = [build_query(t.get("head"), t.get("tail")) for p in pairs for t in (p.get("triples") or [])]
    answers = search_all(backend, queries, cfg.top_k, cfg.max_concurrency)
    for pair in pairs:
        triples = pair.get("triples") or []
        kept: list[dict[str, Any]] = []
        drops = PairDrops(pair)
        for triple in triples:
            query, d = decide_triple(pair, triple, answers, cfg.top_k)
            if d.status == VERIFIED:
                kept.append({**triple, "search_status": VERIFIED, "search_evidence": d.evidence_url})
                out.counts["triples_verified"] += 1
            elif d.status == NOT_COOCCURRING:
                detail = {"query": query, "results_checked": d.checked, "source_page_only": d.source_page_only}
                drops.triples.append((triple, "no_cooccurrence", detail))
                out.counts["triples_not_cooccurring"] += 1
            elif cfg.unverified_policy == "keep":
                kept.append({**triple, "search_status": UNVERIFIED, "search_evidence": d.reason})
                out.counts["triples_unverified_kept"] += 1
                out.counts[f"unverified_{d.reason}"] += 1
            else:
                drops.triples.append((triple, "search_unverified", {"query": query, "failure": d.reason}))
                out.counts["triples_unverified_dropped"] += 1
                out.counts[f"unverified_{d.reason}"] += 1
        if not kept:
            drops.pair_reason = "no_triple_left"
            drops.pair_detail = {"triples_in": len(triples), "dropped_here": len(drops.triples)}
            out.counts["pairs_dropped"] += 1
        else:
            out.pairs.append(with_dropped_mentions({**pair, "triples": kept, "num_triples": len(kept)},
                                                   [t for t, _, _ in drops.triples]))
            out.counts["pairs_kept"] += 1
        if drops.triples or drops.pair_reason:
            out.drops.append(drops)
    return out
