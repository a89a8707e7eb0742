"""The cleaning stages (paper §3.2) as pure functions over a batch of pairs.

Each Beam stage in pipeline/cleaning.py calls one of these on the batch it
receives (pipeline/batch.py) and only routes the result to its outputs and
counters; the benchmark's plain loop calls the same functions, so the two
do exactly the same work. The decisions themselves are in transforms/; here
they meet the bookkeeping: stable pair and triple ids, and one audit row for
every entry and triple a stage drops (finalise writes the `kept` rows).

Pairs between stages are dicts shaped like PAIR_SCHEMA rows plus the private
keys `_entry_key` and `_source` (see pipeline/audit.py); every triple dict
carries its stable `triple_id`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline import audit
from pipeline.batch import items_of
from transforms import safejson
from transforms.coverage import coverage
from transforms.dedup import content_hash, copies, fetched_seconds, hash64
from transforms.pairs import entry_key, entry_to_pair, make_pair_id, make_triple_id, validate_raw_entry
from transforms.redundancy import CleaningConfig, check_coverage, check_redundant_description, clean_entry
from transforms.relations import apply_relation_filter, normalise_relation

STAGE_READ = "read"
DUPLICATE_ENTRY = "duplicate_entry"  # a read-stage reason, like invalid_input
STAGE_TRIPLE = "redundant_triple"
STAGE_DESCRIPTION = "redundant_description"
STAGE_FREQUENCY = "relation_frequency"
# beyond the paper, after every stage that drops triples (`--min-coverage`)
STAGE_COVERAGE = "coverage"
STAGE_FINALISE = "finalise"

# Keys that only carry bookkeeping between stages, never written to pairs/.
PRIVATE_KEYS = ("_entry_key", "_source")

_BOM = b"\xef\xbb\xbf"


@dataclass
class StepResult:
    """What one stage made of one batch."""

    pairs: list = field(default_factory=list)      # kept pairs (raw entries for validate)
    audit: list = field(default_factory=list)      # audit rows of what was dropped (or kept, at finalise)
    discarded: list = field(default_factory=list)  # discarded-triple rows (redundant triple only)
    blank: int = 0                                 # empty input lines (validate only): not entries
    triples_in: int = 0                            # triples of the raw entries (redundant triple only)


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
            obj, vouched = safejson.loads_and_vouch(line)
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, JSONTooDeep
            snippet = line[:80].decode("utf-8", "replace").rstrip()
            return None, _invalid(location, f"malformed JSON: {exc}; line starts {snippet!r}")
    else:
        obj, vouched = payload, False
        if isinstance(obj, dict) and "__unreadable__" in obj:  # pipeline.read.UNREADABLE: what the reader saw
            return None, _invalid(location, str(obj["__unreadable__"]))
    if isinstance(obj, dict) and isinstance(obj.get("title"), str):
        title = obj["title"]
    raw, detail = validate_raw_entry(obj, vouched)
    if raw is None:
        return None, _invalid(location, detail, title)
    return raw, None


def _invalid(location: str, detail: str | None, title: str | None = None) -> dict:
    return audit.audit_row(
        audit.ENTRY, audit.DROPPED, STAGE_READ, audit.INVALID_INPUT,
        entry_key=f"input:{location}", head=title, detail=f"{location}: {detail}", source=location,
    )


def validate_batch(records) -> StepResult:
    """(location, payload) records -> (raw entry, location) pairs + invalid_input rows."""
    out = StepResult()
    for location, payload in items_of(records):
        raw, bad = parse_record(location, payload)
        if bad is not None:
            out.audit.append(bad)
        elif raw is None:
            out.blank += 1
        else:
            out.pairs.append((raw, location))
    return out


# ------------------------------------------------- input scan: vocabulary, duplicates

# Entry copies are counted in this many groups (by key hash), so that on
# Dataflow no single worker has to hold the copies of every entry.
KEY_BUCKETS = 32


@dataclass
class InputScan:
    """What one pass over the raw input records finds, before any cleaning."""

    names: list = field(default_factory=list)   # infobox names, for the relation vocabulary
    copies: dict = field(default_factory=dict)  # bucket -> COPY array (transforms/dedup.py)


def _parsed(payload: Any) -> tuple[dict | None, bool]:
    """(the record's object if it has a title, else None; whether its strings are vouched for)."""
    vouched = False
    if isinstance(payload, (bytes, str)):
        if isinstance(payload, bytes) and payload.startswith(_BOM):
            payload = payload[len(_BOM):]
        try:
            payload, vouched = safejson.loads_and_vouch(payload)
        except ValueError:
            return None, False
    if not isinstance(payload, dict) or not isinstance(payload.get("title"), str) or not payload["title"].strip():
        return None, False
    return payload, vouched


def scan_batch(records, buckets: int = KEY_BUCKETS) -> InputScan:
    """Infobox names and entry copies of a batch of input records.

    The input is read in a pass of its own, so the pairs never wait for what
    it finds: the relation vocabulary (redundant-description filter) and the
    entries given more than once (deduplicate stage). That pass only parses
    JSON: a record with a title counts even if the validate stage rejects it
    for another field (rare: its names are still Baike relations).

    Only records that pass validation (the same validate_raw_entry as the
    validate stage) are copies: a newer copy with `"infobox": "broken"` once
    won, was then rejected as invalid_input, and the valid entry vanished
    with an audit that still added up. Validate first, then choose.
    """
    out = InputScan()
    rows: dict[int, list] = {}
    for location, payload in items_of(records):
        obj, vouched = _parsed(payload)
        if obj is None:
            continue
        infobox = obj.get("infobox")
        if isinstance(infobox, list):
            for item in infobox:
                name = item.get("name") if isinstance(item, dict) else None
                if isinstance(name, str) and name.strip():
                    out.names.append(name.strip())
        raw, _ = validate_raw_entry(obj, vouched)
        if raw is not None:
            kh = hash64(entry_key(raw))
            rows.setdefault(kh % buckets, []).append(
                (kh, fetched_seconds(raw["fetched_at"]), content_hash(payload), hash64(location)))
    out.copies = {bucket: copies(group) for bucket, group in rows.items()}
    return out


def deduplicate_batch(raws, keep: dict[int, int], cfg: CleaningConfig) -> StepResult:
    """Keep one copy of an entry given more than once (same lemma id, or same
    title and subtitle); every other copy is dropped with its triples.

    `keep` is {entry key hash: location hash of the copy to keep} (transforms/dedup.py).
    """
    out = StepResult()
    for raw, location in items_of(raws):
        key = entry_key(raw)
        winner = keep.get(hash64(key)) if keep else None
        if winner is None or winner == hash64(location):
            out.pairs.append((raw, location))
            continue
        pair = {**entry_to_pair(raw, cfg.pair), "_entry_key": key, "_source": location}
        out.audit.extend(audit.dropped_pair(
            pair, STAGE_READ, DUPLICATE_ENTRY,
            "another copy of this entry is kept (newer fetched_at, or as new and first in content-hash, "
            "then location-hash order): the audit rows of this entry_key with another source"))
    return out


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


def redundant_triple_batch(raws, cfg: CleaningConfig) -> StepResult:
    """(raw entry, location) -> aligned pairs; unsupported triples become
    audit rows and discarded-triple rows, entries left without a supported
    triple become audit rows."""
    out = StepResult()
    for raw, location in items_of(raws):
        key = entry_key(raw)
        result = clean_entry(raw, cfg)
        pair_id = result.pair_id or make_pair_id(key)
        kept = result.pair["triples"] if result.pair is not None else []
        kept, dropped_ids = assign_triple_ids(pair_id, kept, result.dropped_triples)
        out.triples_in += len(kept) + len(dropped_ids)
        ctx = {"pair_id": pair_id, "entity": raw.get("title"), "_entry_key": key, "_source": location,
               "source_url": raw.get("url")}
        for (t, reason, detail), tid in zip(result.dropped_triples, dropped_ids):
            out.audit.append(audit.triple_row(ctx, t, audit.DROPPED, STAGE_TRIPLE, reason, detail, triple_id=tid))
            if reason == "unsupported_by_text":
                out.discarded.append(_discarded_row(ctx, t, reason))
        if result.pair is None:
            out.audit.append(audit.entry_row(ctx, audit.DROPPED, STAGE_TRIPLE, result.pair_reason or "dropped",
                                             result.detail))
        else:
            out.pairs.append({**result.pair, "triples": kept, "_entry_key": key, "_source": location})
    return out


# ---------------------------------------------------------- redundant description

def redundant_description_batch(pairs, vocab, cfg: CleaningConfig) -> StepResult:
    """Keep pairs that pass the position index, uncovered-relation and enumeration checks."""
    out = StepResult()
    for pair in items_of(pairs):
        decision = check_redundant_description(pair, vocab, cfg)
        if decision.keep:
            out.pairs.append(decision.pair)
        else:
            out.audit.extend(audit.dropped_pair(decision.pair, STAGE_DESCRIPTION, decision.reason, decision.detail))
    return out


# ------------------------------------------------------------- relation frequency

def pair_relations(pairs, synonyms) -> list[str]:
    """Normalised relation of every triple of a batch, for the global counts."""
    return [normalise_relation(t["relation"], synonyms) for pair in items_of(pairs) for t in pair.get("triples") or []]


def written_relation_names(pairs) -> list[str]:
    """The relation of every triple of a batch of final pairs, as written to pairs/ (stats.json's top)."""
    return [t["relation"] for pair in items_of(pairs) for t in pair.get("triples") or []]


def relation_frequency_batch(pairs, kept_relations, synonyms) -> StepResult:
    """Drop triples of rare relations, and pairs left without triples."""
    out = StepResult()
    for pair in items_of(pairs):
        kept, dropped = apply_relation_filter(pair, kept_relations, synonyms)
        out.audit.extend(audit.dropped_triples(pair, STAGE_FREQUENCY, dropped))
        if kept is None:
            out.audit.append(audit.entry_row(pair, audit.DROPPED, STAGE_FREQUENCY, "no_triple_left",
                                             f"all {len(dropped)} triples have rare relations"))
        else:
            out.pairs.append(kept)
    return out


# ----------------------------------------------------------------------- coverage

def coverage_batch(pairs, min_coverage: float) -> StepResult:
    """Keep the pairs whose coverage of their final triples reaches `min_coverage` (`--min-coverage`)."""
    out = StepResult()
    for pair in items_of(pairs):
        decision = check_coverage(pair, min_coverage)
        if decision.keep:
            out.pairs.append(decision.pair)
        else:
            out.audit.extend(audit.dropped_pair(decision.pair, STAGE_COVERAGE, decision.reason, decision.detail))
    return out


# ---------------------------------------------------------------------- finalise

def finalise_batch(pairs) -> StepResult:
    """fate="kept" rows for each surviving pair and triple; pairs without private keys."""
    out = StepResult()
    for pair in items_of(pairs):
        out.audit.extend(audit.kept_rows(pair, STAGE_FINALISE))
        final = {k: v for k, v in pair.items() if k not in PRIVATE_KEYS}
        # coverage of the triples that survived every stage (issue 10)
        final["coverage"] = coverage(final.get("text") or "", final.get("triples") or ())
        out.pairs.append(final)
    return out
