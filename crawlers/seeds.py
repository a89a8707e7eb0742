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
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from crawlers.seed_lines import (
    NLPCC_TAG, TRIPLE_SEP, Malformed, Parsed, Seed, is_header, parse_kgclue_line, parse_list_line, parse_nlpcc_line,
    parse_triple_cells,
)

FORMATS = ("list", "kgclue", "nlpcc", "triples")

#: Malformed-line examples kept per reason in the stats (line numbers + text).
MAX_EXAMPLES = 3


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
    if any(NLPCC_TAG.match(ln.strip()) for ln in lines[:10]):
        return "nlpcc"
    if lines[0].lstrip().startswith("{"):
        return "kgclue"
    name = path.name.lower().removesuffix(".gz")
    if name.endswith((".csv", ".tsv")):
        return "triples"
    majority = max(1, (len(lines) * 8 + 9) // 10)  # 80 %
    if sum(ln.count("\t") >= 2 for ln in lines) >= majority:
        return "triples"
    if sum(ln.count(TRIPLE_SEP) == 2 for ln in lines) >= majority:
        return "triples"
    return "list"


def _triple_delimiter(path: Path, lines: list[str]) -> str:
    name = path.name.lower().removesuffix(".gz")
    if name.endswith(".tsv") or sum("\t" in ln for ln in lines) > len(lines) // 2:
        return "\t"
    if sum(TRIPLE_SEP in ln for ln in lines) > len(lines) // 2:
        return TRIPLE_SEP
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
        if delimiter == TRIPLE_SEP:
            cells = text.split(TRIPLE_SEP)
        else:
            try:
                cells = next(csv.reader([text], delimiter=delimiter, strict=True,
                                        quoting=csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL))
            except (csv.Error, StopIteration):
                yield lineno, text, Malformed("bad_csv_quoting")
                continue
        if first and cells and any(c.strip() for c in cells):
            first = False
            if is_header(cells):
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
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # `path` is a folder, or the disk is full: leave no stray temp file
        raise


def read_seed_file(path: str | os.PathLike) -> list[Seed]:
    """Read a seed file written by `write_seed_file` (or any plain list)."""
    seeds, _ = read_source(path, "list")
    return seeds
