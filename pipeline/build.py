"""`cdtp build`: the CDTP cleaning pipeline, stage by stage, top to bottom.

    read -> validate -> deduplicate -> redundant_triple -> redundant_description -> relation_frequency
         -> relation_review -> search_validation -> entity_typing -> domain_classification
         -> near_duplicate -> split -> finalise -> write

Every stage is a composite PTransform with a stable label, wrapped by
`_Counted` (one flow counter between consecutive stages) so the funnel
(entries/triples in and out of each stage) comes from Beam metrics. Stages
return {"pairs", "audit"} (+ "discarded_triples"); each
stage's audit rows are counted by (stage, kind, fate, reason) and go to one
audit writer. The global decisions are side inputs computed by combiners
in the same pipeline: the relation vocabulary (from all input records'
infobox names), the copy to keep of each entry given more than once, and
the kept relations (from the counts over cleaned pairs).

Pairs travel in batches (lists, pipeline/batch.py) from the reader on, so
Beam's per-element bookkeeping is paid once per batch.

Memory: a runner must hold whatever waits at a barrier (a side input not yet
computed, a GroupByKey, a Flatten of several stages), and the DirectRunner
holds it in RAM. So the relation vocabulary and the duplicate entries come
from a second read of the input (the pairs never wait for them), pairs
waiting for the kept relations are spilled to files under OUT/_spill
(pipeline/spill.py), the writers spill runs (Arrow IPC) and group only their
names (pipeline/write.py), and rows are never flattened across stages; peak
memory then stays nearly flat as the input grows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import apache_beam as beam
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from pipeline.cleaning import (
    CountWrittenRelations,
    CoverageFilter,
    Finalise,
    RedundantDescriptionFilter,
    RedundantTripleFilter,
    DeduplicateEntries,
    RelationFrequencyFilter,
    ScanInput,
    ValidateRawEntries,
)
from pipeline.cleaning_steps import (
    STAGE_COVERAGE, STAGE_DESCRIPTION, STAGE_FINALISE, STAGE_FREQUENCY, STAGE_READ, STAGE_TRIPLE,
)
from pipeline.config import BuildConfig
from pipeline.funnel import count_audit, count_coverage, count_flow, count_histogram
from pipeline.read import InputFiles, ReadRawRecords
from pipeline.write import WriteParquetShards
from schemas.outputs import AUDIT_SCHEMA, DISCARDED_TRIPLE_SCHEMA, PAIR_SCHEMA
from transforms.relations import triples_bin

# Funnel order in stats.json; issue-4 stages add their stage name where they run.
STAGE_ORDER = [STAGE_READ, STAGE_TRIPLE, STAGE_DESCRIPTION, STAGE_FREQUENCY,
               "relation_review", "search_validation", STAGE_COVERAGE, "entity_typing", "domain_classification",
               "near_duplicate", "split",
               STAGE_FINALISE]

# Sort keys of the audit and discarded rows: unique per row (an entry read twice
# differs by `source`), so every shard's row order is fixed.
AUDIT_KEY = ("entry_key", "kind", "triple_id", "source", "stage", "reason")
DISCARDED_KEY = ("pair_id", "relation", "tail", "head", "stage", "reason", "entity", "source_url")
TOP_RELATIONS_FILE = "_top_relations.json"  # the relation-frequency stage's counts (before its filter)
WRITTEN_RELATIONS_FILE = "_written_relations.json"  # the relations of the written pairs' triples
SPILL_DIR = "_spill"
EMBED_CACHE_DIR = "embed_cache"  # kept across --overwrite: a rerun embeds nothing


class _Counted(beam.PTransform):
    """Run a stage after a flow counter: entries/triples into it, and out of
    the stage before (the same elements: one count serves both)."""

    def __init__(self, stage: str, inner: beam.PTransform, previous: str | None = None):
        super().__init__()
        self.stage = stage
        self.inner = inner
        self.previous = previous

    def expand(self, pairs):
        sides = ((self.previous, "out"), (self.stage, "in")) if self.previous else ((self.stage, "in"),)
        return dict(pairs | "Count" >> count_flow(*sides) | "Run" >> self.inner)


def _write_json(summary: dict, path: str) -> str:
    import json

    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        fh.write(json.dumps(summary, ensure_ascii=False, sort_keys=True).encode("utf-8"))
    return path


@dataclass
class BuildOutputs:
    pairs: Any
    audit: Any
    discarded_triples: Any
    top_relations: Any
    items: Any = None
    written_relations: Any = None


def resolve_num_shards(cfg: BuildConfig, inputs: InputFiles) -> int:
    """Shards per output: the configured number, else one per input_bytes_per_shard."""
    if cfg.output.num_shards > 0:
        return cfg.output.num_shards
    return max(1, math.ceil(inputs.estimated_bytes / max(1, cfg.output.input_bytes_per_shard)))


def build_pipeline(p: beam.Pipeline, cfg: BuildConfig, inputs: InputFiles) -> BuildOutputs:
    """Add the whole build to pipeline `p`, writing under cfg.output.out_dir."""
    out_dir = cfg.output.out_dir
    # Temporary files (pairs waiting for a global decision, Arrow runs of the
    # shards), so no runner holds the whole data set in memory; removed after the run.
    spill = FileSystems.join(out_dir, SPILL_DIR)
    audits: list = []
    discarded: list = []

    previous: list[str] = []  # the stage whose output is not counted yet

    def stage(pairs, label: str, name: str, transform: beam.PTransform):
        """Run one pairs -> {"pairs", "audit"[, "discarded_triples"]} stage."""
        result = pairs | label >> _Counted(name, transform, previous[-1] if previous else None)
        previous.append(name)
        audits.append(result["audit"])
        if "discarded_triples" in result:
            discarded.append(result["discarded_triples"])
        return result

    # 1. read: JSON Lines shards and Parquet, through Beam filesystems.
    records = p | "Read" >> ReadRawRecords(inputs.jsonl_patterns, inputs.parquet_files)

    # 2. validate: malformed JSON, missing title, wrong types -> invalid_input audit rows.
    valid = records | "ValidateInput" >> ValidateRawEntries()
    audits.append(valid["audit"])

    # Side inputs from a read of their own, so the pairs never wait for them (nothing
    # is held or spilled here): the global vocabulary of Baike relation names, and
    # the entries given more than once.
    scan = (p | "ReadForScan" >> ReadRawRecords(inputs.jsonl_patterns, inputs.parquet_files)
            | "ScanInput" >> ScanInput(cfg.input.vocabulary_min_count))

    # 2b. one copy per entry (newest fetched_at): the others -> duplicate_entry audit rows.
    unique = valid["raws"] | "DeduplicateEntries" >> DeduplicateEntries(cfg.cleaning, scan["duplicates"])
    audits.append(unique["audit"])
    raws = unique["raws"]
    vocabulary = scan["vocabulary"]

    # 3. redundant triple (§3.2): align each triple with the text, drop the unsupported.
    pairs = stage(raws, "RedundantTriple", STAGE_TRIPLE, RedundantTripleFilter(cfg.cleaning))["pairs"]

    # 4. redundant description (§3.2): position index, uncovered relation mentions, enumerations.
    pairs = stage(pairs, "RedundantDescription", STAGE_DESCRIPTION,
                  RedundantDescriptionFilter(cfg.cleaning, vocabulary))["pairs"]

    # 5. relation frequency (§3.2, App. B.1): global counts with a combiner, keep frequent relations.
    freq = stage(pairs, "RelationFrequency", STAGE_FREQUENCY,
                 RelationFrequencyFilter(cfg.relation_frequency, cfg.output.top_relations,
                                         FileSystems.join(spill, "frequency")))
    pairs = freq["pairs"]

    # 6. quality and organisation (§3.2, §4.1), each switchable in its BuildConfig section:
    #    relation review -> search co-occurrence -> entity typing -> domain -> split/subset.
    #    A new stage is a PTransform pairs -> {"pairs", "audit"} added here with its name in STAGE_ORDER.
    if cfg.relation_review is not None and cfg.relation_review.decisions:
        from pipeline.review_stage import ApplyRelationReview

        pairs = stage(pairs, "RelationReview", "relation_review", ApplyRelationReview(cfg.relation_review))["pairs"]

    if cfg.search.enabled:
        from pipeline.search_stage import ValidateBySearch

        pairs = stage(pairs, "SearchValidation", "search_validation", ValidateBySearch(cfg.search))["pairs"]

    # beyond the paper: coverage of the triples a pair keeps, after every stage that drops triples
    if cfg.cleaning.min_coverage > 0:
        pairs = stage(pairs, "Coverage", STAGE_COVERAGE, CoverageFilter(cfg.cleaning.min_coverage))["pairs"]

    if cfg.typing.enabled:
        from pipeline.domain_stage import STAGE_TYPING, TypeEntities

        pairs = stage(pairs, "EntityTyping", STAGE_TYPING, TypeEntities(cfg.typing))["pairs"]
    if cfg.domain.enabled:
        from pipeline.domain_stage import STAGE_DOMAIN, ClassifyDomain

        pairs = stage(pairs, "DomainClassification", STAGE_DOMAIN, ClassifyDomain(cfg.domain))["pairs"]

    # near-duplicate texts (issue 8 §8): MinHash LSH keyed by band bucket, one copy kept, before
    # the split so no copy can sit on the other side of it.
    if cfg.near_duplicate.enabled:
        from pipeline.neardup_stage import NEAR_DUPLICATE_STATS_FILE, ReduceNearDuplicates

        near = stage(pairs, "NearDuplicate", "near_duplicate",
                     ReduceNearDuplicates(cfg.near_duplicate, cfg.split if cfg.split.enabled else None,
                                          spill_dir=FileSystems.join(spill, "near_duplicate")))
        pairs = near["pairs"]
        near["stats"] | "WriteNearDuplicateStats" >> beam.Map(
            _write_json, FileSystems.join(out_dir, NEAR_DUPLICATE_STATS_FILE))

    # split/subset (§4.1) runs last: its strata use the domain and entity type set above.
    if cfg.split.enabled:
        from pipeline.split_stage import SPLIT_STATS_FILE, SplitAndSample

        split = stage(pairs, "Split", "split", SplitAndSample(cfg.split, spill_dir=FileSystems.join(spill, "split")))
        pairs = split["pairs"]
        split["stats"] | "WriteSplitStats" >> beam.Map(_write_json, FileSystems.join(out_dir, SPLIT_STATS_FILE))

    # 7. finalise: fate="kept" audit rows for every surviving pair and triple.
    final = stage(pairs, "Finalise", STAGE_FINALISE, Finalise())
    pairs = (final["pairs"]
             | "CountFinalised" >> count_flow((STAGE_FINALISE, "out"))
             | "TriplesPerPair" >> count_histogram(triples_bin)
             | "CoveragePerPair" >> count_coverage())

    # 7b. items (issue 8): QA/KGC/T2T/T2KG benchmark items from the final pairs; their
    #     audit rows (kind="item": eval items dropped for fact leakage) join the audit
    #     output but not the entry/triple funnel; stats.json counts them under "items".
    items = None
    item_audit = ()
    if cfg.items.enabled:
        from pipeline.items_stage import BuildItems

        cache = cfg.items.embed_cache or FileSystems.join(out_dir, EMBED_CACHE_DIR)
        built = pairs | "Items" >> BuildItems(cfg.items, out_dir, FileSystems.join(spill, "items"), cache)
        items = built["items"]
        item_audit = (built["audit"],)

    # 8. write: explicit schemas, deterministic balanced shards, Hive partitions for pairs.
    o = cfg.output
    shards = dict(num_shards=resolve_num_shards(cfg, inputs), row_group_size=o.row_group_size)
    written_pairs = pairs | "WritePairs" >> WriteParquetShards(
        FileSystems.join(out_dir, "pairs"), PAIR_SCHEMA, ("pair_id",), o.partition_by,
        spill_dir=FileSystems.join(spill, "pairs"), **shards)
    # Each stage's audit rows are counted and spilled where they are produced (no Flatten of rows).
    counted_audits = tuple(a | f"CountAudit[{i}]" >> count_audit() for i, a in enumerate(audits))
    written_audit = (
        counted_audits + item_audit
        | "WriteAudit" >> WriteParquetShards(FileSystems.join(out_dir, "audit"), AUDIT_SCHEMA, AUDIT_KEY,
                                           spill_dir=FileSystems.join(spill, "audit"), **shards)
    )
    written_discarded = (
        tuple(discarded)
        | "WriteDiscarded" >> WriteParquetShards(
            FileSystems.join(out_dir, "discarded_triples"), DISCARDED_TRIPLE_SCHEMA, DISCARDED_KEY,
            spill_dir=FileSystems.join(spill, "discarded"), **shards)
    )
    written_items = None
    if items is not None:
        from schemas.items import ITEM_SCHEMA

        item_shards = dict(shards, num_shards=cfg.items.num_shards or shards["num_shards"])
        written_items = items | "WriteItems" >> WriteParquetShards(
            FileSystems.join(out_dir, "items"), ITEM_SCHEMA, ("item_id",), ("task", "domain", "split"),
            spill_dir=FileSystems.join(spill, "items_out"), **item_shards)
    top = freq["top_relations"] | "WriteTopRelations" >> beam.Map(
        _write_json, FileSystems.join(out_dir, TOP_RELATIONS_FILE))
    # stats.json's top relations (Figure 6) are those of the pairs written above, not the
    # relation-frequency stage's, which later stages' drops leave behind (pipeline/stats.py).
    written_relations = (pairs | "WrittenRelations" >> CountWrittenRelations(o.top_relations)
                         | "WriteWrittenRelations" >> beam.Map(
                             _write_json, FileSystems.join(out_dir, WRITTEN_RELATIONS_FILE)))
    return BuildOutputs(written_pairs, written_audit, written_discarded, top, written_items, written_relations)
