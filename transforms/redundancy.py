"""Redundant-triple and redundant-description filters (paper §3.2).

A CDTP pair must be strictly aligned in both directions:

* every triple is stated by the text: triples the text does not support are
  *redundant triples*; they are removed from the pair and kept as auxiliary
  data (the discarded-triples output). A pair left with no supported triple
  is discarded (`clean_entry`, stage "redundant_triple");
* the text says nothing the triples do not hold: text beyond the triples is
  a *redundant description*. The paper measures it with the position index,
  the end offset of the last matched triple divided by the text length; a
  pair is kept only above 0.75. We add two checks on the text after the last
  matched triple and on enumerations, both explainable by the evidence they
  name (`check_redundant_description`, stage "redundant_description").
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import Any

from transforms.align import AlignConfig, align_context, align_triple, find_quantities
from transforms.cells import PairConfig
from transforms.pairs import NAME_FORM_RELATIONS, entity_names, pair_with_aliases
from transforms.relations import normalise_relation
from transforms.text import SENTENCE_END, normalise
from transforms.coverage import coverage
from transforms.trivial import trivial_reason

STAGE_TRIPLE = "redundant_triple"
STAGE_DESCRIPTION = "redundant_description"


@dataclass
class CleaningConfig:
    """Configuration of both §3.2 filters."""

    pair: PairConfig = field(default_factory=PairConfig)
    align: AlignConfig = field(default_factory=AlignConfig)
    # Paper: keep a pair only if its position index is above this.
    position_index_threshold: float = 0.75
    # Beyond the paper, off by default: cut the text after the sentence holding
    # the last matched triple instead of judging the whole summary.
    trim_mode: bool = False
    # Check the text after the last matched triple for relation mentions.
    check_relation_mentions: bool = True
    # Relation names shorter than this are not looked for (one-character
    # infobox names like 号 or 字 are ordinary words in running text).
    min_mention_length: int = 2
    max_mention_length: int = 8
    # Mentions never counted as redundant description (configurable stoplist).
    ignore_mentions: frozenset[str] = field(default_factory=frozenset)
    # Beyond the paper, off by default: a measured quantity (a number with a
    # unit: 2.4英寸, 3张专辑, 500万美元) after the last matched triple is a
    # fact no triple holds. Dates and ages (unit dimension "time") and bare
    # numbers are not judged.
    check_quantity_mentions: bool = False
    # Check that every item of an enumeration is grounded in a triple.
    check_enumerations: bool = True
    # '、' always separates list items; these also do when every item is short
    # (a comma between clauses is not a list).
    enumeration_separators: tuple[str, ...] = ("、",)
    short_item_separators: tuple[str, ...] = ("，", ",", "；", ";")
    enumeration_max_item_length: int = 8
    min_short_items: int = 3
    # "grounded": enumerations with at least one grounded item or lying in the
    # text after the last matched triple; "all": every enumeration.
    enumeration_scope: str = "grounded"
    # Synonym map used to decide whether a relation mention is covered; None
    # = the bundled map (transforms/resources/relation_synonyms.json).
    relation_synonyms: dict[str, str] | None = None
    # Drop repeated (relation, tail) triples of one pair (keeps the first).
    drop_duplicate_triples: bool = True
    # Issue 10: cue words per relation mined from the input (transforms/cue_mining.py),
    # used by the role check like the bundled cue table; None = the table only.
    mined_cues: dict[str, tuple[str, ...]] | None = None
    # Beyond the paper, off by default (0): drop a pair whose coverage (share
    # of its text's clauses holding a kept triple's support; transforms/coverage.py)
    # is below this, with reason coverage_below_threshold, in the `coverage`
    # stage after every stage that drops triples (check_coverage).
    min_coverage: float = 0.0
    # A "summary" longer than this is a whole article, not a CDTP text; it is
    # dropped (reason text_too_long) instead of being scanned. 0 = no limit.
    max_text_length: int = 10_000
    # An entry of more triples than this (after the multi-value split) is no
    # CDTP pair either: the largest of the real corpora has 118. Each triple's
    # mentions read their clause's cues, so without this bound one hostile
    # entry (20,000 rows over one clause of 2,475 cues) cost 16 s; it is
    # dropped (reason too_many_triples) instead. 0 = no limit.
    max_triples: int = 1_000

    def __post_init__(self) -> None:
        if not 0.0 <= self.position_index_threshold <= 1.0:
            raise ValueError(f"position_index_threshold must be in [0, 1], not {self.position_index_threshold}")
        if self.enumeration_scope not in ("grounded", "all"):
            raise ValueError(f"enumeration_scope must be 'grounded' or 'all', not {self.enumeration_scope!r}")
        if not 0.0 <= self.min_coverage <= 1.0:
            raise ValueError(f"min_coverage must be in [0, 1], not {self.min_coverage}")
        if not 1 <= self.min_mention_length <= self.max_mention_length:
            raise ValueError("need 1 <= min_mention_length <= max_mention_length")
        if self.min_short_items < 2:
            raise ValueError("min_short_items must be >= 2")


@dataclass
class CleanResult:
    """Fate of one raw entry in the redundant-triple stage.

    `dropped_triples` accounts for EVERY input triple that is not in
    `pair["triples"]`, as (triple, reason, detail): "unsupported_by_text"
    (the paper's redundant triples, auxiliary data), "duplicate_triple",
    or "pair_dropped:<pair_reason>" for triples lost with their pair. So
    input triples = kept triples + dropped_triples, always.
    """

    pair: dict | None
    dropped_triples: list[tuple[dict, str, str]]
    pair_reason: str | None = None
    detail: str = ""
    # The pair before the stage (even when dropped), for pair_id/entity in audit rows.
    pair_id: str | None = None


@dataclass
class Decision:
    """Fate of one pair in the redundant-description stage."""

    keep: bool
    reason: str | None
    detail: str
    pair: dict


def _j(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


def position_index(pair: dict) -> float:
    """End offset of the last matched triple / text length (0.0 when none)."""
    n = len(pair.get("text") or "")
    ends = [t["end"] for t in pair.get("triples") or [] if t.get("end") is not None]
    if not n or not ends:
        return 0.0
    return max(ends) / n


def clean_entry(raw: dict, cfg: CleaningConfig | None = None,
                mined_cues: dict[str, tuple[str, ...]] | None = None) -> CleanResult:
    """Redundant-triple stage for one validated raw entry.

    Builds the pair, aligns every triple with the text (transforms/align.py)
    and removes the triples the text does not support; the pair is dropped
    when its text is empty, it has no triples, or none is supported.
    """
    cfg = cfg or CleaningConfig()
    pair, aliases = pair_with_aliases(raw, cfg.pair)
    text = pair["text"]
    triples = pair["triples"]
    pid = pair["pair_id"]
    if not triples:
        return CleanResult(None, [], "no_triples", "the entry has no infobox triple", pid)
    if not text.strip():
        reason = "empty_text"
        return CleanResult(None, [(t, f"pair_dropped:{reason}", "the entry has no summary text") for t in triples],
                           reason, f"no summary text; {len(triples)} triples", pid)
    if cfg.max_text_length and len(text) > cfg.max_text_length:
        reason = "text_too_long"
        return CleanResult(None, [(t, f"pair_dropped:{reason}", "") for t in triples], reason,
                           f"text has {len(text)} characters (limit {cfg.max_text_length})", pid)
    if cfg.max_triples and len(triples) > cfg.max_triples:
        reason = "too_many_triples"
        return CleanResult(None, [(t, f"pair_dropped:{reason}", "") for t in triples], reason,
                           f"the entry has {len(triples)} triples (limit {cfg.max_triples})", pid)
    # A value that is the entity's title (中文名 = title) is named by a form of
    # that name (its 简称, its 外文名, a unit's part of a title named after its
    # parent), not by its other names (rules 1 and 6 of docs/alignment.md: a
    # poet's `号` in the text, `涑水先生`, is no mention of `中文名 司马光`).
    title_names = None
    ntitle = normalise(pair["entity"])
    kept: list[dict] = []
    dropped: list[tuple[dict, str, str]] = []
    seen: set[tuple[str, str]] = set()
    levels = None
    ctx = align_context(raw, text, triples, cfg.align, mined_cues if mined_cues is not None else cfg.mined_cues)
    for t, al in zip(triples, aliases):
        tail = t["tail"]
        if not tail.strip():
            dropped.append((t, "unsupported_by_text", "empty value"))
            continue
        ntail = normalise(tail)
        key = (t["relation"], ntail or tail)
        if cfg.drop_duplicate_triples and key in seen:
            dropped.append((t, "duplicate_triple", f"repeats ({t['relation']}, {tail}) of this entry"))
            continue
        seen.add(key)
        if ntitle and ntail == ntitle:
            if title_names is None:
                title_names = entity_names(raw, NAME_FORM_RELATIONS)
            al = (*al, *[n for n in title_names if n != tail])
        hit, why = align_triple(tail, text, al, cfg.align, t["relation"], ctx)
        if hit is None:
            if not why and levels is None:
                levels = _levels_tried(cfg.align)
            detail = why or f"value not found in text at {levels}"
            if al:
                detail += f"; aliases tried: {'|'.join(al[:5])}"
            dropped.append((t, "unsupported_by_text", detail))
            continue
        kept.append({**t, "start": hit.start, "end": hit.end, "match": hit.match, "cue": hit.cue,
                     "support_score": hit.support_score,
                     "trivial": trivial_reason(t["head"], t["relation"], tail) is not None})
    if not kept:
        reason = "no_supported_triple"
        return CleanResult(None, dropped, reason,
                           f"none of {len(triples)} triples is supported by the text", pid)
    out = {**pair, "triples": kept, "num_triples": len(kept)}
    out["position_index"] = position_index(out)
    out["coverage"] = coverage(text, kept)
    return CleanResult(out, dropped, None, "", pid)


def _levels_tried(a: AlignConfig) -> str:
    """What a value not found was looked for at: `any level`, or the levels
    that were on when a config switched some off. Naming all sixteen on
    every such audit row made them 46 M of the 75 M characters of detail
    in the 100k-entry benchmark's audit, to be converted, sorted and
    compressed, and said nothing the config does not."""
    return _levels_named(_LEVEL_SWITCHES(a))


# The switches of AlignConfig.LEVELS, read in one call: a miss's detail is
# written for most entries, and the switches are few and rarely changed.
_LEVEL_SWITCHES = attrgetter(*(f for _, f in AlignConfig.LEVELS))


@lru_cache(maxsize=64)
def _levels_named(switches: tuple[bool, ...]) -> str:
    on = [name for (name, _), switch in zip(AlignConfig.LEVELS, switches) if switch]
    return "any level" if len(on) == len(AlignConfig.LEVELS) else "levels " + ",".join(on)


# ------------------------------------------------------------ redundant description

def _sentence_end(text: str, pos: int) -> int:
    """Index just after the sentence that holds position `pos - 1`."""
    for i in range(max(pos, 0), len(text)):
        if text[i] in SENTENCE_END:
            return i + 1
    return len(text)


def _covered(spans: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(a < e and s < b for a, b in spans)


def find_relation_mentions(segment: str, offset: int, vocab: frozenset[str], masked: list[tuple[int, int]],
                           cfg: CleaningConfig) -> list[tuple[int, int, str]]:
    """Vocabulary relation names in `segment` (longest first, no overlaps),
    skipping masked spans; offsets are in the pair text (segment + offset)."""
    out: list[tuple[int, int, str]] = []
    n = len(segment)
    i = 0
    lo, hi = cfg.min_mention_length, cfg.max_mention_length
    starts = _mention_starts(vocab, lo, hi) if isinstance(vocab, frozenset) else None
    while i < n:
        if starts is not None and segment[i:i + lo] not in starts:
            i += 1  # no name of the vocabulary starts here
            continue
        hit = None
        for L in range(min(hi, n - i), lo - 1, -1):
            w = segment[i:i + L]
            if w in vocab and w not in cfg.ignore_mentions:
                hit = w
                break
        if hit is not None and not _covered(masked, offset + i, offset + i + len(hit)):
            out.append((offset + i, offset + i + len(hit), hit))
            i += len(hit)
        else:
            i += 1
    return out


@lru_cache(maxsize=8)
def _mention_starts(vocab: frozenset[str], lo: int, hi: int) -> frozenset[str]:
    """The first `lo` characters of every vocabulary name of a length the
    mentions are looked for at: most positions of a text start none, and are
    passed after one look-up instead of one per length."""
    return frozenset(w[:lo] for w in vocab if lo <= len(w) <= hi)


def _relation_covers(mention: str, relations: set[str]) -> bool:
    return mention in relations or any(mention in r or (len(r) >= 2 and r in mention) for r in relations)


# Quotes and title marks do not end a clause: `入选“甲计划”、“乙计划”` is one list.
_CLAUSE_STOPS = SENTENCE_END | frozenset("，,：:（）()【】[]")


@lru_cache(maxsize=32)
def _sep_regex(seps: frozenset[str]) -> re.Pattern:
    return re.compile("[" + "".join(re.escape(c) for c in sorted(seps)) + "]")


def _split_spans(text: str, start: int, end: int, seps: frozenset[str]) -> list[tuple[int, int]]:
    """Sub-spans of text[start:end] between separator characters (digits
    around ',' '/' do not separate: 3,000 and 2019/5 stay whole)."""
    out, s = [], start
    n = len(text)
    for m in _sep_regex(seps).finditer(text, start, end):
        i = m.start()
        ch = text[i]
        if ch in ",/" and 0 < i < n - 1 and text[i - 1].isdigit() and text[i + 1].isdigit():
            continue
        out.append((s, i))
        s = i + 1
    out.append((s, end))
    return out


@lru_cache(maxsize=8)
def _enumeration_marks(enumeration_separators: tuple[str, ...], short_item_separators: tuple[str, ...]):
    """(separators, short-item separators, clause stops, sentence stops, and
    the characters the separators split on) of a config."""
    seps = frozenset(enumeration_separators)
    short = frozenset(short_item_separators)
    return (seps, short, (_CLAUSE_STOPS | short) - seps,
            (SENTENCE_END | frozenset("：:（）()")) - short if short else frozenset(),
            frozenset("".join(seps)), frozenset("".join(short)))


def find_enumerations(text: str, cfg: CleaningConfig) -> list[list[tuple[int, int]]]:
    """Enumerations in the text, each as its item spans.

    * items separated by `enumeration_separators` (、) inside one clause:
      `周星驰、巩俐、郑佩佩`;
    * items separated by `short_item_separators` (，；) inside one sentence
      when there are at least `min_short_items` of them and every one is at
      most `enumeration_max_item_length` characters: `导演，编剧，演员`.
      A comma usually separates clauses, hence the stricter rule.
    """
    seps, short, clause_stops, sentence_stops, sep_chars, short_chars = _enumeration_marks(
        cfg.enumeration_separators, cfg.short_item_separators)
    out: list[list[tuple[int, int]]] = []
    if any(c in text for c in sep_chars):  # else no clause holds a separator
        for cs, ce in _split_spans(text, 0, len(text), clause_stops):
            if _sep_regex(seps).search(text, cs, ce) is None:
                continue
            items = [(s, e) for s, e in _split_spans(text, cs, ce, seps) if e > s]
            if len(items) >= 2:
                out.append(items)
    if short:
        for ss, se in _split_spans(text, 0, len(text), sentence_stops):
            if sum(text.count(c, ss, se) for c in short_chars) + 1 < cfg.min_short_items:
                continue  # too few separators for enough items
            items = [(s, e) for s, e in _split_spans(text, ss, se, short) if e > s]
            if (len(items) >= cfg.min_short_items
                    and all(e - s <= cfg.enumeration_max_item_length for s, e in items)
                    and _sep_regex(seps).search(text, ss, se) is None):
                out.append(items)
    return out


def _grounded(item: tuple[int, int], text: str, spans: list[tuple[int, int]], ntails: list[str]) -> bool:
    s, e = item
    if _covered(spans, s, e):
        return True
    nitem = normalise(text[s:e])
    if not nitem:
        return True  # punctuation only
    return any(nt and (nt in nitem or (len(nitem) >= 2 and nitem in nt)) for nt in ntails)


def _uncovered_clauses(text: str, triples: list[dict]) -> list[str]:
    from transforms.coverage import clause_spans

    spans = [(t["start"], t["end"]) for t in triples if t.get("end") is not None]
    return [text[s:e][:30] for s, e in clause_spans(text) if not _covered(spans, s, e)]


def check_coverage(pair: dict, min_coverage: float) -> Decision:
    """Beyond the paper (`--min-coverage`): keep a pair whose text's clauses
    hold the support of its triples at least this share (transforms/coverage.py).

    It runs after every stage that drops triples (relation frequency, review,
    search validation), on the triples the pair is written with, so no
    written pair has a `coverage` below the threshold."""
    text = pair.get("text") or ""
    triples = pair.get("triples") or []
    cov = coverage(text, triples)
    pair = {**pair, "coverage": cov}
    if (cov or 0.0) < min_coverage:
        return Decision(False, "coverage_below_threshold",
                        _j({"coverage": round(cov or 0.0, 4), "threshold": min_coverage,
                            "uncovered_clauses": _uncovered_clauses(text, triples)[:3]}), pair)
    return Decision(True, None, "", pair)


def check_redundant_description(pair: dict, relation_vocab: frozenset[str],
                                cfg: CleaningConfig | None = None) -> Decision:
    """Redundant-description stage for one aligned pair (output of clean_entry).

    1. position index above the threshold (paper), after trimming in trim mode;
       (coverage, beyond the paper, is checked later: `check_coverage`);
    2. the text after the last matched triple names no relation of the global
       vocabulary (`relation_vocab`, all Baike infobox names) that no triple
       of the pair covers;
    3. every item of an enumeration is grounded in a triple;
    4. beyond the paper: no measured quantity (number + unit) is stated after
       the last matched triple outside any triple (`check_quantity_mentions`).
    Checks run in this order; the first that fails gives the reason.
    """
    cfg = cfg or CleaningConfig()
    text = pair.get("text") or ""
    triples = pair.get("triples") or []
    spans = [(t["start"], t["end"]) for t in triples if t.get("end") is not None]
    if not text or not spans:
        return Decision(False, "no_matched_triple", "no triple of the pair is aligned with the text", pair)
    last_end = max(e for _, e in spans)
    detail_prefix = {}
    if cfg.trim_mode:
        cut = _sentence_end(text, last_end)
        if cut < len(text):
            detail_prefix = {"trimmed_chars": len(text) - cut}
            text = text[:cut]
            pair = {**pair, "text": text, "text_length": len(text)}
    pi = last_end / len(text)
    # clean_entry took the coverage of this text and these triples already;
    # a trimmed text has fewer clauses (finalise takes it afresh in any case,
    # after the relation-frequency stage may have dropped triples).
    cov = pair.get("coverage")
    if cov is None or detail_prefix:
        cov = coverage(text, triples)
    pair = {**pair, "position_index": pi, "coverage": cov}
    if not pi > cfg.position_index_threshold:
        return Decision(False, "position_index_below_threshold",
                        _j({**detail_prefix, "position_index": round(pi, 4),
                            "threshold": cfg.position_index_threshold,
                            "untouched_text": text[last_end:last_end + 60]}), pair)
    # A mention is covered by a triple of the same relation under any of its
    # names: raw, normalised, or canonical through the synonym map
    # (出生时间 in the text is covered by an 出生日期 triple).
    syn = cfg.relation_synonyms
    relations = {t["relation"] for t in triples} | {normalise(t["relation"]) for t in triples}
    relations |= {normalise_relation(r, syn) for r in list(relations)}
    masked = list(spans)
    if last_end < len(text) and (cfg.check_relation_mentions or cfg.check_quantity_mentions):
        for name in {pair.get("entity") or "", *(t["tail"] for t in triples)}:
            if len(name) >= 2:
                j = text.find(name, last_end)
                while j != -1:
                    masked.append((j, j + len(name)))
                    j = text.find(name, j + 1)
    if cfg.check_relation_mentions and relation_vocab and last_end < len(text):
        for s, e, w in find_relation_mentions(text[last_end:], last_end, relation_vocab, masked, cfg):
            if not _relation_covers(w, relations) and normalise_relation(w, syn) not in relations:
                return Decision(False, "uncovered_relation_mention",
                                _j({**detail_prefix, "mention": w, "start": s, "end": e,
                                    "context": text[max(last_end, s - 10):e + 10],
                                    "relations": sorted({t["relation"] for t in triples})}), pair)
    if cfg.check_enumerations:
        ntails = [normalise(t["tail"]) for t in triples]
        for run in find_enumerations(text, cfg):
            grounded = [_grounded(it, text, spans, ntails) for it in run]
            in_scope = cfg.enumeration_scope == "all" or any(grounded) or run[0][0] >= last_end
            if in_scope and not all(grounded):
                bad = [text[s:e] for (s, e), g in zip(run, grounded) if not g]
                return Decision(False, "ungrounded_enumeration_item",
                                _j({**detail_prefix, "items": [text[s:e] for s, e in run],
                                    "ungrounded": bad}), pair)
    if cfg.check_quantity_mentions and last_end < len(text):
        tail_text = text[last_end:]
        for s, e, _amount, dim, _raw in find_quantities(tail_text):
            s, e = s + last_end, e + last_end
            if dim is None or dim == "time" or _covered(masked, s, e):
                continue
            if not text[s].isdigit() and e - s <= 2:
                continue  # 一款, 一位: an article, not a measured fact
            return Decision(False, "uncovered_quantity_mention",
                            _j({**detail_prefix, "quantity": text[s:e], "start": s, "end": e,
                                "context": text[max(last_end, s - 10):e + 10]}), pair)
    return Decision(True, None, _j({**detail_prefix, "position_index": round(pi, 4)}) if detail_prefix else "",
                    pair)
