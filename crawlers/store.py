"""The crawl output directory is the crawl's durable state.

Scrapy's JOBDIR does not survive `kill -9` (empty requests.seen, empty queue,
0 lines in the feed), so the crawler never relies on it. Instead:

* entries are appended, one JSON line each, to an open shard
  `.raw-NNNNN.jsonl.part` (a dot file, so no `raw-*` glob of a reader ever
  picks it up), flushed after every entry, so a killed process loses at most
  the line it was writing;
* a shard becomes `raw-NNNNN.jsonl` only by `os.replace` (after fsync), when it
  is full or the crawl ends, so readers globbing `raw-*.jsonl` only ever see
  complete shards;
* on restart, leftover `.part` shards are recovered the same way (their
  complete lines kept, a truncated last line dropped and counted), and the
  stored entries rebuild the seen set and the frontier (see crawlers.frontier);
* `aliases.jsonl` remembers which fetched URL led to which stored entry (e.g. a
  redirect from `/item/<name>` to `/item/<name>/<id>`), so a restart does not
  refetch a stored page under another URL;
* `failures.jsonl` remembers links that failed for good (HTTP 404 or 410), so
  a resumed crawl does not ask for them again;
* small JSON files (crawl-stats.json) are written with `write_json_atomic`.
"""
from __future__ import annotations

import gzip
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator

from transforms import safejson

SHARD_RE = re.compile(r"^(?:raw-(\d+)\.jsonl(?:\.gz)?|\.raw-(\d+)\.jsonl\.part)$")
ALIASES_FILE = "aliases.jsonl"
FAILURES_FILE = "failures.jsonl"
#: Failure reasons that will not change on a retry, so a resumed crawl skips the link.
PERMANENT_FAILURES = frozenset({"http_404", "http_410"})


def write_json_atomic(path: Path, data: Any, fsync: bool = True) -> None:
    """Write JSON to a temp name beside `path`, then `os.replace` (never a half file).

    `fsync=False` still survives a killed process (the kernel has the bytes);
    only a power loss could lose the last write.
    """
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=2, sort_keys=True)
        fh.write("\n")
        fh.flush()
        if fsync:
            os.fsync(fh.fileno())
    os.replace(tmp, path)


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


def read_json_lines(path: Path) -> tuple[list[dict[str, Any]], int]:
    """(records, bad_lines): a truncated or corrupt line is skipped and counted, never fatal."""
    opener = gzip.open if path.name.endswith(".gz") else open
    records: list[dict[str, Any]] = []
    bad = 0
    try:
        with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if not line.endswith("\n"):
                    bad += 1  # a write cut off by kill -9
                    continue
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = safejson.loads(line)
                except ValueError:  # not JSON, or nested too deeply (RecursionError before)
                    bad += 1
                    continue
                if isinstance(rec, dict):
                    records.append(rec)
                else:
                    bad += 1
    except (OSError, EOFError):
        bad += 1  # a truncated .gz shard
    return records, bad


@dataclass
class RecoveryReport:
    shards: int = 0
    entries: int = 0
    recovered_part_shards: int = 0
    truncated_lines_dropped: int = 0


@dataclass
class EntryStore:
    """Append-only JSONL shards in `out_dir`, kill-safe (see module docstring)."""

    out_dir: Path
    shard_size: int = 5000
    _fh: IO[str] | None = None
    _part: Path | None = None
    _count: int = 0
    _next_index: int = 1
    _aliases_fh: IO[str] | None = None
    _failures_fh: IO[str] | None = None
    report: RecoveryReport = field(default_factory=RecoveryReport)

    def __post_init__(self) -> None:
        self.out_dir = Path(self.out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)

    # -- reading back ---------------------------------------------------------
    def _shards(self) -> list[tuple[int, Path]]:
        out = []
        for p in self.out_dir.iterdir():
            m = SHARD_RE.match(p.name)
            if m:
                out.append((int(m.group(1) or m.group(2)), p))
        return sorted(out)

    def recover(self) -> RecoveryReport:
        """Seal `.part` shards left by a killed run: keep complete lines, drop a torn last line."""
        for index, path in self._shards():
            if not path.name.endswith(".part"):
                continue
            records, bad = read_json_lines(path)
            self.report.truncated_lines_dropped += bad
            if records:
                final = path.with_name(f"raw-{index:05d}.jsonl")
                self._write_shard(final, records)
                self.report.recovered_part_shards += 1
            path.unlink()
        return self.report

    def _write_shard(self, final: Path, records: list[dict[str, Any]]) -> None:
        tmp = final.with_name(f".{final.name}.tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, final)

    def iter_entries(self) -> Iterator[dict[str, Any]]:
        """Every stored entry, shard by shard (sealed shards only; call recover() first)."""
        for _, path in self._shards():
            if path.name.endswith(".part"):
                continue
            records, bad = read_json_lines(path)
            self.report.shards += 1
            self.report.truncated_lines_dropped += bad
            self.report.entries += len(records)
            yield from records

    def iter_aliases(self) -> Iterator[tuple[str, str]]:
        path = self.out_dir / ALIASES_FILE
        if not path.exists():
            return
        records, _ = read_json_lines(path)
        for rec in records:
            if isinstance(rec.get("key"), str) and isinstance(rec.get("canon"), str):
                yield rec["key"], rec["canon"]

    def iter_failures(self) -> Iterator[tuple[str, str]]:
        """(link key, reason) of every link that failed for good in an earlier run."""
        path = self.out_dir / FAILURES_FILE
        if not path.exists():
            return
        records, _ = read_json_lines(path)
        for rec in records:
            if isinstance(rec.get("key"), str) and rec.get("reason") in PERMANENT_FAILURES:
                yield rec["key"], rec["reason"]

    # -- writing -----------------------------------------------------------------
    def _open_log(self, name: str) -> IO[str]:
        path = self.out_dir / name
        torn = path.exists() and path.stat().st_size > 0 and not _ends_with_newline(path)
        fh = open(path, "a", encoding="utf-8")
        if torn:  # a killed run cut the last line short: start the next one on a new line
            fh.write("\n")
        return fh

    def open(self) -> None:
        shards = self._shards()
        self._next_index = (shards[-1][0] + 1) if shards else 1
        self._aliases_fh = self._open_log(ALIASES_FILE)
        self._failures_fh = self._open_log(FAILURES_FILE)

    def _open_part(self) -> None:
        self._part = self.out_dir / f".raw-{self._next_index:05d}.jsonl.part"
        self._next_index += 1
        self._fh = open(self._part, "w", encoding="utf-8")
        self._count = 0

    def append(self, entry: dict[str, Any]) -> None:
        if self._fh is None:
            self._open_part()
        assert self._fh is not None
        self._fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._fh.flush()
        self._count += 1
        if self._count >= self.shard_size:
            self.rotate()

    def add_alias(self, key: str, canon: str) -> None:
        if self._aliases_fh is not None:
            self._aliases_fh.write(json.dumps({"key": key, "canon": canon}, ensure_ascii=False) + "\n")
            self._aliases_fh.flush()

    def add_failure(self, key: str, url: str, reason: str) -> None:
        """Remember a link that failed for good (see PERMANENT_FAILURES); others are not kept."""
        if self._failures_fh is not None and reason in PERMANENT_FAILURES:
            self._failures_fh.write(json.dumps({"key": key, "url": url, "reason": reason}, ensure_ascii=False) + "\n")
            self._failures_fh.flush()

    def rotate(self) -> None:
        """Seal the open shard: fsync, then rename `.part` -> `.jsonl` atomically."""
        if self._fh is None or self._part is None:
            return
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._fh.close()
        if self._count:
            os.replace(self._part, self._part.with_name(self._part.name[1 : -len(".part")]))
        else:
            self._part.unlink()
        self._fh = None
        self._part = None
        self._count = 0

    def close(self) -> None:
        self.rotate()
        for name in ("_aliases_fh", "_failures_fh"):
            fh = getattr(self, name)
            if fh is not None:
                fh.close()
                setattr(self, name, None)
