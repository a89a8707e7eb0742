"""Relation review sheets: what an annotator reads and writes (transforms/review.py decides).

* **Sheets.** One CSV per relation type with N sampled pairs (one item = one
  triple of that relation in one pair, shown with the sentence that holds it).
  Sampling takes the pairs with the smallest seeded hash of ``item_id``, so the
  same build and seed always give the same sheet, whatever the file order.
  The relation's real name is a column; the file name is an encoded,
  filesystem-safe form of it (:func:`relation_filename`).
* **Reading.** A sheet comes back from a spreadsheet program: its encoding,
  its decision words and its formulas are checked, and every bad row is a
  ReviewError naming the file and the row (:func:`read_sheet`).
"""
from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

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
