"""Beam stage ``near_duplicate``: one copy of each near-duplicate text (issue 8 §8).

The decisions are in transforms/neardup.py and the per-batch bookkeeping is in
pipeline/neardup_steps.py. This module only wires them into Beam. No worker
needs every signature:

1. ``Sketch``: per batch, MinHash band records (band key, pair hash), 24 bytes
   a band, emitted as one array per band-key bucket. The pairs pass on.
2. ``BandEdges``: a per-bucket combiner concatenates the arrays of its
   bucket. Its output is the pairs that share a band key: the candidate edges
   (usually a few per cent of the pairs). ``AllEdges`` unions them into one
   small side input.
3. The pairs wait on disk (pipeline/spill.py) and are read twice. The first
   read, with the edges, picks the candidates: the pairs that share a band key.
4. ``Decide``: the candidates' shingle sets (not every pair's) are collected.
   Exact copies are settled by a digest of their shingle sets. The other
   candidate edges are verified by exact Jaccard, and the greedy priority
   order picks the copies to keep (transforms/neardup.py ``decide``).
5. ``DropCopies``: the second read, with the decision, drops the copies it
   names, with audit rows naming the copy kept.

Every combiner is order-insensitive and every choice is broken by a total
order (triples, pair_id), so the output is the same across reruns and
worker counts. The ``stats`` output holds one dict: candidate and verified
edges, copies dropped, and the leakage count ``near_duplicate_texts``.
"""
from __future__ import annotations

import dataclasses

import apache_beam as beam
import numpy as np

from pipeline.batch import items_of
from pipeline.cleaning import ConcatArrays, _route
from pipeline.neardup_steps import (
    STAGE_NEAR_DUPLICATE,
    candidates_of,
    is_candidate,
    near_duplicate_batch,
    sketch_batch,
)
from pipeline.spill import ReadSpilled, SpillToFiles
from transforms.neardup import BAND, NearDuplicateConfig, candidate_edges, decide, unique_edges
from transforms.split import SplitConfig

STAGE = STAGE_NEAR_DUPLICATE
# The stats output is written here by the build and merged into stats.json.
NEAR_DUPLICATE_STATS_FILE = "_near_duplicate_stats.json"


class _SketchFn(beam.DoFn):
    def __init__(self, cfg: NearDuplicateConfig):
        self.cfg = cfg

    def process(self, element):
        for bucket, records in sketch_batch(items_of(element), self.cfg):
            yield beam.pvalue.TaggedOutput("bands", (bucket, records))
        yield element


class _BandEdges(ConcatArrays):
    """BAND arrays of one bucket -> (candidate edges, oversized band keys)."""

    def __init__(self, max_bucket: int):
        self.max_bucket = max_bucket

    def extract_output(self, acc):
        table = np.concatenate(acc) if acc else np.empty(0, dtype=BAND)
        return candidate_edges(table, self.max_bucket)


class _UnionEdges(beam.CombineFn):
    """Per-bucket (edges, oversized) -> (all unique edges, sorted candidate pair hashes, oversized)."""

    def create_accumulator(self):
        return ([], 0)

    def add_input(self, acc, value):
        edges, oversized = value
        return (acc[0] + [edges], acc[1] + oversized)

    def merge_accumulators(self, accs):
        parts, oversized = [], 0
        for edges, n in accs:
            parts.extend(edges)
            oversized += n
        return (parts, oversized)

    def extract_output(self, acc):
        parts, oversized = acc
        edges = unique_edges(np.concatenate(parts)) if parts else np.empty((0, 2), dtype=np.uint64)
        return (edges, np.unique(edges.reshape(-1)), oversized)


class _CandidatesFn(beam.DoFn):
    """A batch's pairs that share a band key with another pair -> one list of Candidate records."""

    def __init__(self, cfg: NearDuplicateConfig, split: SplitConfig | None):
        self.cfg = cfg
        self.split = split

    def process(self, element, edges):
        nodes = edges[1]
        chosen = [pair for pair in items_of(element) if is_candidate(pair, nodes)]
        if chosen:
            yield candidates_of(chosen, self.cfg, self.split)


class _CandidatePool:
    """A _CollectCandidates accumulator: candidates, each distinct shingle set held once.

    A class of its own (not a dict or list), so Beam's coder pickles it whole
    and a shingle array shared by several copies is written once.
    """

    def __init__(self):
        self.texts: dict[bytes, np.ndarray] = {}
        self.candidates: list = []

    def add(self, candidates) -> "_CandidatePool":
        for c in candidates:
            shared = self.texts.setdefault(c.digest(), c.shingles)
            self.candidates.append(c if shared is c.shingles else dataclasses.replace(c, shingles=shared))
        return self


class _CollectCandidates(beam.CombineFn):
    """Lists of Candidate records -> one list. Exact copies (a re-crawl, a text given under
    several lemma ids) share one shingle array, so what crosses the shuffle and waits in
    memory grows with the distinct texts, not with the copies."""

    def create_accumulator(self):
        return _CandidatePool()

    def add_input(self, acc, batch):
        return acc.add(batch)

    def merge_accumulators(self, accs):
        merged = _CandidatePool()
        for acc in accs:
            merged.add(acc.candidates)
        return merged

    def extract_output(self, acc):
        return acc.candidates


class _DropFn(beam.DoFn):
    def process(self, element, decision):
        yield from _route(element, near_duplicate_batch(items_of(element), decision["dropped"]))


def _decide(candidates, edges, cfg: NearDuplicateConfig):
    ordered = sorted(candidates, key=lambda c: c.pair_id)
    return decide(edges[0], ordered, cfg, oversized=edges[2])


def _stats(decision: dict, cfg: NearDuplicateConfig) -> dict:
    return {**decision["stats"], "threshold": cfg.threshold, "num_perm": cfg.num_perm, "bands": cfg.bands,
            "shingle_size": cfg.shingle_size, "drop": cfg.drop}


class ReduceNearDuplicates(beam.PTransform):
    """pairs -> {"pairs": one copy per near-duplicate text, "audit": rows of the copies dropped,
    "stats": [one dict]}."""

    def __init__(self, cfg: NearDuplicateConfig | None = None, split: SplitConfig | None = None,
                 spill_dir: str | None = None):
        super().__init__()
        self.cfg = cfg or NearDuplicateConfig()
        # The split the split stage will assign, for the leakage count (None: no split).
        self.split = split
        self.spill_dir = spill_dir  # where pairs wait for the candidate edges (None: in the runner)

    def expand(self, pairs):
        cfg = self.cfg
        sketched = pairs | "Sketch" >> beam.ParDo(_SketchFn(cfg)).with_outputs("bands", main="pairs")
        edges = (sketched.bands
                 | "BandEdges" >> beam.CombinePerKey(_BandEdges(cfg.max_bucket))
                 | "EdgesOnly" >> beam.Values()
                 | "AllEdges" >> beam.CombineGlobally(_UnionEdges()))
        # The pairs wait for the decision on disk, and are read twice: once to collect the
        # candidates, once to drop the copies. So no pairs are held in the runner, and no
        # Flatten joins two streams of them.
        names = None
        if self.spill_dir:
            names = sketched.pairs | "SpillPairs" >> SpillToFiles(self.spill_dir, "neardup")
            first = names | "ReadForCandidates" >> ReadSpilled()
        else:
            first = sketched.pairs
        decision = (first
                    | "Candidates" >> beam.ParDo(_CandidatesFn(cfg, self.split), edges=beam.pvalue.AsSingleton(edges))
                    | "Collect" >> beam.CombineGlobally(_CollectCandidates())
                    | "Decide" >> beam.Map(_decide, beam.pvalue.AsSingleton(edges), cfg))
        if names is not None:
            # Only the file names wait for the decision: reading them in the same step as the
            # first read would make the runner hold every pair of the second read until then.
            second = (names
                      | "WaitForDecision" >> beam.Map(lambda name, _: name, beam.pvalue.AsSingleton(decision))
                      | "ReadPairs" >> ReadSpilled())
        else:
            second = sketched.pairs
        out = second | "DropCopies" >> beam.ParDo(
            _DropFn(), decision=beam.pvalue.AsSingleton(decision)).with_outputs("audit", main="pairs")
        stats = decision | "Stats" >> beam.Map(_stats, cfg)
        return {"pairs": out.pairs, "audit": out.audit, "stats": stats}
