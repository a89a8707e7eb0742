"""What the items tests that run `group_items` on hand-made graphs share:
their edges, the offline embedder's vectors of their strings, and one
group's items with the stage's counters."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from pipeline.items_embed import embed_all, read_vectors
from pipeline.items_stage import _Scorer
from transforms.items.config import ItemsConfig
from transforms.items.generate import group_items


def edge(pair_id, entity, relation, tail, tail_type, entity_type="person", domain="HS", split="eval"):
    """One edge as items/graph.edges_of makes it (no subtitle, in the subset)."""
    return (pair_id, entity, None, entity_type, relation, tail, tail_type, domain, split, True)


def embedded(strings: Iterable[str], folder: Path):
    """The offline embedder's vectors of `strings` (a cache and a vector file in `folder`)."""
    return read_vectors(embed_all(sorted(set(strings)), "use-m3", str(folder / "cache"),
                                  str(folder / "vectors.arrow")))


def run_group(vectors, pools, key, records, tasks=("qa",)):
    """(the items of one group, the counters the stage would add), in a wide band."""
    counts: dict[str, int] = {}
    cfg = ItemsConfig(band_low=0.0, band_high=0.99, tasks=tasks)
    items = group_items(key, records, {}, _Scorer(*vectors, pools, 0.0), cfg,
                        lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n))
    return items, counts
