"""Thin Beam wrappers of the cleaning stages (paper §3.2); logic lives in transforms/.

Each stage is a composite PTransform with a stable label, taking a
PCollection and returning {"pairs", "audit"} (plus "discarded_triples" for
the redundant-triple stage). Stages only emit audit rows for what they drop.

Elements between stages are pair dicts shaped like PAIR_SCHEMA rows, plus the
private keys `_entry_key` and `_source` (see pipeline/audit.py), and every
triple dict carries its stable `triple_id`.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

import apache_beam as beam

from pipeline import audit
from pipeline.funnel import BundleCounts
from pipeline.spill import ReadSpilled, SpillToFiles
from transforms.pairs import entry_key, make_pair_id, make_triple_id, validate_raw_entry
from transforms.redundancy import CleaningConfig, check_redundant_description, clean_entry
from transforms.relations import (
    RelationFrequencyConfig,
    apply_relation_filter,
    normalise_relation,
    relation_vocabulary,
    select_relations,
    top_relations,
)

STAGE_READ = "read"
STAGE_TRIPLE = "redundant_triple"
STAGE_DESCRIPTION = "redundant_description"
STAGE_FREQUENCY = "relation_frequency"
STAGE_FINALISE = "finalise"

_BOM = b"\xef\xbb\xbf"


# ----------------------------------------------------------------------- validate

def parse_record(location: str, payload: Any) -> tuple[dict | None, dict | None]:
    """(validated raw entry, None) or (None, invalid_input audit row); (None, None) for a blank line.

    `location` is `file@byte_offset` (JSON Lines) or `file#row=N` (Parquet),
    so every rejected record can be found again.
    """
    title = None
    if isinstance(payload, (bytes, str)):
        line = payload.encode("utf-8") if isinstance(payload, str) else payload
        if line.startswith(_BOM):
            line = line[len(_BOM):]
        if not line.strip():
            return None, None
        try:
            obj = json.loads(line)
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
            snippet = line[:80].decode("utf-8", "replace").rstrip()
            return None, _invalid(location, f"malformed JSON: {exc}; line starts {snippet!r}")
    else:
        obj = payload
        if isinstance(obj, dict) and "__unreadable__" in obj:
            return None, _invalid(location, f"unreadable Parquet file: {obj['__unreadable__']}")
    if isinstance(obj, dict) and isinstance(obj.get("title"), str):
        title = obj["title"]
    raw, detail = validate_raw_entry(obj)
    if raw is None:
        return None, _invalid(location, detail, title)
    return raw, None


def _invalid(location: str, detail: str | None, title: str | None = None) -> dict:
    return audit.audit_row(
        audit.ENTRY, audit.DROPPED, STAGE_READ, audit.INVALID_INPUT,
        entry_key=f"input:{location}", head=title, detail=f"{location}: {detail}", source=location,
    )


class _ValidateFn(BundleCounts, beam.DoFn):
    def process(self, records):
        # The readers emit batches (lists) of records; a single record is a tuple.
        counts = self._counts
        for location, payload in records if isinstance(records, list) else (records,):
            raw, bad = parse_record(location, payload)
            if raw is None and bad is None:
                counts[_BLANK] = counts.get(_BLANK, 0) + 1  # an empty line is not an entry
                continue
            counts[_READ_IN] = counts.get(_READ_IN, 0) + 1
            if bad is not None:
                yield beam.pvalue.TaggedOutput("audit", bad)
            else:
                counts[_READ_OUT] = counts.get(_READ_OUT, 0) + 1
                yield (raw, location)


_BLANK = "read|blank_lines"
_READ_IN = f"flow|{STAGE_READ}|in|entries"
_READ_OUT = f"flow|{STAGE_READ}|out|entries"


class ValidateRawEntries(beam.PTransform):
    """(location, payload) records, or lists of them -> {"raws": (raw entry, location), "audit": invalid_input rows}."""

    def expand(self, records):
        out = records | "Validate" >> beam.ParDo(_ValidateFn()).with_outputs("audit", main="raws")
        return {"raws": out.raws, "audit": out.audit}


# ------------------------------------------------------------ relation vocabulary

def _infobox_names(element) -> list[str]:
    raw, _ = element
    return [item["name"].strip() for item in raw.get("infobox") or [] if item.get("name", "").strip()]


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


class RelationVocabulary(beam.PTransform):
    """Global vocabulary of Baike relation names, from every valid raw entry.

    Counted with a combiner (partial Counters on each worker), so only
    distinct names cross the shuffle. Returns a single-element
    PCollection holding a frozenset, for use as a side input.
    """

    def __init__(self, min_count: int = 1):
        super().__init__()
        self.min_count = min_count

    def expand(self, raws):
        min_count = self.min_count
        return (
            raws
            | "CountNames" >> beam.CombineGlobally(CountNames(_infobox_names))
            | "Vocabulary" >> beam.Map(relation_vocabulary, min_count)
        )


# --------------------------------------------------------------- redundant triple

def assign_triple_ids(pair_id: str, kept: list[dict], dropped: list[tuple[dict, str, str]]) -> tuple[list[dict], list[str]]:
    """Stable triple ids for one entry's input triples after clean_entry.

    The ordinal tells apart repeats of (relation, tail). clean_entry keeps the
    first of a repeated (relation, normalised tail) and reports the others as
    duplicates, so a kept triple is always the first of its group: kept
    triples take ordinals first, then dropped ones in input order.
    """
    seen: dict[tuple, int] = {}

    def next_id(t: dict) -> str:
        k = (t.get("relation"), t.get("tail"))
        n = seen.get(k, 0)
        seen[k] = n + 1
        return make_triple_id(pair_id, t.get("relation"), t.get("tail"), n)

    kept_out = [{**t, "triple_id": next_id(t)} for t in kept]
    dropped_ids = [next_id(t) for t, _, _ in dropped]
    return kept_out, dropped_ids


def _discarded_row(pair: dict, triple: dict, reason: str) -> dict:
    return {
        "pair_id": pair.get("pair_id"),
        "entity": pair.get("entity"),
        "head": triple.get("head"),
        "relation": triple.get("relation"),
        "tail": triple.get("tail"),
        "stage": STAGE_TRIPLE,
        "reason": reason,
        "source_url": pair.get("source_url"),
    }


_TRIPLES_IN = f"flow|{STAGE_TRIPLE}|in|triples"


class _RedundantTripleFn(BundleCounts, beam.DoFn):
    def __init__(self, cfg: CleaningConfig):
        self.cfg = cfg

    def process(self, element):
        raw, location = element
        key = entry_key(raw)
        result = clean_entry(raw, self.cfg)
        pair_id = result.pair_id or make_pair_id(key)
        kept = result.pair["triples"] if result.pair is not None else []
        kept, dropped_ids = assign_triple_ids(pair_id, kept, result.dropped_triples)
        # Raw entries have no triples before splitting: count them here.
        self._counts[_TRIPLES_IN] = self._counts.get(_TRIPLES_IN, 0) + len(kept) + len(dropped_ids)
        ctx = {"pair_id": pair_id, "entity": raw.get("title"), "_entry_key": key, "_source": location,
               "source_url": raw.get("url")}
        rows, discarded = [], []
        for (t, reason, detail), tid in zip(result.dropped_triples, dropped_ids):
            rows.append(audit.triple_row(ctx, t, audit.DROPPED, STAGE_TRIPLE, reason, detail, triple_id=tid))
            if reason == "unsupported_by_text":
                discarded.append(_discarded_row(ctx, t, reason))
        if result.pair is None:
            rows.append(audit.entry_row(ctx, audit.DROPPED, STAGE_TRIPLE, result.pair_reason or "dropped",
                                        result.detail))
        # One element per entry (a list of rows): see pipeline/funnel.py.
        if rows:
            yield beam.pvalue.TaggedOutput("audit", rows)
        if discarded:
            yield beam.pvalue.TaggedOutput("discarded", discarded)
        if result.pair is not None:
            yield {**result.pair, "triples": kept, "_entry_key": key, "_source": location}


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

    def process(self, pair, vocab):
        decision = check_redundant_description(pair, vocab, self.cfg)
        if decision.keep:
            yield decision.pair
        else:
            yield beam.pvalue.TaggedOutput(
                "audit", audit.dropped_pair(decision.pair, STAGE_DESCRIPTION, decision.reason, decision.detail))


class RedundantDescriptionFilter(beam.PTransform):
    """Position index + uncovered relation mentions + ungrounded enumerations."""

    def __init__(self, cfg: CleaningConfig, vocabulary, spill_dir: str | None = None):
        super().__init__()
        self.cfg = cfg
        self.vocabulary = vocabulary  # single-element PCollection[frozenset]
        self.spill_dir = spill_dir  # where pairs wait for the vocabulary (None: in the runner)

    def expand(self, pairs):
        if self.spill_dir:
            pairs = pairs | "SpillPairs" >> SpillToFiles(self.spill_dir, "description") | "ReadPairs" >> ReadSpilled()
        out = pairs | "CheckDescription" >> beam.ParDo(
            _RedundantDescriptionFn(self.cfg), vocab=beam.pvalue.AsSingleton(self.vocabulary)
        ).with_outputs("audit", main="pairs")
        return {"pairs": out.pairs, "audit": out.audit}


# ------------------------------------------------------------- relation frequency

def _pair_relations(pair: dict, synonyms) -> list[str]:
    return [normalise_relation(t["relation"], synonyms) for t in pair.get("triples") or []]


def _top_summary(counts: dict, top_n: int, cfg: RelationFrequencyConfig) -> dict:
    kept = select_relations(counts, cfg)
    return {"top": [[r, c] for r, c in top_relations(counts, top_n)], "distinct": len(counts), "kept": len(kept)}


class _RelationFilterFn(beam.DoFn):
    def __init__(self, synonyms):
        self.synonyms = dict(synonyms) if synonyms is not None else None

    def process(self, pair, kept_relations):
        out, dropped = apply_relation_filter(pair, kept_relations, self.synonyms)
        rows = [audit.triple_row(pair, t, audit.DROPPED, STAGE_FREQUENCY, reason, detail)
                for t, reason, detail in dropped]
        if out is None:
            rows.append(audit.entry_row(pair, audit.DROPPED, STAGE_FREQUENCY, "no_triple_left",
                                        f"all {len(dropped)} triples have rare relations"))
        if rows:
            yield beam.pvalue.TaggedOutput("audit", rows)
        if out is not None:
            yield out


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
            | "CountRelations" >> beam.CombineGlobally(CountNames(_pair_relations, synonyms))
        )
        kept = counts | "SelectRelations" >> beam.Map(select_relations, cfg)
        top = counts | "TopRelations" >> beam.Map(_top_summary, top_n, cfg)
        if self.spill_dir:
            pairs = pairs | "SpillPairs" >> SpillToFiles(self.spill_dir, "frequency") | "ReadPairs" >> ReadSpilled()
        out = pairs | "FilterRelations" >> beam.ParDo(
            _RelationFilterFn(synonyms), kept_relations=beam.pvalue.AsSingleton(kept)
        ).with_outputs("audit", main="pairs")
        return {"pairs": out.pairs, "audit": out.audit, "top_relations": top}


# ---------------------------------------------------------------------- finalise

PRIVATE_KEYS = ("_entry_key", "_source")


class _FinaliseFn(beam.DoFn):
    def process(self, pair):
        yield beam.pvalue.TaggedOutput("audit", audit.kept_rows(pair, STAGE_FINALISE))
        yield {k: v for k, v in pair.items() if k not in PRIVATE_KEYS}


class Finalise(beam.PTransform):
    """Emit fate="kept" audit rows for each surviving pair and triple."""

    def expand(self, pairs):
        out = pairs | "KeptRows" >> beam.ParDo(_FinaliseFn()).with_outputs("audit", main="pairs")
        return {"pairs": out.pairs, "audit": out.audit}
