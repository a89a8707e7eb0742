"""Beam stage ``items``: benchmark items from split pairs (issue 8).

One composite PTransform per step, all under ``BuildItems``:

  ExtractEdges      pairs -> one edge per kept triple (a tuple; transforms/items/graph.py)
  EmbedStrings      distinct strings -> one vector file (each string embedded once; items_embed.py)
  Neighbourhood     edges grouped by normalised name -> a summary per name sent to its
                    neighbours, and the candidate pools (Top per (relation|type, bin))
  OpenRelations     pairs -> the relations whose wrong answers the graph cannot vouch for
                    (counted per relation and value, then per relation; items/open_relations.py)
  AskQuestions      edges + neighbour summaries + the name's page texts grouped by name ->
                    QA/KGC items with nine distractors (faiss per pool for the band search;
                    none its page states in the asked role, items/stated.py); invariants checked here
  TextItems         pairs -> T2T items
  DomainOntologies  (domain, relation) type counts (combiner) -> one ontology per domain,
                    written as Text2KGBench JSON to OUT/ontologies/
  SentenceItems     pairs + ontology relations (side input) -> T2KG items
  DropLeakedFacts   eval items whose fact a train pair states -> audit rows (fact_leakage;
                    items_leakage.py)

Only per-name groups and small side inputs (the pools, the ontology relation
lists, one vector file) reach a worker, never the whole graph. Counters
`items|...` feed the "items" section of stats.json (see items_stats).
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

import apache_beam as beam

from pipeline.batch import items_of
from pipeline.funnel import BundleCounts
from schemas.items import split_name
from transforms.items import templates
from transforms.items.config import ItemsConfig
from transforms.items.generate import ask_group
from transforms.items.group_input import HOP_RECORD, read_group
from transforms.items.graph import NameSummary, edges_of, keyed_edges, neighbour_of, pool_entries, strings_of
from transforms.items.open_relations import add, open_relation_set, query_counts, relation_row
from transforms.items.stated import page_text_record
from transforms.items.t2kg import build_ontology, ontology_id, relation_types, t2kg_cases, t2t_item

STAGE = "items"
ONTOLOGY_DIR = "ontologies"
VECTORS_FILE = "vectors.arrow"
_EMPTY = {"question": None, "asked": None, "options": None, "answer": None, "answer_index": None,
          "distractor_origins": None, "distractor_similarity": None, "triples": None, "reference": None,
          "text": None, "gold_triples": None, "ontology": None}


class ItemCounting(BundleCounts, beam.DoFn):
    """The stage's DoFns (and items_leakage's): counters `items|...`, summed per bundle."""

    count_prefix = "items|"


# ------------------------------------------------------------------ edges, strings, embeddings

class ExtractEdges(beam.PTransform):
    """pairs (batches) -> edges (tuples, one per kept triple)."""

    def expand(self, pairs):
        return pairs | "Edges" >> beam.FlatMap(lambda el: [e for p in items_of(el) for e in edges_of(p)])


class EmbedStrings(beam.PTransform):
    """edges -> [path of this run's vector file] (a singleton for side inputs).

    One worker finds the strings the cache lacks and cuts them into chunks of
    about `embed_chunk_size`; the chunks are embedded side by side, each into a
    cache file of its own (items_embed.embed_chunk); one worker then copies
    every string's vector from the cache into this run's file."""

    def __init__(self, cfg: ItemsConfig, cache_dir: str, out_path: str):
        super().__init__()
        self.cfg, self.cache_dir, self.out_path = cfg, cache_dir, out_path

    def expand(self, edges):
        from pipeline.items_embed import embed_chunk, missing_chunks, write_run_vectors

        spec, cache_dir, out_path, size = self.cfg.embedder, self.cache_dir, self.out_path, self.cfg.embed_chunk_size
        strings = (edges
                   | "Strings" >> beam.FlatMap(strings_of)
                   | "Distinct" >> beam.Distinct()
                   | "All" >> beam.combiners.ToList())
        embedded = (strings
                    | "Missing" >> beam.FlatMap(lambda texts: missing_chunks(texts, spec, cache_dir, size))
                    | "Spread" >> beam.Reshuffle()
                    | "EmbedChunk" >> beam.Map(lambda chunk: embed_chunk(chunk, spec, cache_dir)))
        return strings | "Write" >> beam.Map(lambda texts, _done: write_run_vectors(texts, spec, cache_dir, out_path),
                                             beam.pvalue.AsList(embedded))


# ------------------------------------------------------------------ neighbourhood and pools

class _SummariseName(ItemCounting):
    """(name, records) -> hop messages to each neighbour; pool entries (tagged "pools").

    The group is read twice and never held (a hub's may be paged in from the
    shuffle): once for the summary, once to send it. A neighbour named by
    several edges is sent it once while the names sent fit SENT_SEEN (about
    0.5 MB); past it, a hub's repeats may be sent again (about 3% of the
    messages are repeats on the real corpora), and the receiver keeps one."""

    SENT_SEEN = 4096

    def __init__(self, cfg: ItemsConfig):
        self.cfg = cfg

    def process(self, kv):
        key, records = kv
        acc = NameSummary(self.cfg.neighbour_limit, self.cfg.seed)
        for side, e in records:
            acc.add(side, e)
        summary = acc.result()
        message = (HOP_RECORD, key, summary)
        sent: set[str] = {key}
        for side, e in records:
            other = neighbour_of(side, e)
            if other not in sent:
                if len(sent) < self.SENT_SEEN:
                    sent.add(other)
                yield (other, message)
        for entry in pool_entries(key, acc, summary, self.cfg.seed):
            yield beam.pvalue.TaggedOutput("pools", entry)


def _pool_list(kv):
    key, ranked = kv
    return key, [(text, ctype) for _, text, ctype in ranked]


class Neighbourhood(beam.PTransform):
    """keyed edges -> {"hops": (name, ("hop", from, summary)), "pools": ((kind, key, bin), [(text, type)])}."""

    def __init__(self, cfg: ItemsConfig):
        super().__init__()
        self.cfg = cfg

    def expand(self, keyed):
        out = (keyed
               | "ByName" >> beam.GroupByKey()
               | "Summarise" >> beam.ParDo(_SummariseName(self.cfg)).with_outputs("pools", main="hops"))
        pools = (out.pools
                 | "PoolSample" >> beam.combiners.Top.SmallestPerKey(self.cfg.pool_per_bin)
                 | "PoolList" >> beam.Map(_pool_list))
        return {"hops": out.hops, "pools": pools}


class OpenRelations(beam.PTransform):
    """pairs -> a singleton frozenset of the open relations (items/open_relations.py)."""

    def __init__(self, cfg: ItemsConfig):
        super().__init__()
        self.cfg = cfg

    def expand(self, pairs):
        cfg = self.cfg
        return (pairs
                | "QueryCounts" >> beam.FlatMap(lambda el: [kv for p in items_of(el) for kv in query_counts(p)])
                | "PerValue" >> beam.CombinePerKey(add)
                | "RelationRows" >> beam.MapTuple(relation_row)
                | "PerRelation" >> beam.CombinePerKey(add)
                | "AllRelations" >> beam.combiners.ToList()
                | "Open" >> beam.Map(lambda rows: open_relation_set(rows, cfg.open_min_several, cfg.open_min_shared,
                                                                 cfg.open_min_heads) if cfg.skip_open_relations
                                     else frozenset()))


# ------------------------------------------------------------------ questions

class _Scorer:
    """Similarities from the run's vector file (memory-mapped, items_embed.VectorIndex);
    a faiss IndexFlatIP per pool (relation, type)."""

    def __init__(self, index, matrix, pools: dict, low: float):  # index: items_embed.VectorIndex
        self.index, self.matrix, self.pools, self.low = index, matrix, pools, low
        self._faiss: dict[tuple, tuple] = {}

    def _vec(self, text: str):
        row = self.index.get(text)
        return None if row is None else self.matrix[row]

    def similar(self, gold: str, texts: list[str]) -> dict[str, float]:
        import numpy as np

        g = self._vec(gold)
        if g is None:
            return {}
        unique = list(dict.fromkeys(texts))
        known = [(t, row) for t, row in zip(unique, self.index.rows(unique)) if row is not None]
        if not known:
            return {}
        sims = np.round((self.matrix[[row for _, row in known]] @ g).astype(np.float64), 4).tolist()
        return dict(zip((t for t, _ in known), sims))

    def pool(self, pool_key: tuple[str, str], gold: str):
        """(text, type, bin, similarity) of the pool's members at or above the band's low bound."""
        import faiss
        import numpy as np

        entry = self._faiss.get(pool_key)
        if entry is None:
            listed = [(text, ctype, b) for b in range(6)
                      for text, ctype in self.pools.get((pool_key[0], pool_key[1], b), ())]
            found = [(m, row) for m, row in zip(listed, self.index.rows([m[0] for m in listed])) if row is not None]
            members = [m for m, _ in found]
            index = None
            if members:
                index = faiss.IndexFlatIP(self.matrix.shape[1])
                index.add(np.ascontiguousarray(self.matrix[[row for _, row in found]]))
            entry = self._faiss[pool_key] = (index, members)
        index, members = entry
        g = self._vec(gold)
        if index is None or g is None:
            return []
        lims, dist, ids = index.range_search(np.ascontiguousarray(g[None, :]), self.low)
        sims = np.round(dist[lims[0]:lims[1]].astype(np.float64), 4).tolist()
        return [(*members[i], s) for i, s in zip(ids[lims[0]:lims[1]].tolist(), sims)]


class _AskQuestions(ItemCounting):
    """(name, edges + hop messages) -> QA/KGC items of that name's group."""

    def __init__(self, cfg: ItemsConfig):
        self.cfg = cfg

    def setup(self):
        import faiss

        faiss.omp_set_num_threads(1)
        self._loaded = None

    def process(self, kv, vectors_path, pools, open_relations):
        from pipeline.items_embed import read_vectors

        if self._loaded is None or self._loaded[0] != vectors_path:
            index, matrix = read_vectors(vectors_path)
            self._loaded = (vectors_path, _Scorer(index, matrix, pools, self.cfg.band_low))
        scorer = self._loaded[1]
        key, records = kv
        # Read in two passes, never into a list: a hub's group may be paged in
        # from the shuffle, and only what its questions use is kept.
        group = read_group(records, self.cfg.one_hop_limit, self.cfg.seed)
        if not group.outs and not group.ins_sample:
            return
        for item in ask_group(key, group, scorer, self.cfg, self.count, open_relations):
            self.count(f"written|{item['task']}|{split_name(item['split'])}")
            yield item


class AskQuestions(beam.PTransform):
    def __init__(self, cfg: ItemsConfig, vectors, pools, open_relations):
        super().__init__()
        self.cfg, self.vectors, self.pools, self.open_relations = cfg, vectors, pools, open_relations

    def expand(self, grouped_input):
        return (grouped_input
                | "ByName" >> beam.GroupByKey()
                | "Ask" >> beam.ParDo(_AskQuestions(self.cfg), beam.pvalue.AsSingleton(self.vectors),
                                      beam.pvalue.AsDict(self.pools), beam.pvalue.AsSingleton(self.open_relations)))


# ------------------------------------------------------------------ T2T, ontologies, T2KG

def _base(task: str, pair: dict, extra: str = "") -> dict[str, Any]:
    return {**_EMPTY, "item_id": templates.item_id(task, pair["pair_id"], None, None, None, extra), "task": task,
            "domain": pair.get("domain") or "unknown", "split": pair.get("split"), "in_subset": pair.get("in_subset"),
            "pair_id": pair["pair_id"], "head": pair.get("entity"), "relation": None, "tail": None}


# Why a pair has no T2T item, by what its input left out (t2kg.t2t_item).
_T2T_EMPTY = {frozenset(): "t2t_empty", frozenset({"t2t_uncued_person_role"}): "t2t_only_uncued_person_roles",
              frozenset({"t2t_trivial"}): "t2t_only_trivial_triples"}


class _TextItems(ItemCounting):
    def __init__(self, reference: str):
        super().__init__()
        self.reference = reference

    def process(self, element):
        for pair in items_of(element):
            body, left_out = t2t_item(pair, self.reference)
            for why, n in sorted(left_out.items()):
                self.count(f"left_out|{why}", n)
            if body is None:
                self.count(f"skipped|{_T2T_EMPTY.get(frozenset(left_out), 't2t_only_uncued_roles_or_trivial')}")
                continue
            self.count(f"written|t2t|{split_name(pair.get('split'))}")
            yield {**_base("t2t", pair), **body}


class TextItems(beam.PTransform):
    def __init__(self, reference: str = "sentences"):
        super().__init__()
        self.reference = reference

    def expand(self, pairs):
        return pairs | "T2T" >> beam.ParDo(_TextItems(self.reference))


class _CounterSum(beam.CombineFn):
    def create_accumulator(self):
        return Counter()

    def add_input(self, acc, element):
        acc[element] += 1
        return acc

    def merge_accumulators(self, accs):
        out = Counter()
        for a in accs:
            out.update(a)
        return out

    def extract_output(self, acc):
        return dict(acc)


def _write_ontology(kv, out_dir: str, cfg: ItemsConfig):
    from apache_beam.io.filesystem import CompressionTypes
    from apache_beam.io.filesystems import FileSystems

    domain, rels = kv
    onto = build_ontology(domain, {r: Counter(c) for r, c in rels}, cfg.ontology_min_count, cfg.ontology_max_relations)
    path = FileSystems.join(out_dir, ONTOLOGY_DIR, f"{ontology_id(domain)}.json")
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        fh.write(json.dumps(onto, ensure_ascii=False, indent=1, sort_keys=False).encode("utf-8"))
    return domain, frozenset(r["label"] for r in onto["relations"])


class DomainOntologies(beam.PTransform):
    """pairs -> (domain, relation labels of its ontology); the ontology JSON is written as a side effect."""

    def __init__(self, cfg: ItemsConfig, out_dir: str):
        super().__init__()
        self.cfg, self.out_dir = cfg, out_dir

    def expand(self, pairs):
        cfg, out_dir = self.cfg, self.out_dir
        return (pairs
                | "RelationTypes" >> beam.FlatMap(lambda el: [kv for p in items_of(el) for kv in relation_types(p)])
                | "CountTypes" >> beam.CombinePerKey(_CounterSum())
                | "ByDomain" >> beam.Map(lambda kv: (kv[0][0], (kv[0][1], kv[1])))
                | "Group" >> beam.GroupByKey()
                | "Write" >> beam.Map(_write_ontology, out_dir, cfg))


class _SentenceItems(ItemCounting):
    def process(self, element, ontologies):
        for pair in items_of(element):
            domain = pair.get("domain") or "unknown"
            cases, skipped = t2kg_cases(pair, ontologies.get(domain, frozenset()))
            for why, n in skipped.items():
                self.count(f"skipped|t2kg_{why}", n)
            for case in cases:
                self.count(f"written|t2kg|{split_name(pair.get('split'))}")
                yield {**_base("t2kg", pair, str(case["sentence"])), "text": case["text"],
                       "gold_triples": case["gold_triples"], "ontology": ontology_id(domain)}


class SentenceItems(beam.PTransform):
    def __init__(self, ontologies):
        super().__init__()
        self.ontologies = ontologies

    def expand(self, pairs):
        return pairs | "T2KG" >> beam.ParDo(_SentenceItems(), beam.pvalue.AsDict(self.ontologies))


# ------------------------------------------------------------------ the stage

class BuildItems(beam.PTransform):
    """pairs (after split) -> {"items": item rows (ITEM_SCHEMA), "audit": item audit rows}."""

    def __init__(self, cfg: ItemsConfig, out_dir: str, spill_dir: str, cache_dir: str):
        super().__init__()
        self.cfg, self.out_dir, self.spill_dir, self.cache_dir = cfg, out_dir, spill_dir, cache_dir

    def expand(self, pairs):
        from apache_beam.io.filesystems import FileSystems

        from pipeline.items_leakage import DropLeakedFacts  # it builds on this module's ItemCounting

        cfg = self.cfg
        parts = []
        edges = pairs | "ExtractEdges" >> ExtractEdges()
        if {"qa", "kgc"} & set(cfg.tasks):
            vectors = edges | "EmbedStrings" >> EmbedStrings(
                cfg, self.cache_dir, FileSystems.join(self.spill_dir, VECTORS_FILE))
            keyed = edges | "KeyByName" >> beam.FlatMap(keyed_edges)
            hood = keyed | "Neighbourhood" >> Neighbourhood(cfg)
            texts = pairs | "PageTexts" >> beam.FlatMap(lambda el: [r for p in items_of(el)
                                                                    for r in page_text_record(p)])
            grouped = (keyed, hood["hops"], texts) | "WithHopsAndTexts" >> beam.Flatten()
            open_rel = pairs | "OpenRelations" >> OpenRelations(cfg)
            parts.append(grouped | "AskQuestions" >> AskQuestions(cfg, vectors, hood["pools"], open_rel))
        if "t2t" in cfg.tasks:
            parts.append(pairs | "TextItems" >> TextItems(cfg.t2t_reference))
        if "t2kg" in cfg.tasks:
            ontologies = pairs | "DomainOntologies" >> DomainOntologies(cfg, self.out_dir)
            parts.append(pairs | "SentenceItems" >> SentenceItems(ontologies))
        if not parts:
            empty = pairs.pipeline | "NoItems" >> beam.Create([])
            return {"items": empty, "audit": pairs.pipeline | "NoItemAudit" >> beam.Create([])}
        items = tuple(parts) | "AllTasks" >> beam.Flatten()
        return items | "DropLeakedFacts" >> DropLeakedFacts(edges)


def _bucket(counters: dict[str, int], prefix: str) -> dict[str, int]:
    return dict(sorted((k[len(prefix):], v) for k, v in counters.items() if k.startswith(prefix)))


def items_stats(counters: dict[str, int]) -> dict[str, Any] | None:
    """The "items" section of stats.json from the `items|...` counters."""
    c = {k[len("items|"):]: v for k, v in counters.items() if k.startswith("items|")}
    if not c:
        return None
    written: dict[str, dict[str, int]] = {}
    for k, v in _bucket(c, "written|").items():
        task, split = k.split("|", 1)
        written.setdefault(task, {})[split] = v
    leak = _bucket(c, "leakage|")
    after = _bucket(c, "leakage_after|")
    dropped = sum(leak.values())
    for task, splits in written.items():  # items written = generated - dropped for leakage
        for kk, v in leak.items():
            if kk.startswith(task + "|"):
                splits["eval"] = splits.get("eval", 0) - v
    sims = _bucket(c, "sim|")
    total_sims = sum(sims.values())
    consistent, inconsistent = c.get("type|consistent", 0), c.get("type|inconsistent", 0)
    emb = _bucket(c, "embed|")
    unique = emb.get("unique_strings", 0)
    return {
        "written": written,
        "skipped": _bucket(c, "skipped|"),
        "open_relations": _bucket(c, "open_relation|"),  # their tails not asked, by relation
        "triples_left_out": _bucket(c, "left_out|"),
        "widened": _bucket(c, "widened|"),
        "candidates_rejected": _bucket(c, "rejected|"),
        "invariant_violations": sum(_bucket(c, "violations|").values()),
        "invariant_violations_by_reason": _bucket(c, "violations|"),
        "distractor_origins": _bucket(c, "origin|"),
        "distractor_similarity": {"histogram": sims,
                                  "shares": {k: round(v / total_sims, 4) for k, v in sims.items()} if total_sims else {}},
        "type_consistency": round(consistent / (consistent + inconsistent), 4) if consistent + inconsistent else None,
        "leakage": {"eval_items_with_train_fact_before_drop": dropped, "by_task_and_kind": leak,
                    "dropped": dropped, "after_drops": sum(after.values())},
        "embeddings": {**emb, "embedded_per_unique_uncached": (
            round(emb.get("embedded", 0) / (unique - emb.get("cache_hits", 0)), 4)
            if unique - emb.get("cache_hits", 0) else None)},
    }
