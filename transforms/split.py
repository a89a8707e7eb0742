"""Reproducible train/eval split and stratified subset (paper §4.1).

Everything here is pure Python so the Beam wrapper (pipeline/split_stage.py)
only moves data around. Three ideas make the result identical across reruns,
runners and worker counts:

* **Split by hash of the entity, not by shuffle.** A pair is in ``eval`` when
  the seeded 64-bit BLAKE2b hash of its *split group* falls below
  ``eval_fraction``. The group is the normalised entity name (NFKC, case,
  spaces: ``split_group``), so all pairs of one entity fall on one side: the
  senses of a polysemous title (苹果 the fruit, 苹果 the company) and copies of
  one entry under other lemma ids. Otherwise eval would test what train has
  just taught about the same name. A pair's split depends on nothing but its
  own entity and the seed, so no worker needs a global view, adding pairs
  never moves existing ones, and every domain is split 80/20 (in expectation;
  the realised fraction per domain is reported in the split stats, with the
  number of groups and a check that no group straddles the split).
* **Allocate over joint strata.** The subset of N pairs is allocated over the
  joint strata (split, domain, entity type, predicate-frequency bin,
  text-length bin) proportionally: each stratum gets the floor or the ceiling
  of its quota ``N * count / total``, and the leftover units go by largest
  remainder. With many tiny cells plain largest remainder starves rare
  categories (every cell of a rare text-length bin may have a quota below the
  cut-off and get nothing), so the leftover units are handed out one at a time
  to the stratum whose *marginal* categories are furthest below their target,
  the fractional remainder breaking ties. When the marginals are balanced this
  is exactly largest remainder; when they are not it repairs them, and the
  distance of every stratification variable stays within a few units of N.
* **Choose by hash rank.** Inside a stratum the pairs with the smallest seeded
  hash rank (a second hash, independent of the split hash) are taken, which is
  what ``Top.SmallestPerKey`` computes in Beam. Because ``split`` is part of the
  stratum key the subset keeps the full set's 80/20 split.

The distance between the full set and the subset is the maximum absolute
difference of proportions per stratification variable; it depends only on the
allocation (every pair of a stratum shares all variables), so it is computed
from the stratum counts and the allocation.
"""
from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

TRAIN = "train"
EVAL = "eval"
UNKNOWN = "unknown"

# Order of the fields in a stratum key (a tuple of strings).
STRATUM_FIELDS = ("split", "domain", "entity_type", "freq_bin", "length_bin")
# The variables whose distance the paper's stratification promises (split is
# balanced too, and reported, but it is not a "distribution" of the data).
STRATIFICATION_VARIABLES = ("domain", "entity_type", "freq_bin", "length_bin")


@dataclass(frozen=True)
class SplitBins:
    """Cut points of the two derived stratification variables.

    freq_mass_cuts: relations are ranked by their global triple count (ties by
        name); a relation is ``head`` while the cumulative share of triples
        *before* it is below the first cut (the most frequent relations that
        together carry the first 50% of triples), ``torso`` below the second
        cut (the next 30%), and ``tail`` for the rest (the last 20%). Shares
        rather than absolute counts keep the bins meaningful from a 1k-pair
        demo to a 1M-pair build. A pair's bin is the bin of the median
        (``median_low``) global count of its triples' relations, so one rare
        relation does not move a pair dominated by common ones.
    length_cuts: text length in characters; bins are ``<64``, ``64-127``,
        ``128-255``, ``256-511`` and ``>=512`` with the default cuts, which
        spread Baike summaries (a sentence to a few paragraphs) over all bins.
    """

    freq_mass_cuts: tuple[float, float] = (0.5, 0.8)
    length_cuts: tuple[int, ...] = (64, 128, 256, 512)

    def __post_init__(self) -> None:
        lo, hi = self.freq_mass_cuts
        if not 0.0 < lo < hi <= 1.0:
            raise ValueError(f"freq_mass_cuts must satisfy 0 < a < b <= 1, got {self.freq_mass_cuts}")
        cuts = tuple(self.length_cuts)
        if not cuts or any(c <= 0 for c in cuts) or list(cuts) != sorted(set(cuts)):
            raise ValueError(f"length_cuts must be positive and strictly increasing, got {cuts}")


@dataclass(frozen=True)
class SplitConfig:
    """Configuration of the split stage (``cdtp build --seed/--subset-size/--no-split``).

    enabled: False leaves ``split`` and ``in_subset`` null (the stage is skipped).
    seed: salts both hashes; a different seed gives a different, equally
        reproducible split and subset.
    eval_fraction: share of each domain that goes to ``eval`` (paper: 20%).
    subset_size: N of the stratified subset (paper: 10,000). N >= the number
        of pairs puts every pair in the subset.
    """

    enabled: bool = True
    seed: int = 0
    eval_fraction: float = 0.2
    subset_size: int = 10_000
    bins: SplitBins = field(default_factory=SplitBins)

    def __post_init__(self) -> None:
        if not 0.0 <= self.eval_fraction < 1.0:
            raise ValueError(f"eval_fraction must be in [0, 1), got {self.eval_fraction}")
        if self.subset_size < 0:
            raise ValueError(f"subset_size must be >= 0, got {self.subset_size}")


# --------------------------------------------------------------------- hashing

def stable_hash(seed: int, purpose: str, key: str) -> int:
    """A 64-bit hash that is the same in every process (unlike ``hash()``).

    ``purpose`` keeps the split hash and the rank hash independent: otherwise
    the subset would take the lowest-hash pairs, which are exactly the eval
    pairs, and skew the subset towards eval inside mixed strata.
    """
    digest = hashlib.blake2b(
        f"{seed}\x1f{purpose}\x1f{key}".encode("utf-8"), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big")


_TWO_64 = float(1 << 64)


def assign_split(group: str, seed: int, eval_fraction: float) -> str:
    """``eval`` when the seeded hash of the group key lies in the first eval_fraction of the range."""
    return EVAL if stable_hash(seed, "split", group) / _TWO_64 < eval_fraction else TRAIN


def split_group(pair: Mapping[str, Any]) -> str:
    """The unit of the split: the entity name, NFKC-normalised, case-folded, without spaces.

    Subtitles (义项) are left out on purpose: two senses of one title must
    share a side. A pair without an entity is a group of its own (its pair_id).
    """
    name = "".join(unicodedata.normalize("NFKC", pair.get("entity") or "").casefold().split())
    return f"entity\x1f{name}" if name else f"pair\x1f{pair['pair_id']}"


def assign_pair_split(pair: Mapping[str, Any], seed: int, eval_fraction: float) -> str:
    """The split of a pair: that of its group (see split_group)."""
    return assign_split(split_group(pair), seed, eval_fraction)


def rank_key(pair_id: str, seed: int) -> tuple[int, str]:
    """The within-stratum rank: smaller is chosen first; pair_id breaks (astronomically rare) ties."""
    return (stable_hash(seed, "rank", pair_id), pair_id)


# ------------------------------------------------------------ stratum variables

def relation_counts(pairs: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """Global triple count per relation (the input of the frequency bins)."""
    counts: dict[str, int] = {}
    for pair in pairs:
        for rel in pair_relations(pair):
            counts[rel] = counts.get(rel, 0) + 1
    return counts


def pair_relations(pair: Mapping[str, Any]) -> list[str]:
    return [t["relation"] for t in (pair.get("triples") or []) if t.get("relation")]


def relation_freq_bins(counts: Mapping[str, int], bins: SplitBins) -> dict[str, str]:
    """Map each relation to head/torso/tail by cumulative triple mass (see SplitBins)."""
    total = sum(counts.values())
    out: dict[str, str] = {}
    if total <= 0:
        return out
    lo, hi = bins.freq_mass_cuts
    before = 0
    for rel, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        share = before / total
        out[rel] = "head" if share < lo else ("torso" if share < hi else "tail")
        before += n
    return out


_BIN_ORDER = {"head": 0, "torso": 1, "tail": 2}


def pair_freq_bin(pair: Mapping[str, Any], counts: Mapping[str, int], rel_bins: Mapping[str, str]) -> str:
    """Bin of the median (low) global count among the pair's relations; ``none`` without triples."""
    rels = pair_relations(pair)
    if not rels:
        return "none"
    # Sort by (count, bin order) so median_low picks a relation whose bin is consistent
    # with its count even when equal counts straddle a cut.
    ranked = sorted(rels, key=lambda r: (counts.get(r, 0), -_BIN_ORDER.get(rel_bins.get(r, "tail"), 2), r))
    median_rel = ranked[(len(ranked) - 1) // 2]
    return rel_bins.get(median_rel, "tail")


def length_bin(text_length: int, bins: SplitBins) -> str:
    cuts = bins.length_cuts
    if text_length < cuts[0]:
        return f"<{cuts[0]}"
    for lo, hi in zip(cuts, cuts[1:]):
        if text_length < hi:
            return f"{lo}-{hi - 1}"
    return f">={cuts[-1]}"


def pair_text_length(pair: Mapping[str, Any]) -> int:
    n = pair.get("text_length")
    if n is None:
        n = len(pair.get("text") or "")
    return int(n)


def stratum_key(
    pair: Mapping[str, Any],
    counts: Mapping[str, int],
    rel_bins: Mapping[str, str],
    bins: SplitBins,
) -> tuple[str, str, str, str, str]:
    """(split, domain, entity_type, freq_bin, length_bin); null domain/type become ``unknown``."""
    return (
        pair.get("split") or UNKNOWN,
        pair.get("domain") or UNKNOWN,
        pair.get("entity_type") or UNKNOWN,
        pair_freq_bin(pair, counts, rel_bins),
        length_bin(pair_text_length(pair), bins),
    )


# ------------------------------------------------------------------ allocation

def allocate(counts: Mapping[tuple, int], n: int) -> dict[tuple, int]:
    """Allocate ``n`` subset slots over strata proportionally (see module docstring).

    Returns {stratum: slots}; each stratum receives floor(q) or ceil(q) of its
    quota q = n * count / total, the slots sum to min(n, total), and strata
    with zero slots are included with 0. Deterministic: ties are broken by the
    stratum key's sort order.
    """
    import numpy as np

    keys = sorted(k for k, c in counts.items() if c > 0)
    total = sum(counts[k] for k in keys)
    if n >= total:
        return {k: counts[k] for k in keys}
    if n <= 0 or not keys:
        return {k: 0 for k in keys}

    cnt = np.array([counts[k] for k in keys], dtype=np.float64)
    quota = cnt * (n / total)
    alloc = np.floor(quota).astype(np.int64)
    frac = quota - alloc
    left = n - int(alloc.sum())

    # Marginal bookkeeping: for each variable, the index of each stratum's
    # category, the target (real) and the current allocation per category.
    width = len(keys[0])
    cat_idx: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    current: list[np.ndarray] = []
    for v in range(width):
        cats = sorted({k[v] for k in keys})
        pos = {c: i for i, c in enumerate(cats)}
        idx = np.array([pos[k[v]] for k in keys], dtype=np.int64)
        cat_idx.append(idx)
        targets.append(np.bincount(idx, weights=quota, minlength=len(cats)))
        current.append(np.bincount(idx, weights=alloc, minlength=len(cats)).astype(np.float64))

    open_ = frac > 1e-12  # strata that may still take their ceiling
    order_tiebreak = -np.arange(len(keys), dtype=np.float64) * 1e-12  # earlier key wins exact ties
    for _ in range(left):
        deficit = np.zeros(len(keys))
        for v in range(width):
            deficit += (targets[v] - current[v])[cat_idx[v]]
        # Deficits are in slots; the fractional remainder (< 1) only breaks
        # near-ties, which is plain largest remainder when marginals are even.
        score = deficit + 1e-3 * frac + order_tiebreak
        score[~open_] = -np.inf
        j = int(np.argmax(score))
        if not open_[j]:  # pragma: no cover - sum of fractions == left, so never empty
            break
        alloc[j] += 1
        open_[j] = False
        for v in range(width):
            current[v][cat_idx[v][j]] += 1
    return {k: int(a) for k, a in zip(keys, alloc)}


def subset_distances(
    counts: Mapping[tuple, int],
    alloc: Mapping[tuple, int],
    fields: Sequence[str] = STRATUM_FIELDS,
) -> dict[str, float | None]:
    """Max absolute difference of proportions, full set vs subset, per variable.

    None when there is no subset (N = 0 with pairs): no distribution to compare.
    """
    total = sum(counts.values())
    chosen = sum(alloc.values())
    out: dict[str, float] = {}
    for v, name in enumerate(fields):
        full: dict[str, int] = {}
        sub: dict[str, int] = {}
        for k, c in counts.items():
            full[k[v]] = full.get(k[v], 0) + c
            sub[k[v]] = sub.get(k[v], 0) + alloc.get(k, 0)
        if total == 0 or chosen == 0:
            out[name] = 0.0 if total == chosen else None
            continue
        out[name] = max(abs(full[c] / total - sub[c] / chosen) for c in full)
    return out


def marginals(counts: Mapping[tuple, int], fields: Sequence[str] = STRATUM_FIELDS) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {name: {} for name in fields}
    for k, c in counts.items():
        for v, name in enumerate(fields):
            out[name][k[v]] = out[name].get(k[v], 0) + c
    return {name: dict(sorted(m.items())) for name, m in out.items()}


def group_hash(pair: Mapping[str, Any]) -> int:
    """64-bit hash of the pair's split group (a compact record for group_stats)."""
    return stable_hash(0, "group", split_group(pair))


def group_stats(train_groups: Sequence[int], eval_groups: Sequence[int]) -> dict[str, int]:
    """How the pairs fall into entity groups, from one group hash per pair and side.

    ``groups_on_both_sides`` checks the grouping itself: it must be 0.
    """
    import numpy as np

    tr = np.asarray(train_groups, dtype=np.uint64)
    ev = np.asarray(eval_groups, dtype=np.uint64)
    groups, sizes = np.unique(np.concatenate([tr, ev]), return_counts=True)
    both = np.intersect1d(np.unique(tr), np.unique(ev), assume_unique=True)
    return {
        "groups": int(len(groups)),
        "multi_pair_groups": int((sizes > 1).sum()),
        "pairs_in_multi_pair_groups": int(sizes[sizes > 1].sum()),
        "groups_on_both_sides": int(len(both)),
    }


def split_stats(
    counts: Mapping[tuple, int],
    alloc: Mapping[tuple, int],
    cfg: SplitConfig,
    groups: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The stats block the build writes: sizes, per-domain split, entity groups, marginals and distances."""
    per_domain: dict[str, dict[str, int]] = {}
    for k, c in counts.items():
        d = per_domain.setdefault(k[1], {TRAIN: 0, EVAL: 0})
        d[k[0]] = d.get(k[0], 0) + c
    distances = subset_distances(counts, alloc)
    return {
        "seed": cfg.seed,
        "eval_fraction": cfg.eval_fraction,
        "subset_size_requested": cfg.subset_size,
        "pairs": sum(counts.values()),
        "subset_pairs": sum(alloc.values()),
        "strata": sum(1 for c in counts.values() if c > 0),
        "grouped_by": "entity",
        "entity_groups": dict(groups or {}),
        "per_domain_split": {
            d: {**v, "eval_share": round(v.get(EVAL, 0) / max(1, sum(v.values())), 4)}
            for d, v in sorted(per_domain.items())
        },
        "bins": {
            "freq_mass_cuts": list(cfg.bins.freq_mass_cuts),
            "length_cuts": list(cfg.bins.length_cuts),
        },
        "full_marginals": marginals(counts),
        "subset_marginals": marginals(alloc),
        "subset_distance": {k: (None if v is None else round(v, 6)) for k, v in distances.items()},
        "subset_distance_max": (
            None if any(distances[v] is None for v in STRATIFICATION_VARIABLES)
            else round(max((distances[v] for v in STRATIFICATION_VARIABLES), default=0.0), 6)
        ),
    }


def stratum_thresholds(
    ranked: Mapping[tuple, Sequence[tuple[int, str]]],
    alloc: Mapping[tuple, int],
) -> dict[tuple, tuple[int, str] | None]:
    """For each stratum, the largest rank key still inside the subset (None: none chosen).

    ``ranked`` holds each stratum's smallest rank keys in ascending order (at
    least ``alloc[stratum]`` of them, as Top.SmallestPerKey(N) provides).
    """
    out: dict[tuple, tuple[int, str] | None] = {}
    for key, ranks in ranked.items():
        k = alloc.get(key, 0)
        out[key] = tuple(sorted(ranks)[k - 1]) if k > 0 else None
    return out


def in_subset(rank: tuple[int, str], threshold: tuple[int, str] | None) -> bool:
    return threshold is not None and tuple(rank) <= tuple(threshold)


# --------------------------------------------------------- whole-list version

def split_and_sample(pairs: Sequence[Mapping[str, Any]], cfg: SplitConfig) -> tuple[list[dict], dict[str, Any]]:
    """In-memory reference implementation of SplitAndSample (tests, small builds).

    Returns new pair dicts with ``split`` and ``in_subset`` set, and the stats.
    """
    out = [dict(p) for p in pairs]
    for p in out:
        p["split"] = assign_pair_split(p, cfg.seed, cfg.eval_fraction)
    rel_counts = relation_counts(out)
    rel_bins = relation_freq_bins(rel_counts, cfg.bins)
    keys = [stratum_key(p, rel_counts, rel_bins, cfg.bins) for p in out]
    counts: dict[tuple, int] = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    alloc = allocate(counts, cfg.subset_size)
    by_stratum: dict[tuple, list[tuple[int, str]]] = {}
    ranks = [rank_key(p["pair_id"], cfg.seed) for p in out]
    for k, r in zip(keys, ranks):
        by_stratum.setdefault(k, []).append(r)
    thresholds = stratum_thresholds(by_stratum, alloc)
    for p, k, r in zip(out, keys, ranks):
        p["in_subset"] = in_subset(r, thresholds.get(k))
    groups = group_stats([group_hash(p) for p in out if p["split"] == TRAIN],
                         [group_hash(p) for p in out if p["split"] == EVAL])
    return out, split_stats(counts, alloc, cfg, groups)

