"""Deterministic, balanced, Hive-partitioned Parquet shards with explicit schemas.

Why not `WriteToParquet`: it packs rows into 64 MiB buffers before sharding
(100k rows, num_shards=4 came out 100000/0/0/0 here), it cannot write Hive
partitions, and the rows inside a shard depend on bundling, so the same input
gives different files on 1 and 2 workers. Here:

* a row goes to shard `hash(first key column) % n` of its partition, so
  shards are balanced by row count, the assignment does not depend on
  workers, and the audit rows of one entry share a shard;
* `n` is fixed when the pipeline is built: `num_shards`, or derived from the
  input size, so no counting pass has to hold the rows back;
* each shard is sorted by the sort key before it is written, so a rerun, or a
  run on more workers, writes byte-identical content;
* files are written through Beam's FileSystems (gs:// works) with the declared
  pyarrow schema, never an inferred one.

Partition directories follow Hive: `pairs/domain=HP/split=train/part-00000-of-00002.parquet`;
a null partition value is written as the configured placeholder.
"""
from __future__ import annotations

import operator
import zlib
from typing import Any, Iterable

import apache_beam as beam
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from pipeline.batch import items_of
from pipeline.spill import read_run, remove_dir, write_run

NULL_PARTITION = {"domain": "unknown", "split": "unassigned"}


def sort_key(row: dict[str, Any], columns: tuple[str, ...]) -> str:
    """A total order over rows from scalar columns, as one string (cheap to
    compare, hash and ship)."""
    return "\x1f".join([v if v.__class__ is str else ("" if v is None else str(v))
                         for v in map(row.get, columns)])


def stable_hash(key: str) -> int:
    """crc32: stable across processes, machines and Python versions (unlike hash())."""
    return zlib.crc32(key.encode("utf-8"))


def partition_of(row: dict[str, Any], partition_by: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for col in partition_by:
        value = row.get(col)
        if value is None or value == "":
            value = NULL_PARTITION.get(col, "unknown")
        out.append(f"{col}={_safe_partition_value(str(value))}")
    return tuple(out)


def _safe_partition_value(value: str) -> str:
    # Hive escapes '/', '=' and the like; our values are short codes, so we
    # simply replace anything that would break the directory layout.
    return "".join("_" if ch in "/\\=:*?\"<>|%" else ch for ch in value)


def shard_path(base: str, partition: tuple[str, ...], shard: int, num_shards: int) -> str:
    name = f"part-{shard:05d}-of-{num_shards:05d}.parquet"
    return FileSystems.join(base, *partition, name) if partition else FileSystems.join(base, name)


def write_table_file(path: str, schema, rows: list[tuple], row_group_size: int) -> None:
    """Write rows (tuples in schema column order, already ordered) to one Parquet file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    # LocalFileSystem.create makes parent directories; object stores need none.
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        writer = pq.ParquetWriter(fh, schema, compression="zstd")
        try:
            if not rows:
                writer.write_table(schema.empty_table())
            for i in range(0, len(rows), row_group_size):
                columns = list(zip(*rows[i : i + row_group_size]))
                arrays = [pa.array(list(col), type=f.type) for col, f in zip(columns, schema)]
                writer.write_table(pa.Table.from_arrays(arrays, schema=schema), row_group_size=row_group_size)
        finally:
            writer.close()


class RowKeyer:
    """row dict -> (sort key, values in schema order): what a shard is sorted by and written from.

    itemgetter is one C call per row; rows missing a column (or with a
    non-string key value) take the general path, with the same result.
    """

    def __init__(self, names, key_columns):
        self.names = tuple(names)
        self.key_columns = tuple(key_columns)
        self._values = operator.itemgetter(*self.names)
        self._key_values = operator.itemgetter(*self.key_columns)
        self._single = len(self.names) == 1
        self._single_key = len(self.key_columns) == 1

    def __call__(self, row: dict[str, Any]) -> tuple[str, tuple]:
        try:
            values = self._values(row)
            key_values = self._key_values(row)
            key = key_values if self._single_key else "\x1f".join(key_values)
            if key.__class__ is not str:
                raise TypeError
        except (KeyError, TypeError):
            return sort_key(row, self.key_columns), tuple(map(row.get, self.names))
        return key, ((values,) if self._single else values)


def sort_rows(keyed_rows: list[tuple]) -> list[tuple]:
    """Rows of one shard in their written order: by sort key, equal keys by content."""
    # Runs read back from spill files are sorted already, so timsort only
    # merges them; equal keys (rare: an entry given twice) are ordered by the
    # row itself. A rerun, or a run on more workers, writes byte-identical content.
    keyed_rows.sort(key=_first)
    _order_ties(keyed_rows)
    return [r for _, r in keyed_rows]


class _SpillShards(beam.DoFn):
    """rows -> sorted runs of each shard spilled to files -> ((partition, shard, n), run path).

    Rows are buffered per shard as (sort key, row tuple in schema order) and,
    every `spill_rows` rows and at the end of the bundle, each shard's buffer
    is sorted and pickled to its own file under `spill_dir`. Only the file
    names cross the shuffle, so no runner ever holds all rows in memory (the
    DirectRunner's GroupByKey keeps everything it groups). Tuples, not dicts,
    are spilled: the column names are not stored once per row. A retried
    bundle writes new, uniquely named files; the failed attempt's files are
    never named downstream and go with the spill directory.
    """

    def __init__(self, names, partition_by, key_columns, num_shards, spill_dir, spill_rows):
        self.names = tuple(names)
        self.partition_by = tuple(partition_by)
        self.key_columns = tuple(key_columns)
        self.num_shards = max(1, num_shards)
        self.spill_dir = spill_dir
        self.spill_rows = max(1, spill_rows)

    def setup(self):
        self._keyed = RowKeyer(self.names, self.key_columns)

    def start_bundle(self):
        self._buffers: dict[tuple, list] = {}
        self._buffered = 0

    def process(self, element):
        # Each row goes to the shard of its first key column (pair_id, or
        # entry_key for audit rows, so an entry's rows stay in one shard).
        buffers, n, partition_by = self._buffers, self.num_shards, self.partition_by
        rows = items_of(element)
        for row in rows:
            keyed = self._keyed(row)
            shard = stable_hash(keyed[0].partition("\x1f")[0]) % n
            target = (partition_of(row, partition_by) if partition_by else (), shard, n)
            buf = buffers.get(target)
            if buf is None:
                buf = buffers[target] = []
            buf.append(keyed)
        self._buffered += len(rows)
        if self._buffered >= self.spill_rows:
            yield from self._spill()

    def finish_bundle(self):
        from apache_beam.transforms.window import GlobalWindows

        for out in self._spill():
            yield GlobalWindows.windowed_value(out)

    def _spill(self):
        buffers, self._buffers, self._buffered = self._buffers, {}, 0
        for target in sorted(buffers):
            rows = buffers[target]
            rows.sort(key=_first)
            yield (target, write_run(self.spill_dir, "run", rows))


def _first(kv):
    return kv[0]


def _order_ties(keyed_rows: list[tuple]) -> None:
    """Order rows with equal sort keys (rare: an entry given twice) by their content."""
    i, n = 0, len(keyed_rows)
    while i < n:
        j = i + 1
        while j < n and keyed_rows[j][0] == keyed_rows[i][0]:
            j += 1
        if j - i > 1:
            keyed_rows[i:j] = sorted(keyed_rows[i:j], key=repr)
        i = j


class _WriteShard(beam.DoFn):
    """((partition, shard, n), spilled run paths) -> one sorted Parquet file."""

    def __init__(self, base, schema, row_group_size):
        self.base = base
        self.schema = schema
        self.row_group_size = row_group_size

    def process(self, element):
        (part, shard, n), paths = element
        keyed_rows: list[tuple] = []
        for path in sorted(paths):
            keyed_rows.extend(read_run(path))
        path = shard_path(self.base, part, shard, n)
        write_table_file(path, self.schema, sort_rows(keyed_rows), self.row_group_size)
        yield (path, len(keyed_rows))


class WriteParquetShards(beam.PTransform):
    """rows (dicts, or lists of dicts; one PCollection or a tuple of them)
    -> Parquet shards under `base`.

    Returns (path, rows) per file.

    `num_shards` is per output (per partition for partitioned outputs) and is
    fixed when the pipeline is built (see build.resolve_num_shards), so no
    counting pass over the rows is needed before they are sharded. Rows are
    spilled as sorted runs under `spill_dir` (default `<base>/_spill`, removed
    at the end) and only run names are grouped by shard; memory is bounded by
    `spill_rows` per worker and by the largest shard when it is written.
    """

    def __init__(
        self,
        base: str,
        schema,
        key_columns: Iterable[str],
        partition_by: Iterable[str] = (),
        num_shards: int = 1,
        row_group_size: int = 50_000,
        spill_dir: str | None = None,
        spill_rows: int = 20_000,
    ):
        super().__init__()
        self.base = base
        self.schema = schema
        self.key_columns = tuple(key_columns)
        self.partition_by = tuple(partition_by)
        self.num_shards = max(1, num_shards)
        self.row_group_size = max(1, row_group_size)
        self.spill_dir = spill_dir or FileSystems.join(base, "_spill")
        self.spill_rows = spill_rows

    def expand(self, rows):
        spill = _SpillShards(self.schema.names, self.partition_by, self.key_columns, self.num_shards,
                             self.spill_dir, self.spill_rows)
        # Several inputs (e.g. the audit rows of every stage) are spilled each
        # where it is produced: a Flatten of the rows themselves would be held
        # whole by the DirectRunner until its last input is done.
        parts = rows if isinstance(rows, (tuple, list)) else (rows,)
        runs = [part | f"SpillRuns[{i}]" >> beam.ParDo(spill) for i, part in enumerate(parts)]
        if len(runs) != 1:
            runs = [tuple(runs) | "AllRuns" >> beam.Flatten()]
        written = (
            runs[0]
            | "GroupRuns" >> beam.GroupByKey()
            | "WriteShard" >> beam.ParDo(_WriteShard(self.base, self.schema, self.row_group_size))
        )
        _ = (written
             | "AllWritten" >> beam.combiners.Count.Globally()
             | "RemoveSpill" >> beam.Map(remove_dir, self.spill_dir))
        return written


def ensure_nonempty(base: str, schema, partition_by: tuple[str, ...] = ()) -> None:
    """Write one empty shard if an output has no file, so readers see the schema."""
    try:
        found = FileSystems.match([FileSystems.join(base, "**.parquet")])[0].metadata_list
    except Exception:  # noqa: BLE001 - missing directory
        found = []
    if found:
        return
    part = tuple(f"{c}={NULL_PARTITION.get(c, 'unknown')}" for c in partition_by)
    write_table_file(shard_path(base, part, 0, 1), schema, [], 1)
