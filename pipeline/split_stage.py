"""Beam stage ``split``: train/eval split and stratified subset (paper §4.1).

The logic is in transforms/split.py; this module only wires it into Beam so
that no step needs a global shuffle or depends on bundling:

1. ``RelationCounts``: global triple count per relation, a combiner turned
   into one dict side input, from which the head/torso/tail bins are derived.
2. ``SplitAndKey``: split from the seeded hash of the pair's entity group
   (transforms/split.py ``split_group``), then the
   stratum key and the rank hash (per element, with the bins side input).
3. ``StratumCounts``: pairs per joint stratum (combiner), then ``Allocate``
   (largest remainder with marginal repair) on that single small dict.
4. ``SmallestRanks``: ``Top.SmallestPerKey(N)`` of the rank hash per stratum;
   with the allocation this gives each stratum's threshold rank.
5. ``MarkSubset``: ``in_subset = rank <= threshold of its stratum``.

Every combiner is order-insensitive and every tie is broken by a total order,
so the output is identical across reruns, runners and worker counts. The stage
drops nothing (its audit output is empty); its ``stats`` output holds one dict
(sizes, per-domain split, marginals and the subset distance per variable).
"""
from __future__ import annotations

from typing import Any

import apache_beam as beam

from pipeline.batch import items_of
from pipeline.cleaning import CountNames
from pipeline.spill import ReadSpilled, SpillToFiles

from transforms.split import (
    SplitConfig,
    allocate,
    assign_pair_split,
    group_hash,
    group_stats,
    in_subset,
    pair_relations,
    rank_key,
    relation_freq_bins,
    split_stats,
    stratum_key,
    stratum_thresholds,
)

STAGE = "split"
# The stats output is written here by the build and merged into stats.json as "split".
SPLIT_STATS_FILE = "_split_stats.json"


def _stratum_of(element) -> tuple:
    """(stratum, rank, pair) -> the stratum, counted once per pair."""
    return (element[0],)


def _keyed(pair: dict[str, Any], relinfo: tuple[dict, dict], cfg: SplitConfig):
    """Set the split, then key the pair by stratum and rank (one pass over the pairs)."""
    counts, bins = relinfo
    out = dict(pair)
    out["split"] = assign_pair_split(out, cfg.seed, cfg.eval_fraction)
    return (stratum_key(out, counts, bins, cfg.bins), rank_key(out["pair_id"], cfg.seed), out)


def _keyed_from_json(element) -> tuple:
    """A spilled (stratum, rank, pair) back with its tuples (JSON has lists only)."""
    key, rank, pair = element
    return tuple(key), tuple(rank), pair


def _mark(element, thresholds: dict) -> dict[str, Any]:
    key, rank, pair = element
    out = dict(pair)
    out["in_subset"] = in_subset(rank, thresholds.get(key))
    return out


def _flat(side: list):
    """A side of an EntityGroups accumulator (ints and arrays) as one uint64 array."""
    import numpy as np

    parts = [np.asarray(x, dtype=np.uint64).reshape(-1) for x in side]
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.uint64)


class EntityGroups(beam.CombineFn):
    """(stratum, rank, pair) -> group_stats: one 64-bit group hash per pair and side.

    The hashes are kept as numpy arrays (8 bytes a pair), merged by concatenation.
    """

    def create_accumulator(self):
        return ([], [])

    def add_input(self, acc, element):
        pair = element[2]
        acc[0 if pair["split"] == "train" else 1].append(group_hash(pair))
        return acc

    def merge_accumulators(self, accs):
        accs = list(accs)
        return ([_flat([x for a in accs for x in a[0]])], [_flat([x for a in accs for x in a[1]])])

    def compact(self, acc):
        return ([_flat(acc[0])], [_flat(acc[1])])

    def extract_output(self, acc):
        return group_stats(_flat(acc[0]), _flat(acc[1]))


def _threshold(kv, alloc: dict):
    key, ranks = kv
    return next(iter(stratum_thresholds({key: [tuple(r) for r in ranks]}, alloc).items()))


class SplitAndSample(beam.PTransform):
    """pairs -> {"pairs": pairs with split and in_subset, "audit": (empty), "stats": [one dict]}."""

    def __init__(self, cfg: SplitConfig | None = None, label: str | None = None, spill_dir: str | None = None):
        super().__init__(label)
        self.cfg = cfg or SplitConfig()
        # Where pairs wait for the relation bins and the subset thresholds (None: in the runner).
        self.spill_dir = spill_dir

    def default_label(self) -> str:
        return "SplitAndSample"

    def expand(self, pairs):
        cfg = self.cfg
        # Strata and ranks are per pair: take the upstream batches apart (pipeline/batch.py).
        pairs = pairs | "Unbatch" >> beam.FlatMap(items_of)
        # Relation counts do not depend on the split: one combiner over the input pairs.
        relinfo = (
            pairs
            | "RelationCounts" >> beam.CombineGlobally(CountNames(pair_relations))
            | "RelationBins" >> beam.Map(lambda counts: (counts, relation_freq_bins(counts, cfg.bins)))
        )
        waiting = pairs
        if self.spill_dir:
            waiting = pairs | "SpillPairs" >> SpillToFiles(self.spill_dir, "split") | "ReadPairs" >> ReadSpilled()
        keyed = waiting | "SplitAndKey" >> beam.Map(_keyed, beam.pvalue.AsSingleton(relinfo), cfg)
        counts = keyed | "StratumCounts" >> beam.CombineGlobally(CountNames(_stratum_of))
        alloc = counts | "Allocate" >> beam.Map(allocate, cfg.subset_size)

        if cfg.subset_size > 0:
            thresholds = (
                keyed
                | "RankOf" >> beam.Map(lambda e: (e[0], e[1]))
                | "SmallestRanks" >> beam.combiners.Top.SmallestPerKey(cfg.subset_size)
                | "Threshold" >> beam.Map(_threshold, beam.pvalue.AsSingleton(alloc))
                | "ThresholdDict" >> beam.combiners.ToDict()
            )
        else:
            thresholds = counts | "NoThresholds" >> beam.Map(lambda _: {})
        if self.spill_dir:
            keyed = keyed | "SpillKeyed" >> SpillToFiles(self.spill_dir, "subset") | "ReadKeyed" >> ReadSpilled(_keyed_from_json)
        marked = keyed | "MarkSubset" >> beam.Map(_mark, beam.pvalue.AsSingleton(thresholds))

        groups = keyed | "EntityGroups" >> beam.CombineGlobally(EntityGroups())
        stats = counts | "SplitStats" >> beam.Map(
            lambda c, a, g: split_stats(c, a, cfg, g), beam.pvalue.AsSingleton(alloc), beam.pvalue.AsSingleton(groups)
        )
        audit = pairs.pipeline | "NoAudit" >> beam.Create([])
        return {"pairs": marked, "audit": audit, "stats": stats}
