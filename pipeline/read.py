"""Reading raw entries through Beam's filesystems (local, gs://, ...).

Two inputs share one element shape, a `RawRecord` tuple
`(location, payload)`, read in batches (lists of up to READ_BATCH records):

* JSON Lines shards (`raw-*.jsonl`, `.jsonl.gz`) come from a splittable
  `FileBasedSource` that remembers each line's byte offset, so a malformed
  line is reported as `file@offset` instead of vanishing. gzip shards are read
  whole (gzip cannot be split), plain shards are split by byte range.
* Parquet files with the RawEntry fields are read one row group at a time,
  keeping the row number.

Payload is the raw line (bytes) for JSON Lines and a dict for Parquet; the
validate stage turns both into RawEntry dicts or `invalid_input` audit rows.
Nothing goes through `beam.Create` except the list of Parquet file names.
"""
from __future__ import annotations

import bz2
import contextlib
import gzip
import zlib
from dataclasses import dataclass
from typing import Any, Iterator

import apache_beam as beam
from apache_beam.io import filebasedsource
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from pipeline.errors import CdtpError

# Payload key of a record that stands for an unreadable file (or its unreadable
# rest, or a line too long to be an entry); its value is the audit detail.
UNREADABLE = "__unreadable__"
# No raw entry comes near this (the largest real Baike entry is well under 1 MiB).
MAX_LINE_BYTES = 32 * 1024 * 1024


def _skip_line(fh, chunk: int = 1 << 20) -> int:
    """Read past the rest of the current line without keeping it; bytes skipped (newline included)."""
    skipped = 0
    while True:
        part = fh.readline(chunk)
        skipped += len(part)
        if not part or part.endswith(b"\n"):
            return skipped
PARQUET_SUFFIXES = (".parquet", ".parq")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".json", ".json.gz", ".ndjson", ".ndjson.gz", ".jsonl.bz2")


@dataclass
class InputFiles:
    jsonl_patterns: list[str]
    parquet_files: list[str]
    # Uncompressed-equivalent size (compressed files count 4x), for sharding.
    estimated_bytes: int


COMPRESSION_FACTOR = 4


def expand_inputs(patterns: list[str]) -> InputFiles:
    """Match the patterns at launch; return JSON Lines patterns and Parquet files.

    Matching at launch makes a typo a clear error before any worker starts,
    and routes each file to the reader for its format. A pattern that matches
    only JSON Lines files stays a pattern (one source, however many shards);
    a mixed pattern is broken into its JSON Lines files.
    """
    if not patterns:
        raise CdtpError("no --input given")
    jsonl: list[str] = []
    parquet: list[str] = []
    sizes: dict[str, int] = {}
    seen: set[str] = set()  # a file matched by several patterns is read once
    for pattern in patterns:
        try:
            results = FileSystems.match([pattern])
        except Exception as exc:  # noqa: BLE001 - filesystem errors vary by scheme
            raise CdtpError(f"cannot list input {pattern!r}: {exc}") from exc
        metas = [m for r in results for m in r.metadata_list]
        for m in metas:
            compressed = m.path.lower().endswith((".gz", ".bz2"))
            sizes[m.path] = m.size_in_bytes * (COMPRESSION_FACTOR if compressed else 1)
        paths = sorted(m.path for m in metas)
        if not paths:
            raise CdtpError(f"input pattern {pattern!r} matches no file")
        its_jsonl = []
        for path in paths:
            lower = path.lower()
            if lower.endswith(PARQUET_SUFFIXES):
                parquet.append(path)
            elif lower.endswith(JSONL_SUFFIXES):
                its_jsonl.append(path)
            else:
                raise CdtpError(
                    f"input file {path} is neither JSON Lines ({', '.join(JSONL_SUFFIXES)}) "
                    f"nor Parquet ({', '.join(PARQUET_SUFFIXES)})"
                )
        new = [path for path in its_jsonl if path not in seen]
        if new:
            # One source per pattern, unless the pattern also matches other
            # formats or files an earlier pattern has: then its new files.
            jsonl.extend([pattern] if len(new) == len(paths) else new)
        seen.update(paths)
    return InputFiles(list(dict.fromkeys(jsonl)), sorted(set(parquet)), sum(sizes.values()))


# Records per element out of the readers: the per-element cost of a Beam
# operation is paid once per batch, not once per line.
READ_BATCH = 256


class JsonLinesSource(filebasedsource.FileBasedSource):
    """Lines of JSON Lines files as batches (lists) of (`file@byte_offset`, line bytes)."""

    def __init__(self, pattern: str, batch_size: int = READ_BATCH):
        super().__init__(pattern, compression_type=CompressionTypes.AUTO, splittable=True)
        self.batch_size = max(1, batch_size)

    @contextlib.contextmanager
    def _open(self, file_name: str):
        """The file's bytes. gzip and bz2 go through Python's own readers: Beam's
        decompressor reads a truncated .gz as if it ended there, losing the
        rest silently; these raise EOFError, which becomes an audit row."""
        lower = file_name.lower()
        if not lower.endswith((".gz", ".bz2")):
            with self.open_file(file_name) as fh:
                yield fh
            return
        with FileSystems.open(file_name, compression_type=CompressionTypes.UNCOMPRESSED) as raw:
            reader = gzip.GzipFile(fileobj=raw, mode="rb") if lower.endswith(".gz") else bz2.BZ2File(raw, mode="rb")
            with reader:
                yield reader

    def read_records(self, file_name: str, range_tracker) -> Iterator[list[tuple[str, bytes]]]:
        start = range_tracker.start_position()
        batch: list[tuple[str, Any]] = []
        pos = start
        try:
            with self._open(file_name) as fh:
                if start > 0:
                    # The line that straddles `start` belongs to the previous range:
                    # step back one byte so a line starting exactly at `start` is ours.
                    fh.seek(start - 1)
                    _skip_line(fh)
                pos = fh.tell() if start > 0 else 0
                # Every line is claimed before it is batched, so a split of the
                # range never hands a batched line to another reader.
                while range_tracker.try_claim(pos):
                    line = fh.readline(MAX_LINE_BYTES + 1)
                    if not line:
                        break
                    location = f"{file_name}@{pos}"
                    if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                        # Never hold a runaway line (a file with no newline) in memory.
                        length = len(line) + _skip_line(fh)
                        batch.append((location, {UNREADABLE: f"a line of {length} bytes, over the "
                                                             f"{MAX_LINE_BYTES} limit of one raw entry"}))
                        pos += length
                    else:
                        batch.append((location, line))
                        pos += len(line)
                    if len(batch) >= self.batch_size:
                        yield batch
                        batch = []
        except (OSError, EOFError, zlib.error) as exc:
            # A truncated or corrupt .gz/.bz2 shard: the lines read so far count,
            # the rest of the file is one invalid_input row that says where it broke.
            batch.append((f"{file_name}@{pos}", {UNREADABLE: f"unreadable compressed file: {type(exc).__name__}: "
                                                              f"{str(exc)[:200]} (the rest of the file is lost)"}))
        if batch:
            yield batch


def _parquet_rows(path: str, batch_size: int = READ_BATCH) -> Iterator[list[tuple[str, dict]]]:
    """Rows of one Parquet file, a row group at a time, as batches of (`file#row`, dict)."""
    import pyarrow.parquet as pq

    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        pf = pq.ParquetFile(fh)
        row = 0
        for rg in range(pf.num_row_groups):
            records = pf.read_row_group(rg).to_pylist()
            for i in range(0, len(records), batch_size):
                yield [(f"{path}#row={row + j}", record) for j, record in enumerate(records[i:i + batch_size])]
            row += len(records)


class _ReadParquetFile(beam.DoFn):
    def process(self, path: str):
        try:
            yield from _parquet_rows(path)
        except Exception as exc:  # noqa: BLE001 - a corrupt file is an input problem
            yield [(f"{path}#file", {UNREADABLE: f"unreadable Parquet file: {type(exc).__name__}: {str(exc)[:200]}"})]


class ReadRawRecords(beam.PTransform):
    """All input files -> PCollection of batches (lists) of (location, payload)."""

    def __init__(self, jsonl_patterns: list[str], parquet_files: list[str]):
        super().__init__()
        self.jsonl_patterns = list(jsonl_patterns)
        self.parquet_files = list(parquet_files)

    def expand(self, pbegin):
        parts = []
        for i, pattern in enumerate(self.jsonl_patterns):
            parts.append(pbegin | f"JsonLines[{i}]" >> beam.io.Read(JsonLinesSource(pattern)))
        if self.parquet_files:
            parts.append(
                pbegin
                | "ParquetFiles" >> beam.Create(self.parquet_files)
                | "SpreadFiles" >> beam.Reshuffle()
                | "ParquetRows" >> beam.ParDo(_ReadParquetFile())
            )
        if len(parts) == 1:
            return parts[0]
        return tuple(parts) | "AllInputs" >> beam.Flatten()
