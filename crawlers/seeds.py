"""Seed entries for the crawl: aggregate, normalise and deduplicate titles.

A depth-first Baike crawl is only as broad as its seeds. CDTP-style corpora are
seeded from existing knowledge-base QA sets, whose answers name the head entity
of a triple, often with Baike's disambiguation subtitle attached
(`龙晶（游戏）`). This module turns such files into one seed list that
`cdtp crawl --seeds` reads: one seed per line, `title` or `title<TAB>subtitle`.

Supported source formats (auto-detected per file, see `detect_format`):

* ``list``    one title per line, optionally `title<TAB>subtitle` (our own output
              format, so seed files can be merged again), or a Baike entry URL
              `https://baike.baidu.com/item/<title>[/<lemma_id>]`;
* ``kgclue``  KgCLUE QA JSON lines, `{"answer": "head（disambiguation） ||| relation ||| tail"}`;
* ``nlpcc``   NLPCC-ICCPOL 2016 KBQA files, `<triple id=N>\\th ||| r ||| t` lines
              (question/answer/separator lines are structure, not seeds);
* ``triples`` generic triple files, one `head, relation, tail` row per line, CSV,
              TSV or ` ||| `-separated (OwnThink, CN-DBpedia, the NLPCC KB dump);
              the head column is the seed.

Where a source attaches a disambiguation to the head, it is split off as the
subtitle: a trailing full-width bracket group `（…）` for kgclue and triples, and
a trailing `[…]` group for triples (OwnThink style). Only the *trailing, balanced,
full-width* group counts, because ASCII brackets belong to real titles
(`0+1=1(I Promise You)`) and brackets in the middle too (`完美（中国）有限公司`).
NLPCC heads are plain KB names (`武汉大学学报（医学版）` is a whole title), so
they are never split.

Every input line ends up counted exactly once per source: as a seed (new or
duplicate), as structure that carries no seed (skipped: headers, NLPCC
question lines, blank lines), or as malformed with a reason. Nothing is lost
silently and bad lines never raise.
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import os
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator
from urllib.parse import unquote_to_bytes

from transforms import safejson

FORMATS = ("list", "kgclue", "nlpcc", "triples")

#: Baike titles are short; anything longer is a sentence or a parsing accident.
MAX_TITLE_CHARS = 100
MAX_SUBTITLE_CHARS = 200
#: Malformed-line examples kept per reason in the stats (line numbers + text).
MAX_EXAMPLES = 3
#: Header cells that mark the first row of a triple file as a header, not data.
HEADER_CELLS = frozenset(
    {"实体", "头实体", "主语", "主体", "entity", "head", "subject", "title"}
)

_WS = re.compile(r"\s+")
_OPEN_FULL, _CLOSE_FULL = "（", "）"
_TRIPLE_SEP = "|||"
_NLPCC_TAG = re.compile(r"^<(question|triple|answer)\s+id=(\d+)>\s*(.*)$", re.S)
_NLPCC_SEPARATOR = re.compile(r"^=+$")
_ITEM_URL = re.compile(r"^https?://[^/\s]+/item/([^/?#\s]+)(?:/\d+)?/?(?:[?#]\S*)?$")


@dataclass(frozen=True)
class Seed:
    """One crawl seed: a Baike title and, for a polysemous name, the sense's subtitle."""

    title: str
    subtitle: str | None = None

    def key(self) -> tuple[str, str]:
        """Dedup key: case-insensitive, because Baike resolves `iPhone` and `iphone` alike."""
        return (self.title.casefold(), (self.subtitle or "").casefold())

    def line(self) -> str:
        return self.title if not self.subtitle else f"{self.title}\t{self.subtitle}"


@dataclass(frozen=True)
class Malformed:
    """A line that should have carried a seed but did not; `reason` is snake_case."""

    reason: str


#: A parsed line is a seed, a malformed line, or None (structure without a seed).
Parsed = Seed | Malformed | None


@dataclass
class SourceStats:
    """Counts for one source file. lines = seeds + skipped + sum(malformed)."""

    path: str
    format: str
    encoding: str = "utf-8"
    lines: int = 0
    seeds: int = 0  # lines that gave a valid seed (before dedup)
    new: int = 0  # seeds not seen before (in this or an earlier source)
    duplicates: int = 0
    skipped: int = 0  # blank lines, headers, NLPCC question/answer/separator lines
    malformed: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def note_malformed(self, reason: str, lineno: int, text: str) -> None:
        self.malformed[reason] += 1
        shown = self.examples.setdefault(reason, [])
        if len(shown) < MAX_EXAMPLES:
            shown.append(f"line {lineno}: {text[:120]}")

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "format": self.format,
            "encoding": self.encoding,
            "lines": self.lines,
            "seeds": self.seeds,
            "new": self.new,
            "duplicates": self.duplicates,
            "skipped": self.skipped,
            "malformed": dict(sorted(self.malformed.items())),
            "malformed_examples": self.examples,
        }


# --------------------------------------------------------------------------- text


def clean_text(text: str) -> str:
    """NFKC, whitespace runs collapsed to one space, trimmed.

    NFKC folds full-width Latin letters, digits and ASCII-range punctuation
    (`ＡＢＣ１２３` → `ABC123`, `（` → `(`), so the same entry written by two
    sources gets one key. It also means a subtitle's inner full-width brackets
    become ASCII: compare subtitles after the same normalisation.
    """
    text = unicodedata.normalize("NFKC", text)
    return _WS.sub(" ", text).strip()


def split_trailing_group(text: str, opening: str, closing: str) -> tuple[str, str | None]:
    """Split `name（group）` into (name, group) when the text ENDS with a balanced group.

    Nested groups are matched by depth (`语言学（语言学（语言理论））` →
    `语言学`, `语言学（语言理论）`). Text that is only a group, or whose trailing
    bracket has no partner, is returned whole.
    """
    stripped = text.rstrip()
    if not stripped.endswith(closing):
        return text, None
    depth = 0
    for i in range(len(stripped) - 1, -1, -1):
        ch = stripped[i]
        if ch == closing:
            depth += 1
        elif ch == opening:
            depth -= 1
            if depth == 0:
                head = stripped[:i].rstrip()
                if not head:
                    return text, None
                return head, stripped[i + 1 : -1]
    return text, None


def _garbage_reason(title: str) -> str | None:
    if not title:
        return "empty_title"
    if len(title) > MAX_TITLE_CHARS:
        return "title_too_long"
    if "\ufffd" in title or any(unicodedata.category(c) in ("Cc", "Cs", "Co") for c in title):
        return "bad_characters"
    if title[0] in "{<" or title.startswith(("http://", "https://")):
        return "looks_like_markup"
    if _TRIPLE_SEP in title:
        return "unsplit_triple"
    if not any(c.isalnum() for c in title):
        return "no_word_characters"
    return None


def make_seed(raw_title: str, raw_subtitle: str | None = None) -> Seed | Malformed:
    """Normalise a (title, subtitle) pair into a Seed, or say why it is garbage."""
    title = clean_text(raw_title)
    reason = _garbage_reason(title)
    if reason:
        return Malformed(reason)
    subtitle = clean_text(raw_subtitle) if raw_subtitle is not None else ""
    if subtitle and len(subtitle) > MAX_SUBTITLE_CHARS:
        return Malformed("subtitle_too_long")
    if subtitle and ("\ufffd" in subtitle or any(unicodedata.category(c) == "Cc" for c in subtitle)):
        return Malformed("bad_characters")
    return Seed(title, subtitle or None)


def seed_from_head(head: str, *, square_brackets: bool = False) -> Seed | Malformed:
    """A triple head with Baike's disambiguation attached: `龙晶（游戏）` → 龙晶 / 游戏."""
    if not head.strip():
        return Malformed("empty_head")
    title, subtitle = split_trailing_group(head.strip(), _OPEN_FULL, _CLOSE_FULL)
    if subtitle is None and square_brackets:
        title, subtitle = split_trailing_group(head.strip(), "[", "]")
    return make_seed(title, subtitle)


# ------------------------------------------------------------------- line parsers


def seed_from_url(url: str) -> Seed | Malformed:
    """A Baike entry URL (`https://baike.baidu.com/item/长江/12345`) names its title.

    The lemma id is not kept: a seed is a title (plus subtitle), and the crawl
    resolves `/item/<title>` itself.
    """
    m = _ITEM_URL.match(url.strip())
    if not m:
        return Malformed("not_an_entry_url")
    raw = unquote_to_bytes(m.group(1))
    for enc in ("utf-8", "gb18030"):
        try:
            return make_seed(raw.decode(enc))
        except UnicodeDecodeError:
            continue
    return Malformed("bad_characters")


def parse_list_line(line: str) -> Parsed:
    """`title`, `title<TAB>subtitle` or a Baike `/item/` URL; blank lines and `#` comments carry no seed."""
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    if line.strip().startswith(("http://", "https://")):
        return seed_from_url(line)
    cells = line.split("\t")
    if len(cells) > 2:
        return Malformed("too_many_columns")
    return make_seed(cells[0], cells[1] if len(cells) == 2 else None)


def parse_kgclue_line(line: str) -> Parsed:
    """KgCLUE: `{"id", "question", "answer": "head（disambiguation） ||| relation ||| tail"}`."""
    if not line.strip():
        return None
    try:
        record = safejson.loads(line)
    except ValueError:  # not JSON, or nested too deeply (RecursionError before)
        return Malformed("bad_json")
    if not isinstance(record, dict):
        return Malformed("not_an_object")
    answer = record.get("answer")
    if not isinstance(answer, str) or not answer.strip():
        return Malformed("missing_answer")
    parts = answer.split(_TRIPLE_SEP)
    if len(parts) != 3:
        return Malformed("answer_not_a_triple")
    return seed_from_head(parts[0])


def parse_nlpcc_line(line: str) -> Parsed:
    """NLPCC-KBQA: only `<triple id=N>\\th ||| r ||| t` lines carry a seed (the head)."""
    text = line.strip()
    if not text or _NLPCC_SEPARATOR.match(text):
        return None
    match = _NLPCC_TAG.match(text)
    if not match:
        return Malformed("unrecognised_line")
    if match.group(1) != "triple":
        return None
    cells = match.group(3).split(_TRIPLE_SEP)
    if len(cells) != 3:
        return Malformed("triple_not_three_fields")
    if not cells[0].strip():
        return Malformed("empty_head")
    return make_seed(cells[0])


def _is_header(cells: list[str]) -> bool:
    return clean_text(cells[0]).casefold() in HEADER_CELLS


def parse_triple_cells(cells: list[str]) -> Parsed:
    """One row of a generic triple file: the head column is the seed."""
    if not any(c.strip() for c in cells):
        return None
    if len(cells) < 3:
        return Malformed("too_few_columns")
    return seed_from_head(cells[0], square_brackets=True)


# ------------------------------------------------------------------ file reading


def _open_bytes(path: Path) -> io.BufferedIOBase:
    if path.suffix == ".gz":
        return gzip.open(path, "rb")
    return open(path, "rb")


def sniff_encoding(sample: bytes) -> str:
    """utf-8 when the sample decodes as UTF-8 (a cut multi-byte tail is fine), else gb18030.

    Chinese KB dumps still come as GBK; gb18030 is its superset.
    """
    for cut in range(4):
        try:
            sample[: len(sample) - cut].decode("utf-8")
            return "utf-8"
        except UnicodeDecodeError:
            continue
    return "gb18030"


def _sample(path: Path, size: int = 65536) -> bytes:
    """The first `size` bytes (decompressed); a truncated gzip gives what it has."""
    chunks: list[bytes] = []
    got = 0
    try:
        with _open_bytes(path) as fh:
            while got < size:
                chunk = fh.read(min(8192, size - got))
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
    except EOFError:
        pass
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc}") from exc
    return b"".join(chunks)


def _sample_lines(path: Path, encoding: str, limit: int = 50) -> list[str]:
    text = _sample(path).decode(encoding, errors="replace")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[:limit]


def detect_format(path: Path) -> str:
    """Guess a source's format from its first non-blank lines (and its extension).

    NLPCC tags and JSON objects are unambiguous. A triple file needs three or
    more cells on most lines; two tab-separated cells are our own
    `title<TAB>subtitle` list format.
    """
    lines = _sample_lines(path, sniff_encoding(_sample(path)))
    if not lines:
        return "list"
    if any(_NLPCC_TAG.match(ln.strip()) for ln in lines[:10]):
        return "nlpcc"
    if lines[0].lstrip().startswith("{"):
        return "kgclue"
    name = path.name.lower().removesuffix(".gz")
    if name.endswith((".csv", ".tsv")):
        return "triples"
    majority = max(1, (len(lines) * 8 + 9) // 10)  # 80 %
    if sum(ln.count("\t") >= 2 for ln in lines) >= majority:
        return "triples"
    if sum(ln.count(_TRIPLE_SEP) == 2 for ln in lines) >= majority:
        return "triples"
    return "list"


def _triple_delimiter(path: Path, lines: list[str]) -> str:
    name = path.name.lower().removesuffix(".gz")
    if name.endswith(".tsv") or sum("\t" in ln for ln in lines) > len(lines) // 2:
        return "\t"
    if sum(_TRIPLE_SEP in ln for ln in lines) > len(lines) // 2:
        return _TRIPLE_SEP
    return ","


def _decoded_lines(path: Path, encoding: str, stats: SourceStats) -> Iterator[tuple[int, str | None, bytes]]:
    """(line number, text or None when undecodable, raw bytes), CR/LF stripped."""
    with _open_bytes(path) as fh:
        for lineno, raw in enumerate(fh, 1):
            raw = raw.rstrip(b"\r\n")
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                yield lineno, raw.decode(encoding), raw
            except UnicodeDecodeError:
                yield lineno, None, raw


def _parse_triples(path: Path, rows: Iterable[tuple[int, str]], delimiter: str) -> Iterator[tuple[int, str, Parsed]]:
    first = True
    for lineno, text in rows:
        if delimiter == _TRIPLE_SEP:
            cells = text.split(_TRIPLE_SEP)
        else:
            try:
                cells = next(csv.reader([text], delimiter=delimiter, strict=True,
                                        quoting=csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL))
            except (csv.Error, StopIteration):
                yield lineno, text, Malformed("bad_csv_quoting")
                continue
        if first and cells and any(c.strip() for c in cells):
            first = False
            if _is_header(cells):
                yield lineno, text, None
                continue
        yield lineno, text, parse_triple_cells(cells)


_LINE_PARSERS = {"list": parse_list_line, "kgclue": parse_kgclue_line, "nlpcc": parse_nlpcc_line}


def read_source(path: str | os.PathLike, fmt: str | None = None) -> tuple[list[Seed], SourceStats]:
    """Parse one source file into seeds (in file order, not yet deduplicated) and its stats.

    Raises ValueError only for an unreadable file or an unknown format; bad
    lines are counted in the stats.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"seed source {path} is not a file")
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"unknown seed format {fmt!r} (choose from {', '.join(FORMATS)})")
    encoding = sniff_encoding(_sample(path))
    fmt = fmt or detect_format(path)
    stats = SourceStats(path=str(path), format=fmt, encoding=encoding)
    seeds: list[Seed] = []

    def decodable() -> Iterator[tuple[int, str]]:
        for lineno, text, raw in _decoded_lines(path, encoding, stats):
            stats.lines += 1
            if text is None:
                stats.note_malformed("undecodable_bytes", lineno, raw[:60].hex())
                continue
            yield lineno, text

    try:
        if fmt == "triples":
            delimiter = _triple_delimiter(path, _sample_lines(path, encoding))
            parsed: Iterable[tuple[int, str, Parsed]] = _parse_triples(path, decodable(), delimiter)
        else:
            parser = _LINE_PARSERS[fmt]
            parsed = ((n, t, parser(t)) for n, t in decodable())
        for lineno, text, result in parsed:
            if result is None:
                stats.skipped += 1
            elif isinstance(result, Malformed):
                stats.note_malformed(result.reason, lineno, text)
            else:
                stats.seeds += 1
                seeds.append(result)
    except (OSError, EOFError) as exc:  # truncated gzip, vanished file
        stats.note_malformed("truncated_file", stats.lines + 1, str(exc))
    return seeds, stats


@dataclass
class SeedList:
    """The aggregated, deduplicated seeds and the per-source counts."""

    seeds: list[Seed]
    sources: list[SourceStats]

    def to_stats(self) -> dict:
        return {
            "seeds": len(self.seeds),
            "with_subtitle": sum(1 for s in self.seeds if s.subtitle),
            "sources": [s.to_dict() for s in self.sources],
        }


def aggregate(paths: Iterable[str | os.PathLike], fmt: str | None = None) -> SeedList:
    """Read every source in order and keep the first occurrence of each seed key."""
    seen: set[tuple[str, str]] = set()
    out: list[Seed] = []
    all_stats: list[SourceStats] = []
    for path in paths:
        seeds, stats = read_source(path, fmt)
        for seed in seeds:
            key = seed.key()
            if key in seen:
                stats.duplicates += 1
            else:
                seen.add(key)
                out.append(seed)
                stats.new += 1
        all_stats.append(stats)
    return SeedList(out, all_stats)


def write_seed_file(path: str | os.PathLike, seed_list: SeedList) -> Path:
    """Write `title[<TAB>subtitle]` lines and `<path>.stats.json`, each atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(path, "".join(s.line() + "\n" for s in seed_list.seeds))
    stats_path = path.with_name(path.name + ".stats.json")
    _atomic_write(stats_path, json.dumps(seed_list.to_stats(), ensure_ascii=False, indent=2) + "\n")
    return stats_path


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_seed_file(path: str | os.PathLike) -> list[Seed]:
    """Read a seed file written by `write_seed_file` (or any plain list)."""
    seeds, _ = read_source(path, "list")
    return seeds
