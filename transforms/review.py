"""Relation review: review sheets, annotator agreement and the relation decision file.

The paper had annotators double-check every relation type and kept those with
over 90% inter-annotator agreement. This module is the pure logic behind
``cdtp review export``/``import`` and ``cdtp build --relation-review``:

* **Sheets.** One CSV per relation type with N sampled pairs (one item = one
  triple of that relation in one pair, shown with the sentence that holds it).
  Sampling takes the pairs with the smallest seeded hash of ``item_id``, so the
  same build and seed always give the same sheet, whatever the file order.
  The relation's real name is a column; the file name is an encoded,
  filesystem-safe form of it (:func:`relation_filename`).
* **Agreement.** Per relation: percent agreement p_o and Cohen's kappa
  ``(p_o - p_e) / (1 - p_e)`` with p_e from each annotator's own label rates.
  Degenerate case: when both annotators used one and the same label for every
  item, p_e = 1 and kappa is 0/0 (undefined). The agreement is then perfect,
  so kappa is reported as 1.0 and flagged ``kappa_degenerate: true``.
* **Decision.** A relation is ``accepted`` when agreement >= min_agreement
  (0.9) AND the items both annotators accepted are at least min_accept_share
  (0.5) of its items, i.e. a majority of the sample is accepted by both;
  otherwise it is ``rejected`` with reason ``low_agreement`` (annotators do not
  agree well enough to trust the relation) or ``annotators_rejected``.
* **Applying.** ``cdtp build --relation-review FILE`` drops triples whose
  relation is rejected; relations absent from the file were not reviewed and
  are kept (or dropped with ``unreviewed="drop"``).
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from transforms import safejson

ACCEPT = "accept"
REJECT = "reject"
LABELS = (ACCEPT, REJECT)

SHEET_COLUMNS = (
    "item_id",
    "relation",
    "head",
    "tail",
    "text",
    "span",
    "decision",
    "annotator",
    "note",
    "pair_id",
    "entity",
)
REQUIRED_COLUMNS = ("item_id", "relation", "decision")

DECISION_FORMAT = "cdtp.relation_review"
DECISION_VERSION = 1

# Sentence ends used to cut the sentence that holds a triple out of the text.
_SENTENCE_END = "。！？!?；;\n"


class ReviewError(ValueError):
    """A malformed sheet or decision file; the message names the file and row."""


# ------------------------------------------------------------------ file names

_SAFE = re.compile(r"[0-9A-Za-z_\-\u3400-\u9fff\uf900-\ufaff]")
_MAX_NAME_BYTES = 180  # well under the common 255-byte limit, leaving room for ".csv"


def relation_filename(relation: str) -> str:
    """A filesystem-safe, reversible file stem for a relation name.

    Letters, digits, ``_``, ``-`` and CJK ideographs stay as they are (so
    ``出生地`` stays readable); every other character, ``%`` included, becomes
    ``%XX`` per UTF-8 byte, so ``/``, ``..``, ``:``, spaces and control
    characters can never form a path. Names longer than 180 bytes are cut and
    given a hash suffix. Case-insensitive file systems are handled by the
    exporter (see :func:`sheet_filenames`).
    """
    if not relation:
        raise ReviewError("a relation name is empty")
    parts = []
    for ch in relation:
        if _SAFE.fullmatch(ch):
            parts.append(ch)
        else:
            parts.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    name = "".join(parts)
    if len(name.encode("utf-8")) > _MAX_NAME_BYTES:
        digest = hashlib.blake2b(relation.encode("utf-8"), digest_size=6).hexdigest()
        cut = name.encode("utf-8")[: _MAX_NAME_BYTES - 14].decode("utf-8", "ignore")
        cut = re.sub(r"%[0-9A-F]?$", "", cut)  # never leave half an escape
        name = f"{cut}~{digest}"
    return name


def decode_relation_filename(stem: str) -> str:
    """Inverse of relation_filename for names that were not shortened."""
    raw = bytearray()
    i = 0
    while i < len(stem):
        if stem[i] == "%" and re.fullmatch(r"[0-9A-F]{2}", stem[i + 1 : i + 3]):
            raw.append(int(stem[i + 1 : i + 3], 16))
            i += 3
        else:
            raw.extend(stem[i].encode("utf-8"))
            i += 1
    return raw.decode("utf-8")


_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}


def sheet_filenames(relations: Iterable[str]) -> dict[str, str]:
    """relation -> ``<stem>.csv``, unique even on case-insensitive file systems.

    ``ISBN`` and ``isbn`` would be one file on macOS/Windows: when two stems
    differ only by case, each gets a short hash of its real name appended.
    """
    stems = {r: relation_filename(r) for r in sorted(set(relations))}
    for r, s in stems.items():
        if s.upper() in _WINDOWS_RESERVED:  # CON.csv cannot be created on Windows
            stems[r] = f"{s}~"
    folded: dict[str, list[str]] = {}
    for r, s in stems.items():
        folded.setdefault(s.casefold(), []).append(r)
    out = {}
    for r, s in stems.items():
        if len(folded[s.casefold()]) > 1:
            s = f"{s}~{hashlib.blake2b(r.encode('utf-8'), digest_size=4).hexdigest()}"
        out[r] = f"{s}.csv"
    return out


# ------------------------------------------------------------------- sampling

def item_id(pair_id: str, triple: Mapping[str, Any]) -> str:
    """Stable id of one review item (a triple in a pair)."""
    key = "\x1f".join(str(triple.get(k) or "") for k in ("head", "relation", "tail", "start"))
    return f"{pair_id}-{hashlib.blake2b(key.encode('utf-8'), digest_size=5).hexdigest()}"


def _rank(seed: int, iid: str) -> int:
    """Seeded 128-bit rank of an item: ties are practically impossible, so order never matters."""
    h = hashlib.blake2b(f"{seed}\x1freview\x1f{iid}".encode("utf-8"), digest_size=16).digest()
    return int.from_bytes(h, "big")


def holding_sentence(text: str, start: int | None, end: int | None) -> str:
    """The sentence of ``text`` that contains [start, end); the whole text without offsets."""
    text = text or ""
    if start is None or end is None or not 0 <= start <= end <= len(text):
        return text
    lo = start
    while lo > 0 and text[lo - 1] not in _SENTENCE_END:
        lo -= 1
    hi = end
    # extend to the end mark of the sentence holding the last support character
    while hi < len(text) and (hi <= lo or text[hi - 1] not in _SENTENCE_END):
        hi += 1
    return text[lo:hi].strip()


def review_items(pair: Mapping[str, Any]) -> Iterator[dict[str, str]]:
    """Sheet rows (without decision) for every triple of a pair."""
    text = pair.get("text") or ""
    for t in pair.get("triples") or []:
        rel = t.get("relation")
        if not rel:
            continue
        start, end = t.get("start"), t.get("end")
        valid = start is not None and end is not None and 0 <= start <= end <= len(text)
        yield {
            "item_id": item_id(pair["pair_id"], t),
            "relation": rel,
            "head": t.get("head") or "",
            "tail": t.get("tail") or "",
            "text": holding_sentence(text, start, end),
            "span": text[start:end] if valid else "",
            "decision": "",
            "annotator": "",
            "note": "",
            "pair_id": pair["pair_id"],
            "entity": pair.get("entity") or "",
        }


class SheetSampler:
    """Streaming sampler: up to ``per_relation`` items per relation, from distinct pairs.

    Items are ranked by a seeded 128-bit hash of ``item_id`` and the smallest
    ranks win, so the same build and seed give the same sheets whatever the
    file or row order. A pair holding the relation several times offers only
    its lowest-ranked triple, so a sheet shows N different pairs. Memory is
    bounded by N items per relation (a max-heap each), not by the build size.
    """

    def __init__(self, per_relation: int, seed: int):
        if per_relation <= 0:
            raise ReviewError(f"--per-relation must be positive, got {per_relation}")
        self.per_relation = per_relation
        self.seed = seed
        self._heaps: dict[str, list[tuple[int, str, dict]]] = {}
        self._ids: dict[str, set[str]] = {}
        self.pairs_with_relation: dict[str, int] = {}

    def add_pair(self, pair: Mapping[str, Any]) -> None:
        import heapq

        best: dict[str, tuple[int, dict]] = {}
        for row in review_items(pair):
            r = _rank(self.seed, row["item_id"])
            cur = best.get(row["relation"])
            if cur is None or r < cur[0]:
                best[row["relation"]] = (r, row)
        for rel, (r, row) in best.items():
            self.pairs_with_relation[rel] = self.pairs_with_relation.get(rel, 0) + 1
            heap = self._heaps.setdefault(rel, [])
            ids = self._ids.setdefault(rel, set())
            if row["item_id"] in ids:
                continue  # the same pair read twice
            entry = (-r, row["item_id"], row)
            if len(heap) < self.per_relation:
                heapq.heappush(heap, entry)
                ids.add(row["item_id"])
            elif entry > heap[0]:  # smaller rank than the worst kept
                _, old_id, _ = heapq.heapreplace(heap, entry)
                ids.discard(old_id)
                ids.add(row["item_id"])

    def sheets(self) -> dict[str, list[dict[str, str]]]:
        """relation -> rows sorted by rank (which also mixes entities for the annotators)."""
        return {
            rel: [row for _, _, row in sorted(heap, key=lambda e: (-e[0], e[1]))]
            for rel, heap in sorted(self._heaps.items())
        }


def sample_sheets(pairs: Iterable[Mapping[str, Any]], per_relation: int, seed: int) -> dict[str, list[dict[str, str]]]:
    """All sheets of an in-memory list of pairs (see SheetSampler)."""
    sampler = SheetSampler(per_relation, seed)
    for pair in pairs:
        sampler.add_pair(pair)
    return sampler.sheets()


# Cells shown to annotators that come from crawled text. A spreadsheet program
# runs a cell starting with one of these as a formula, so such cells get a
# leading apostrophe (shown as text, never run). Import reads none of them.
_DISPLAY_COLUMNS = ("head", "tail", "text", "span", "entity", "note")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise_formula(value: object) -> object:
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def write_sheet(path: Path, rows: Sequence[Mapping[str, str]]) -> None:
    """UTF-8 with BOM, so spreadsheet programs open Chinese text correctly."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(SHEET_COLUMNS), extrasaction="ignore")
        w.writeheader()
        for row in rows:
            w.writerow({k: neutralise_formula(v) if k in _DISPLAY_COLUMNS else v for k, v in row.items()})


# -------------------------------------------------------------- reading sheets

@dataclass(frozen=True)
class Label:
    item_id: str
    relation: str
    decision: str  # accept | reject
    annotator: str
    source: str  # file:row, for messages


_DECISION_ALIASES = {
    "accept": ACCEPT, "accepted": ACCEPT, "a": ACCEPT, "yes": ACCEPT, "y": ACCEPT, "1": ACCEPT, "接受": ACCEPT, "是": ACCEPT,
    "reject": REJECT, "rejected": REJECT, "r": REJECT, "no": REJECT, "n": REJECT, "0": REJECT, "拒绝": REJECT, "否": REJECT,
}


def parse_decision(raw: str | None) -> str | None:
    """accept/reject (case-insensitive; y/n, 1/0, 接受/拒绝 too); None when blank; ReviewError otherwise."""
    v = (raw or "").strip().casefold()
    if not v:
        return None
    if v not in _DECISION_ALIASES:
        raise ReviewError(f"decision {raw!r} is neither accept nor reject")
    return _DECISION_ALIASES[v]


def _decode_sheet(raw: bytes, path: Path) -> str:
    """Text of a sheet as spreadsheet programs save it.

    UTF-8 (with or without BOM) is what export writes; Excel's "Unicode text"
    is UTF-16 with a BOM; a plain "CSV" saved on a Chinese Windows is GBK,
    read as GB18030 (its superset). Anything else is a clear error.
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            pass
    else:
        for encoding in ("utf-8-sig", "gb18030"):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
    raise ReviewError(f"{path}: not UTF-8, UTF-16 or GBK text; save the sheet as CSV UTF-8")


def read_sheet(path: Path, skip_undecided: bool = False) -> tuple[list[Label], list[str]]:
    """Labels of one filled sheet, plus the item ids left undecided (when skipped).

    Raises ReviewError naming the file and row for: unreadable file, missing
    columns, empty item_id/relation, duplicate item_id, a decision that is not
    accept/reject, and (unless ``skip_undecided``) a blank decision.
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ReviewError(f"{path}: cannot read sheet ({exc.strerror or exc})") from None
    content = _decode_sheet(raw, path)
    first_line = content.split("\n", 1)[0]
    delimiter = max(",\t;", key=first_line.count)  # spreadsheet locales save ; or tab
    reader = csv.DictReader(io.StringIO(content, newline=""), delimiter=delimiter)
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise ReviewError(f"{path}: not a review sheet, missing column(s) {', '.join(missing)} (header: {header})")
    reader.fieldnames = header
    labels: list[Label] = []
    undecided: list[str] = []
    seen: dict[str, int] = {}
    blank_rows: list[int] = []
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise ReviewError(f"{path}: malformed CSV ({exc})") from None
    for lineno, row in enumerate(rows, start=2):
        if None in row:  # more cells than header columns
            raise ReviewError(f"{path}:{lineno}: row has more cells than the header")
        iid = (row.get("item_id") or "").strip()
        rel = (row.get("relation") or "").strip()
        if not iid and not rel and not any((v or "").strip() for v in row.values()):
            continue  # an empty trailing line
        if not iid or not rel:
            raise ReviewError(f"{path}:{lineno}: item_id and relation must not be empty")
        if iid in seen:
            raise ReviewError(f"{path}:{lineno}: item {iid} appears twice (first on line {seen[iid]})")
        seen[iid] = lineno
        try:
            dec = parse_decision(row.get("decision"))
        except ReviewError as exc:
            raise ReviewError(f"{path}:{lineno}: {exc}") from None
        if dec is None:
            if skip_undecided:
                undecided.append(iid)
                continue
            blank_rows.append(lineno)
            continue
        labels.append(Label(iid, rel, dec, (row.get("annotator") or "").strip(), f"{path}:{lineno}"))
    if blank_rows:
        shown = ", ".join(map(str, blank_rows[:10])) + (" ..." if len(blank_rows) > 10 else "")
        raise ReviewError(
            f"{path}: {len(blank_rows)} item(s) have no decision (line {shown}); "
            "fill them with accept/reject or pass --skip-undecided"
        )
    return labels, undecided


# ------------------------------------------------------------------ agreement

@dataclass(frozen=True)
class Agreement:
    n: int
    both_accept: int
    both_reject: int
    a_only: int  # A accept, B reject
    b_only: int  # A reject, B accept
    p_o: float
    p_e: float
    kappa: float
    kappa_degenerate: bool


def cohen_kappa(both_accept: int, a_only: int, b_only: int, both_reject: int) -> Agreement:
    """Cohen's kappa of a 2x2 table (A's label x B's label).

    p_o = (both_accept + both_reject) / n; p_e = pA(accept)·pB(accept) +
    pA(reject)·pB(reject). When p_e = 1 (both used one and the same label for
    every item) kappa is undefined; it is reported as 1.0 with
    ``kappa_degenerate=True`` because the observed agreement is then perfect.
    """
    n = both_accept + a_only + b_only + both_reject
    if n <= 0:
        raise ReviewError("no doubly annotated items")
    p_o = (both_accept + both_reject) / n
    a_acc = (both_accept + a_only) / n
    b_acc = (both_accept + b_only) / n
    p_e = a_acc * b_acc + (1 - a_acc) * (1 - b_acc)
    if abs(1.0 - p_e) < 1e-12:
        return Agreement(n, both_accept, both_reject, a_only, b_only, p_o, 1.0, 1.0, True)
    kappa = (p_o - p_e) / (1.0 - p_e)
    return Agreement(n, both_accept, both_reject, a_only, b_only, p_o, p_e, kappa, False)


@dataclass(frozen=True)
class ReviewRules:
    """Thresholds of the relation decision (see module docstring)."""

    min_agreement: float = 0.9
    min_accept_share: float = 0.5

    def __post_init__(self) -> None:
        for name in ("min_agreement", "min_accept_share"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {v}")


@dataclass
class ReviewResult:
    relations: dict[str, dict[str, Any]] = field(default_factory=dict)
    disagreements: list[dict[str, str]] = field(default_factory=list)
    unmatched: list[dict[str, str]] = field(default_factory=list)

    def decision_file(self, rules: ReviewRules, sources: Sequence[str]) -> dict[str, Any]:
        return {
            "format": DECISION_FORMAT,
            "version": DECISION_VERSION,
            "rules": {
                "min_agreement": rules.min_agreement,
                "min_accept_share": rules.min_accept_share,
                "accepted_when": "agreement >= min_agreement and both_accept / n >= min_accept_share",
                "kappa_degenerate": "both annotators used one label for every item: kappa undefined, reported as 1.0",
            },
            "sources": list(sources),
            "relations": self.relations,
        }


def compare(a_labels: Sequence[Label], b_labels: Sequence[Label], rules: ReviewRules) -> ReviewResult:
    """Pair A's and B's labels by item_id and decide every relation.

    Items only one annotator labelled are listed in ``unmatched`` (the caller
    decides whether that is an error). An item whose relation differs between
    the two sheets is a ReviewError: the sheets were not copies of one export.
    """
    a_by = _index(a_labels, "A")
    b_by = _index(b_labels, "B")
    result = ReviewResult()
    tables: dict[str, list[int]] = {}  # relation -> [both_accept, a_only, b_only, both_reject]
    for iid in sorted(a_by.keys() | b_by.keys()):
        a, b = a_by.get(iid), b_by.get(iid)
        if a is None or b is None:
            only = a or b
            result.unmatched.append(
                {"item_id": iid, "relation": only.relation, "only_in": "A" if a else "B", "where": only.source}
            )
            continue
        if a.relation != b.relation:
            raise ReviewError(
                f"item {iid} has relation {a.relation!r} in {a.source} but {b.relation!r} in {b.source}; "
                "both annotators must fill copies of the same exported sheet"
            )
        t = tables.setdefault(a.relation, [0, 0, 0, 0])
        if a.decision == ACCEPT and b.decision == ACCEPT:
            t[0] += 1
        elif a.decision == ACCEPT:
            t[1] += 1
        elif b.decision == ACCEPT:
            t[2] += 1
        else:
            t[3] += 1
        if a.decision != b.decision:
            result.disagreements.append(
                {
                    "item_id": iid,
                    "relation": a.relation,
                    "a_decision": a.decision,
                    "b_decision": b.decision,
                    "a_annotator": a.annotator,
                    "b_annotator": b.annotator,
                    "a_where": a.source,
                    "b_where": b.source,
                }
            )
    for rel in sorted(tables):
        ba, ao, bo, br = tables[rel]
        ag = cohen_kappa(ba, ao, bo, br)
        accept_share = ag.both_accept / ag.n
        if ag.p_o < rules.min_agreement:
            decision, reason = "rejected", "low_agreement"
        elif accept_share < rules.min_accept_share:
            decision, reason = "rejected", "annotators_rejected"
        else:
            decision, reason = "accepted", "accepted_by_both"
        result.relations[rel] = {
            "decision": decision,
            "reason": reason,
            "n": ag.n,
            "agreement": round(ag.p_o, 6),
            "kappa": round(ag.kappa, 6),
            "kappa_degenerate": ag.kappa_degenerate,
            "p_e": round(ag.p_e, 6),
            "both_accept": ag.both_accept,
            "both_reject": ag.both_reject,
            "a_accept_b_reject": ag.a_only,
            "a_reject_b_accept": ag.b_only,
            "accept_share": round(accept_share, 6),
        }
    return result


def _index(labels: Sequence[Label], who: str) -> dict[str, Label]:
    out: dict[str, Label] = {}
    for lab in labels:
        if lab.item_id in out:
            raise ReviewError(
                f"annotator {who}: item {lab.item_id} is labelled twice ({out[lab.item_id].source} and {lab.source})"
            )
        out[lab.item_id] = lab
    return out


# ------------------------------------------------------------- decision file

@dataclass(frozen=True)
class RelationReviewConfig:
    """decisions: path of the decision file (``cdtp review import --out``).

    unreviewed: what to do with relations the file does not mention, i.e. that
    were never put in front of annotators: ``keep`` (default) or ``drop``.
    """

    decisions: str = ""
    unreviewed: str = "keep"

    def __post_init__(self) -> None:
        if self.unreviewed not in ("keep", "drop"):
            raise ValueError(f"relation_review.unreviewed must be keep or drop, got {self.unreviewed!r}")


@dataclass(frozen=True)
class RelationDecisions:
    """The part of a decision file the build needs: which relations are rejected and why."""

    rejected: Mapping[str, str]  # relation -> detail (reason, agreement, kappa)
    accepted: frozenset[str]
    source: str = ""

    def is_rejected(self, relation: str, unreviewed: str = "keep") -> str | None:
        """The rejection detail, or None when the relation stays."""
        if relation in self.rejected:
            return self.rejected[relation]
        if unreviewed == "drop" and relation not in self.accepted:
            return "not_reviewed"
        return None


def parse_decision_file(data: Any, source: str = "") -> RelationDecisions:
    """Validate a decision file written by ``cdtp review import``."""
    where = source or "decision file"
    if not isinstance(data, dict) or data.get("format") != DECISION_FORMAT:
        raise ReviewError(f"{where}: not a relation decision file (expected \"format\": \"{DECISION_FORMAT}\")")
    if data.get("version") != DECISION_VERSION:
        raise ReviewError(f"{where}: unsupported decision file version {data.get('version')!r}")
    rels = data.get("relations")
    if not isinstance(rels, dict):
        raise ReviewError(f"{where}: \"relations\" must be an object of relation -> decision")
    rejected: dict[str, str] = {}
    accepted = set()
    for rel, info in rels.items():
        if not isinstance(info, dict) or info.get("decision") not in ("accepted", "rejected"):
            raise ReviewError(f"{where}: relation {rel!r} needs \"decision\": \"accepted\" or \"rejected\"")
        if info["decision"] == "accepted":
            accepted.add(rel)
        else:
            rejected[rel] = json.dumps(
                {k: info.get(k) for k in ("reason", "agreement", "kappa", "n") if k in info}, ensure_ascii=False
            )
    return RelationDecisions(rejected=rejected, accepted=frozenset(accepted), source=source)


def load_decision_file(path: str | Path) -> RelationDecisions:
    p = Path(path)
    try:
        data = safejson.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReviewError(f"{p}: cannot read relation decision file ({exc.strerror or exc})") from None
    except ValueError as exc:  # not UTF-8, not JSON, or nested too deeply
        raise ReviewError(f"{p}: relation decision file is not valid JSON ({exc})") from None
    return parse_decision_file(data, str(p))


def review_pair(pair: Mapping[str, Any], decisions: RelationDecisions, unreviewed: str = "keep") -> tuple[dict, list[tuple[dict, str]]]:
    """Split a pair's triples into kept and rejected-by-review.

    Returns (pair with kept triples and updated num_triples, [(dropped triple,
    detail)]). The Beam stage turns the dropped list into audit rows and drops
    the pair when no triple is left.
    """
    kept, dropped = [], []
    for t in pair.get("triples") or []:
        detail = decisions.is_rejected(t.get("relation") or "", unreviewed)
        if detail is None:
            kept.append(t)
        else:
            dropped.append((t, detail))
    if not dropped:
        return dict(pair), []
    out = dict(pair)
    out["triples"] = kept
    out["num_triples"] = len(kept)
    return out, dropped
