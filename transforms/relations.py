"""Relation-frequency filter (paper §3.2, App. B.1).

Baike infobox names are free text: the same relation appears as 出生日期,
出生时间, 出生日期： or with full-width spaces. We normalise names (surface
form, then a configurable synonym map), count them over the whole corpus
and keep only relations frequent enough to be learnable and evaluable; rare
relations' triples are removed (stage "relation_frequency", reason
"rare_relation") and a pair left with none is dropped ("no_triple_left").

The counting itself runs in the pipeline with a combiner; these functions
are the per-element logic and the selection rule.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Mapping

from transforms.pairs import with_dropped_mentions

STAGE = "relation_frequency"

_STRIP = re.compile(r"[\s\u3000:：·•\-—_]+")
_BRACKET_TAIL = re.compile(r"[（(\[【][^）)\]】]*[）)\]】]$")


@lru_cache(maxsize=1)
def default_synonyms() -> dict[str, str]:
    """The bundled synonym map (transforms/resources/relation_synonyms.json)."""
    data = json.loads(resources.files("transforms").joinpath("resources/relation_synonyms.json").read_text("utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def load_synonyms(path: str | None) -> dict[str, str]:
    """Synonym map from a JSON file {variant: canonical}; the default map when
    `path` is None. Raises ValueError with a clear message on a bad file."""
    if path is None:
        return default_synonyms()
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"cannot read relation synonyms {path}: {exc}") from exc
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"relation synonyms {path} must be a JSON object of strings")
    return {k: v for k, v in data.items() if not k.startswith("_")}


def surface_normalise(name: str) -> str:
    """NFKC, no spaces/colons/dots, no trailing bracketed note: `出生日期：` ->
    `出生日期`, `身　高` -> `身高`, `身高(cm)` -> `身高`."""
    s = unicodedata.normalize("NFKC", name or "").strip()
    s = _BRACKET_TAIL.sub("", s)
    return _STRIP.sub("", s).lower() if s.isascii() else _STRIP.sub("", s)


def normalise_relation(name: str, synonyms: Mapping[str, str] | None = None) -> str:
    """Canonical relation name: surface normalisation, then the synonym map
    (looked up with the raw and the normalised name)."""
    s = surface_normalise(name)
    syn = default_synonyms() if synonyms is None else synonyms
    return syn.get(s, syn.get(name, s)) if syn else s


@dataclass
class RelationFrequencyConfig:
    """Which relations survive. mode "and": count >= min_count AND in the top
    K; mode "or": either. With top_k None only min_count applies, with
    min_count None only top_k."""

    min_count: int | None = 5
    top_k: int | None = None
    # variant -> canonical relation name; {} switches normalisation to surface only.
    synonyms: dict[str, str] = field(default_factory=lambda: dict(default_synonyms()))
    mode: str = "and"

    def __post_init__(self) -> None:
        if self.mode not in ("and", "or"):
            raise ValueError(f"mode must be 'and' or 'or', not {self.mode!r}")
        if self.min_count is not None and self.min_count < 1:
            raise ValueError("min_count must be >= 1")
        if self.top_k is not None and self.top_k < 1:
            raise ValueError("top_k must be >= 1")


def _ranked(counts: Mapping[str, int]) -> list[tuple[str, int]]:
    """Deterministic ranking: count desc, then name (ties never depend on order)."""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def select_relations(counts: Mapping[str, int], cfg: RelationFrequencyConfig) -> frozenset[str]:
    """Relations to keep given global counts of normalised names."""
    by_count = None if cfg.min_count is None else {r for r, c in counts.items() if c >= cfg.min_count}
    by_rank = None if cfg.top_k is None else {r for r, _ in _ranked(counts)[: cfg.top_k]}
    if by_count is None and by_rank is None:
        return frozenset(counts)
    if by_count is None:
        return frozenset(by_rank)
    if by_rank is None:
        return frozenset(by_count)
    return frozenset(by_count & by_rank if cfg.mode == "and" else by_count | by_rank)


def relation_vocabulary(counts: Mapping[str, int], min_count: int = 1) -> frozenset[str]:
    """Global vocabulary of Baike relation names for the redundant-description
    check: every counted name seen at least `min_count` times (raw and
    surface-normalised forms, as text mentions are matched literally)."""
    out = set()
    for r, c in counts.items():
        if c >= min_count and r:
            out.add(r)
            out.add(surface_normalise(r))
    out.discard("")
    return frozenset(out)


def top_relations(counts: Mapping[str, int], n: int = 20) -> list[tuple[str, int]]:
    """The n most frequent relations (paper Figure 6)."""
    return _ranked(counts)[:n]


def triples_bin(n: int) -> str:
    """Paper Figure 7 category of a pair with n triples: 1-1, 1-2, 1-3, 1-3+."""
    if n <= 1:
        return "1-1"
    if n == 2:
        return "1-2"
    if n == 3:
        return "1-3"
    return "1-3+"


def pair_relations(pair: dict, synonyms: Mapping[str, str] | None = None) -> list[str]:
    """Normalised relation of every triple of a pair (what the pipeline counts)."""
    return [normalise_relation(t["relation"], synonyms) for t in pair.get("triples") or []]


def apply_relation_filter(pair: dict, kept_relations: frozenset[str],
                          synonyms: Mapping[str, str] | None = None) -> tuple[dict | None, list[tuple[dict, str, str]]]:
    """Remove triples of rare relations; renames kept triples' relations to
    their normalised form. Returns (pair or None, dropped triples with
    reason and detail). When no triple is left the pair is None and its
    triples are reported with reason "rare_relation" (the caller writes the
    entry row with reason "no_triple_left")."""
    kept, dropped = [], []
    for t in pair.get("triples") or []:
        norm = normalise_relation(t["relation"], synonyms)
        if norm in kept_relations:
            kept.append(t if norm == t["relation"] else {**t, "relation": norm})
        else:
            dropped.append((t, "rare_relation", json.dumps({"relation": t["relation"], "normalised": norm},
                                                            ensure_ascii=False)))
    if not kept:
        return None, dropped
    kept_pair = {**pair, "triples": kept, "num_triples": len(kept)}
    return with_dropped_mentions(kept_pair, [t for t, _, _ in dropped]), dropped
