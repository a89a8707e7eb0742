"""Thin Beam wrappers of the cleaning stages (paper §3.2).

Each stage is a composite PTransform with a stable label, taking a
PCollection and returning {"pairs", "audit"} (plus "discarded_triples" for
the redundant-triple stage). Its DoFn calls one pure function of
pipeline/cleaning_steps.py per batch and routes the result: pairs in the
shape they came (pipeline/batch.py), audit and discarded rows as one list per
batch. Stages only emit audit rows for what they drop.
"""
from __future__ import annotations

from collections import Counter

import apache_beam as beam
import numpy as np

from pipeline.batch import emit
from pipeline.cleaning_steps import (
    STAGE_READ,
    STAGE_TRIPLE,
    coverage_batch,
    deduplicate_batch,
    finalise_batch,
    pair_relations,
    redundant_description_batch,
    redundant_triple_batch,
    relation_frequency_batch,
    scan_batch,
    validate_batch,
    written_relation_names,
)
from pipeline.funnel import BundleCounts
from pipeline.spill import ReadSpilled, SpillToFiles
from transforms import dedup
from transforms.redundancy import CleaningConfig
from transforms.relations import RelationFrequencyConfig, relation_vocabulary, select_relations, top_relations


def _route(element, result, discarded: bool = False):
    """Yield a step's outputs: audit rows (and discarded rows) as one list, then the pairs."""
    if result.audit:
        yield beam.pvalue.TaggedOutput("audit", result.audit)
    if discarded and result.discarded:
        yield beam.pvalue.TaggedOutput("discarded", result.discarded)
    yield from emit(element, result.pairs)


# ----------------------------------------------------------------------- validate

_BLANK = "read|blank_lines"
_READ_IN = f"flow|{STAGE_READ}|in|entries"


class _ValidateFn(BundleCounts, beam.DoFn):
    def process(self, records):
        result = validate_batch(records)
        counts = self._counts
        counts[_BLANK] = counts.get(_BLANK, 0) + result.blank  # an empty line is not an entry
        counts[_READ_IN] = counts.get(_READ_IN, 0) + len(result.pairs) + len(result.audit)
        yield from _route(records, result)  # DeduplicateEntries counts what leaves the read stage


class ValidateRawEntries(beam.PTransform):
    """(location, payload) records, or lists of them -> {"raws": (raw entry, location) in the same
    shape, "audit": lists of invalid_input rows}."""

    def expand(self, records):
        out = records | "Validate" >> beam.ParDo(_ValidateFn()).with_outputs("audit", main="raws")
        return {"raws": out.raws, "audit": out.audit}


# ------------------------------------------------- input scan: vocabulary, duplicates

class CountNames(beam.CombineFn):
    """elements -> {name: count} of the names `names_of(element, *args)` lists.

    One Counter per bundle (combiner lifting), so no element per name crosses
    a Beam operation: Count.PerElement made each infobox name and each triple
    relation an element of its own, a large part of the per-element overhead.
    """

    def __init__(self, names_of, *args):
        self.names_of = names_of
        self.args = args

    def create_accumulator(self):
        return Counter()

    def add_input(self, acc, element):
        acc.update(self.names_of(element, *self.args))
        return acc

    def merge_accumulators(self, accs):
        out = Counter()
        for acc in accs:
            out.update(acc)
        return out

    def extract_output(self, acc):
        return dict(acc)


class _ScanFn(beam.DoFn):
    def process(self, records):
        scan = scan_batch(records)
        if scan.names:
            yield scan.names
        for bucket, group in scan.copies.items():
            yield beam.pvalue.TaggedOutput("copies", (bucket, group))


class ConcatArrays(beam.CombineFn):
    """Numpy record arrays of one key -> their concatenation (subclasses decide from it).

    Batches arrive as small arrays; the accumulator keeps a short list of them
    (one array per 64 batches), so no per-record Python work is done."""

    def create_accumulator(self):
        return []

    def add_input(self, acc, table):
        acc.append(table)
        if len(acc) >= 64:
            acc[:] = [np.concatenate(acc)]
        return acc

    def merge_accumulators(self, accs):
        tables = [t for acc in accs for t in acc]
        return [np.concatenate(tables)] if tables else []


class _MergeCopies(ConcatArrays):
    """COPY arrays of one key bucket -> {key hash: location hash to keep} (transforms/dedup.py)."""

    def extract_output(self, acc):
        return dedup.winners(np.concatenate(acc)) if acc else {}


def _names(names: list[str]) -> list[str]:
    return names


def _union(dicts: list[dict]) -> dict:
    return {k: v for d in dicts for k, v in d.items()}


class ScanInput(beam.PTransform):
    """One pass over the input records, ahead of the pairs -> two side inputs.

    * "vocabulary": the global vocabulary of Baike relation names (a
      frozenset), counted with a combiner so only distinct names cross the
      shuffle;
    * "duplicates": {entry key hash: location hash of the copy to keep} for
      entries given more than once, from a per-key combiner over KEY_BUCKETS
      groups of 24-byte copy records (transforms/dedup.py).

    Each is a single-element PCollection. The records come from a read of
    their own (see scan_batch), so nothing waits for them but the stages
    that use them.
    """

    def __init__(self, min_count: int = 1):
        super().__init__()
        self.min_count = min_count

    def expand(self, records):
        scanned = records | "Scan" >> beam.ParDo(_ScanFn()).with_outputs("copies", main="names")
        vocabulary = (scanned.names
                      | "CountNames" >> beam.CombineGlobally(CountNames(_names))
                      | "Vocabulary" >> beam.Map(relation_vocabulary, self.min_count))
        duplicates = (scanned.copies
                      | "CountCopies" >> beam.CombinePerKey(_MergeCopies())
                      | "Duplicates" >> beam.Values()
                      | "AllDuplicates" >> beam.combiners.ToList()
                      | "AsOneDict" >> beam.Map(_union))
        return {"vocabulary": vocabulary, "duplicates": duplicates}


# ------------------------------------------------------------------- deduplicate

_READ_OUT = f"flow|{STAGE_READ}|out|entries"


class _DeduplicateFn(BundleCounts, beam.DoFn):
    def __init__(self, cfg: CleaningConfig):
        self.cfg = cfg

    def process(self, element, winners):
        result = deduplicate_batch(element, winners, self.cfg)
        # What leaves the read stage: valid entries, one copy each.
        self._counts[_READ_OUT] = self._counts.get(_READ_OUT, 0) + len(result.pairs)
        yield from _route(element, result)


class DeduplicateEntries(beam.PTransform):
    """(raw entry, location) -> one copy per entry key; the others become read-stage
    audit rows `duplicate_entry` (entry and triples). The copy kept is the
    audit row of the same entry_key with another source."""

    def __init__(self, cfg: CleaningConfig, duplicates):
        super().__init__()
        self.cfg = cfg
        self.duplicates = duplicates  # single-element PCollection[dict]

    def expand(self, raws):
        out = raws | "DropCopies" >> beam.ParDo(
            _DeduplicateFn(self.cfg), winners=beam.pvalue.AsSingleton(self.duplicates)
        ).with_outputs("audit", main="raws")
        return {"raws": out.raws, "audit": out.audit}


# --------------------------------------------------------------- redundant triple

_TRIPLES_IN = f"flow|{STAGE_TRIPLE}|in|triples"


class _RedundantTripleFn(BundleCounts, beam.DoFn):
    def __init__(self, cfg: CleaningConfig):
        self.cfg = cfg

    def process(self, element):
        result = redundant_triple_batch(element, self.cfg)
        # Raw entries have no triples before splitting: count them here.
        self._counts[_TRIPLES_IN] = self._counts.get(_TRIPLES_IN, 0) + result.triples_in
        yield from _route(element, result, discarded=True)


class RedundantTripleFilter(beam.PTransform):
    """Raw entries -> aligned pairs; unsupported triples go to discarded_triples."""

    def __init__(self, cfg: CleaningConfig):
        super().__init__()
        self.cfg = cfg

    def expand(self, raws):
        out = raws | "CleanEntry" >> beam.ParDo(_RedundantTripleFn(self.cfg)).with_outputs(
            "audit", "discarded", main="pairs")
        return {"pairs": out.pairs, "audit": out.audit, "discarded_triples": out.discarded}


# ---------------------------------------------------------- redundant description

class _RedundantDescriptionFn(beam.DoFn):
    def __init__(self, cfg: CleaningConfig):
        self.cfg = cfg

    def process(self, element, vocab):
        yield from _route(element, redundant_description_batch(element, vocab, self.cfg))


class RedundantDescriptionFilter(beam.PTransform):
    """Position index + uncovered relation mentions + ungrounded enumerations."""

    def __init__(self, cfg: CleaningConfig, vocabulary):
        super().__init__()
        self.cfg = cfg
        self.vocabulary = vocabulary  # single-element PCollection[frozenset]

    def expand(self, pairs):
        out = pairs | "CheckDescription" >> beam.ParDo(
            _RedundantDescriptionFn(self.cfg), vocab=beam.pvalue.AsSingleton(self.vocabulary)
        ).with_outputs("audit", main="pairs")
        return {"pairs": out.pairs, "audit": out.audit}


# ------------------------------------------------------------- relation frequency

def _top_summary(counts: dict, top_n: int, cfg: RelationFrequencyConfig) -> dict:
    kept = select_relations(counts, cfg)
    return {"top": [[r, c] for r, c in top_relations(counts, top_n)], "distinct": len(counts), "kept": len(kept)}


class _RelationFilterFn(beam.DoFn):
    def __init__(self, synonyms):
        self.synonyms = dict(synonyms) if synonyms is not None else None

    def process(self, element, kept_relations):
        yield from _route(element, relation_frequency_batch(element, kept_relations, self.synonyms))


class RelationFrequencyFilter(beam.PTransform):
    """Global relation counts (combiner) -> kept relations (side input) -> filter.

    Also returns "top_relations": a single-element PCollection with the
    `top_n` most frequent relations, for stats.json (paper Figure 6).
    """

    def __init__(self, cfg: RelationFrequencyConfig, top_n: int = 20, spill_dir: str | None = None):
        super().__init__()
        self.cfg = cfg
        self.top_n = top_n
        self.spill_dir = spill_dir  # where pairs wait for the kept relations (None: in the runner)

    def expand(self, pairs):
        cfg, top_n = self.cfg, self.top_n
        synonyms = dict(cfg.synonyms) if cfg.synonyms is not None else None
        counts = (
            pairs
            | "CountRelations" >> beam.CombineGlobally(CountNames(pair_relations, synonyms))
        )
        kept = counts | "SelectRelations" >> beam.Map(select_relations, cfg)
        top = counts | "TopRelations" >> beam.Map(_top_summary, top_n, cfg)
        if self.spill_dir:
            pairs = pairs | "SpillPairs" >> SpillToFiles(self.spill_dir, "frequency") | "ReadPairs" >> ReadSpilled()
        out = pairs | "FilterRelations" >> beam.ParDo(
            _RelationFilterFn(synonyms), kept_relations=beam.pvalue.AsSingleton(kept)
        ).with_outputs("audit", main="pairs")
        return {"pairs": out.pairs, "audit": out.audit, "top_relations": top}


# ------------------------------------------------------------- written relations

def _written_summary(counts: dict, top_n: int) -> dict:
    return {"top": [[r, c] for r, c in top_relations(counts, top_n)], "distinct": len(counts)}


class CountWrittenRelations(beam.PTransform):
    """final pairs -> one {top, distinct} summary of the relations of their triples (stats.json `relations`).

    Why a count of its own after the last stage: the relation-frequency stage
    counts the relations it filters on, before relation review, search
    validation, near-duplicates and the split drop triples and pairs, so its
    top relations are not those of the written pairs (the demo: 别名 14 where
    pairs/ holds 12). A combiner over the final pairs (one Counter per bundle)
    costs one more pass over pairs that are read anyway.
    """

    def __init__(self, top_n: int = 20):
        super().__init__()
        self.top_n = top_n

    def expand(self, pairs):
        return (pairs
                | "Count" >> beam.CombineGlobally(CountNames(written_relation_names))
                | "Summary" >> beam.Map(_written_summary, self.top_n))


# ----------------------------------------------------------------------- coverage

class _CoverageFn(beam.DoFn):
    def __init__(self, min_coverage: float):
        self.min_coverage = min_coverage

    def process(self, element):
        yield from _route(element, coverage_batch(element, self.min_coverage))


class CoverageFilter(beam.PTransform):
    """Pairs whose coverage of their final triples is below `--min-coverage` -> audit rows."""

    def __init__(self, min_coverage: float):
        super().__init__()
        self.min_coverage = min_coverage

    def expand(self, pairs):
        out = pairs | "CheckCoverage" >> beam.ParDo(_CoverageFn(self.min_coverage)).with_outputs("audit", main="pairs")
        return {"pairs": out.pairs, "audit": out.audit}


# ---------------------------------------------------------------------- finalise

class _FinaliseFn(beam.DoFn):
    def process(self, element):
        yield from _route(element, finalise_batch(element))


class Finalise(beam.PTransform):
    """Emit fate="kept" audit rows for each surviving pair and triple."""

    def expand(self, pairs):
        out = pairs | "KeptRows" >> beam.ParDo(_FinaliseFn()).with_outputs("audit", main="pairs")
        return {"pairs": out.pairs, "audit": out.audit}
