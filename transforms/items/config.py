"""Typed configuration of the items stage (BuildConfig.items)."""
from __future__ import annotations

from dataclasses import dataclass

# What a T2T item's reference can be (items/t2kg.py reference_spans).
T2T_REFERENCES = ("sentences", "text")


@dataclass
class ItemsConfig:
    """What `cdtp build` does after split to turn pairs into benchmark items.

    enabled: False writes no items/ (pairs only, as before issue 8).
    seed: salts the option order and every seeded choice; the same seed gives
        byte-identical items on a rerun.
    tasks: which tasks to write (qa, kgc, t2t, t2kg).
    band_low/band_high: the semantic band. A candidate whose cosine similarity
        to the gold is above band_high is a near-synonym (a second right
        answer in disguise); below band_low it is unrelated and gives itself
        away. Numeric perturbations are exempt: they are different values by
        construction, and their strings are close on purpose.
    embedder: the Embedder spec (transforms/embed.py); `use-m3` runs offline.
    embed_cache: folder of the persistent embedding cache (Arrow files);
        empty = OUT/embed_cache. A string is embedded once, ever.
    embed_chunk_size: strings the cache lacks are embedded in chunks of about
        this many, side by side (USE: about 70 CPU-seconds a chunk here).
    pool_per_bin: candidates kept per (relation | type, frequency bin) pool.
    neighbour_limit: 1-hop names a name passes on to its neighbours (2-hop).
    one_hop_limit: the most of a group's own edges (its values; the heads that
        name it) whose names its questions draw on as 1-hop candidates, and the
        most of its neighbours whose names they draw on as 2-hop ones: a seeded
        sample beyond it (items/group_input.py). 0 = all,
        which costs the square of the group's size (a hub such as 中国).
    max_per_origin: the most distractors one origin may give an item, so an
        item mixes origins and no single generator's style is a tell.
    eval_per_query: the most QA/KGC items one query (an entity's relation
        with several values) gives the eval split; 0 = all. One question with
        another gold each time weighs one relation of one entity many times in
        the scores: a plant's 地理分布 gave 15 eval questions of one text, the
        demo's 深圳 下辖地区 8 of its 14. Which values are asked is seeded;
        train keeps them all, each a fact to learn. (A head question's query
        has one answer by rule: templates.head_askable.)
    skip_open_relations / open_min_several / open_min_shared / open_min_heads:
        the tail of an open relation is not asked as QA or KGC (items/open_relations.py),
        nor, while skip_open_relations holds, an organism's part attribute (颜色,
        形状, 物候期: open_relations.part_attribute), open by nature whatever the counts.
        A relation is open when at least open_min_heads entities hold it, at
        least open_min_several of them hold several values at once, and at
        least open_min_shared of its triples have a value another entity holds
        too: a plant's 功用价值 and 地理分布, a film's 类型, a person's 职业. Its
        cells list some of an entity's values, not all, so another entity's
        value (绿化, 陕西, 剧情, 制片人) is often right as well: 72% of the
        labelled held-out plant items had a right answer among their wrong
        ones (docs/distractor_labels.md).
    t2t_reference: what a T2T item's reference is: `sentences` (the default),
        the sentences of the pair's text that hold its input triples' support;
        `text`, the whole text, as the CDTP paper has it. A whole summary
        states far more than its kept triples, and scores a model on facts its
        input never gave (items/t2kg.py).
    ontology_min_count / ontology_max_relations: which kept relations enter a
        domain's T2KG ontology (the most frequent ones, like Text2KGBench's
        hand-picked relation lists).
    """

    enabled: bool = True
    seed: int = 0
    tasks: tuple[str, ...] = ("qa", "kgc", "t2t", "t2kg")
    band_low: float = 0.15
    band_high: float = 0.9
    embedder: str = "use-m3"
    embed_cache: str = ""
    embed_chunk_size: int = 200_000
    pool_per_bin: int = 48
    neighbour_limit: int = 24
    one_hop_limit: int = 128
    max_per_origin: int = 4
    eval_per_query: int = 2
    skip_open_relations: bool = True
    open_min_several: float = 0.2
    open_min_shared: float = 0.3
    open_min_heads: int = 20
    t2t_reference: str = "sentences"
    ontology_min_count: int = 2
    ontology_max_relations: int = 60
    num_shards: int = 0  # 0 = as the other outputs

    def __post_init__(self) -> None:
        if not 0.0 <= self.band_low < self.band_high <= 1.0:
            raise ValueError(f"need 0 <= band_low < band_high <= 1, got {self.band_low}, {self.band_high}")
        bad = sorted(set(self.tasks) - {"qa", "kgc", "t2t", "t2kg"})
        if bad:
            raise ValueError(f"unknown task(s) {bad}; known: qa, kgc, t2t, t2kg")
        if self.pool_per_bin < 1 or self.max_per_origin < 1:
            raise ValueError("pool_per_bin and max_per_origin must be >= 1")
        if self.one_hop_limit < 0:
            raise ValueError("one_hop_limit must be >= 0 (0 = every edge of the group)")
        if self.eval_per_query < 0:
            raise ValueError("eval_per_query must be >= 0 (0 = every item)")
        if not 0.0 <= self.open_min_several <= 1.0 or not 0.0 <= self.open_min_shared <= 1.0:
            raise ValueError("open_min_several and open_min_shared are shares: need 0 <= x <= 1")
        if self.open_min_heads < 1:
            raise ValueError("open_min_heads must be >= 1")
        if self.embed_chunk_size < 1:
            raise ValueError("embed_chunk_size must be >= 1")
        if self.t2t_reference not in T2T_REFERENCES:
            raise ValueError(f"t2t_reference is `sentences` or `text`, not {self.t2t_reference!r}")
        if self.num_shards < 0:  # -2 once became one shard, silently
            raise ValueError("num_shards must be >= 0 (0 = as the other outputs)")
