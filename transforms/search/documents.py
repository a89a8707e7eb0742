"""Documents for the local search index.

Two input shapes are accepted, line by line (JSON Lines, optionally .gz) or
row by row (Parquet):
  * raw entries (schemas/raw_entry.py): one document per entry, its text being
    the summary plus the `body` field when a crawler kept one. The infobox is
    deliberately left out: a triple's own infobox row is not corroboration;
  * a plain corpus the user names: {"url", "title", "text"}.
Malformed lines are counted and skipped (the index is not the audit): the
index command reports how many.
"""
from __future__ import annotations

import glob as globmod
import gzip
import io
import zlib
from transforms import safejson
from dataclasses import dataclass, field
from typing import Iterator


@dataclass(frozen=True)
class Document:
    url: str
    title: str
    text: str


@dataclass
class ReadStats:
    files: int = 0
    documents: int = 0
    invalid: int = 0
    duplicates: int = 0
    examples: list[str] = field(default_factory=list)  # first few problems, for the user

    def note(self, problem: str) -> None:
        self.invalid += 1
        if len(self.examples) < 5:
            self.examples.append(problem)


def to_document(record: object) -> Document | None:
    """Map a raw entry or a corpus record to a Document; None if unusable."""
    if not isinstance(record, dict):
        return None
    url = record.get("url")
    title = record.get("title")
    if "text" in record and "summary" not in record:
        text = record.get("text")
    else:
        parts = [record.get("summary"), record.get("body")]
        text = "\n".join(p for p in parts if isinstance(p, str) and p)
    if not isinstance(url, str) or not url.strip():
        return None
    if title is not None and not isinstance(title, str):
        return None
    if not isinstance(text, str):
        return None
    if not text.strip() and not (title or "").strip():
        return None
    return Document(url=url.strip(), title=(title or "").strip(), text=text)


def expand(pattern: str) -> list[str]:
    """Files matching a glob, local or on any Beam filesystem (gs://...)."""
    if "://" in pattern:
        from apache_beam.io.filesystems import FileSystems

        return sorted(m.path for r in FileSystems.match([pattern]) for m in r.metadata_list)
    return sorted(p for p in globmod.glob(pattern, recursive=True) if not p.endswith("/"))


def _open_binary(path: str):
    if "://" in path:
        from apache_beam.io.filesystems import FileSystems

        return FileSystems.open(path)
    return open(path, "rb")


def _records(path: str, stats: ReadStats) -> Iterator[object]:
    """Records of one corpus file. A corrupt file (unreadable Parquet, a cut
    .gz) is noted as a problem with its name and where it broke, never a crash."""
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq

        try:
            with _open_binary(path) as fh:
                table = pq.read_table(fh)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a bad file
            stats.note(f"{path}: unreadable Parquet file ({type(exc).__name__}: {str(exc)[:120]})")
            return
        yield from table.to_pylist()
        return
    lineno = 0
    try:
        with _open_binary(path) as raw:
            fh = gzip.open(raw) if path.endswith(".gz") else raw
            for lineno, line in enumerate(io.TextIOWrapper(fh, encoding="utf-8", errors="replace"), 1):
                if not line.strip():
                    continue
                try:
                    yield safejson.loads(line)
                except ValueError as exc:  # not JSON, or nested too deeply
                    stats.note(f"{path}:{lineno}: bad JSON ({getattr(exc, 'msg', exc)})")
    except (OSError, EOFError, zlib.error) as exc:
        stats.note(f"{path}: unreadable after line {lineno} ({type(exc).__name__}: {str(exc)[:120]})")


def read_documents(pattern: str, stats: ReadStats | None = None) -> Iterator[Document]:
    """Documents from every file matching `pattern`, first occurrence of a URL wins."""
    stats = stats if stats is not None else ReadStats()
    seen: set[str] = set()
    for path in expand(pattern):
        stats.files += 1
        for i, record in enumerate(_records(path, stats)):
            doc = to_document(record)
            if doc is None:
                stats.note(f"{path}: record {i + 1}: no url or no text/title")
                continue
            if doc.url in seen:
                stats.duplicates += 1
                continue
            seen.add(doc.url)
            stats.documents += 1
            yield doc
