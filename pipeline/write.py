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
import uuid
import zlib
from typing import Any, Iterable

import apache_beam as beam
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from pipeline.batch import items_of
from pipeline.spill import remove_dir

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
    # Control characters too (a NUL cannot be in a path); "." and ".." cannot
    # occur alone, the directory is always "<column>=<value>".
    return "".join("_" if ch in "/\\=:*?\"<>|%" or ch < " " or ch == "\x7f" else ch for ch in value)


def shard_path(base: str, partition: tuple[str, ...], shard: int, num_shards: int) -> str:
    name = f"part-{shard:05d}-of-{num_shards:05d}.parquet"
    return FileSystems.join(base, *partition, name) if partition else FileSystems.join(base, name)


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


KEY_COLUMN = "__sort_key"


def keyed_table(schema, keyed_rows: list[tuple]):
    """(sort key, values) rows -> an Arrow table of `schema` plus the sort key column.

    Converting to Arrow when rows are spilled means a run is written and read
    back as Arrow IPC (no pickling of Python rows), and the shard is sorted
    and written by Arrow without the rows ever becoming Python objects again.
    """
    import pyarrow as pa

    if not keyed_rows:
        return schema.empty_table().append_column(KEY_COLUMN, pa.array([], pa.string()))
    keys, values = zip(*keyed_rows)
    columns = zip(*values)
    arrays = [pa.array(col, type=f.type) for col, f in zip(columns, schema)]
    arrays.append(pa.array(keys, pa.string()))
    return pa.Table.from_arrays(arrays, schema=schema.append(pa.field(KEY_COLUMN, pa.string())))


def sort_order(table) -> list[int]:
    """Row indices of a keyed table in written order: by sort key, equal keys by content.

    Equal keys are rare (an entry given twice): those rows are ordered by
    their JSON form, so a rerun, or a run on more workers, writes
    byte-identical content whatever order the runs came in.
    """
    import json

    import pyarrow.compute as pc

    order = pc.sort_indices(table, sort_keys=[(KEY_COLUMN, "ascending")]).to_pylist()
    keys = table.column(KEY_COLUMN).take(order)
    if len(order) > 1 and pc.any(pc.equal(keys.slice(1), keys.slice(0, len(order) - 1))).as_py():
        keys_py = keys.to_pylist()
        i = 0
        while i < len(order):
            j = i + 1
            while j < len(order) and keys_py[j] == keys_py[i]:
                j += 1
            if j - i > 1:
                rows = table.take(order[i:j]).drop_columns([KEY_COLUMN]).to_pylist()
                ranked = sorted(range(j - i), key=lambda k: json.dumps(rows[k], sort_keys=True, default=str))
                order[i:j] = [order[i + k] for k in ranked]
            i = j
    return order


def write_arrow_file(path: str, table, row_group_size: int, order: list[int] | None = None) -> None:
    """Write an Arrow table to one Parquet file (zstd), rows in `order` (default: as they are).

    The sort key column, if any, is not written. Rows are taken one row
    group at a time, so a sorted copy of the whole shard never exists.
    """
    import pyarrow.parquet as pq

    if KEY_COLUMN in table.column_names:
        table = table.drop_columns([KEY_COLUMN])
    step = max(1, row_group_size)
    # LocalFileSystem.create makes parent directories; object stores need none.
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        with pq.ParquetWriter(fh, table.schema, compression="zstd") as writer:
            if table.num_rows == 0:
                writer.write_table(table)
            for start in range(0, table.num_rows, step):
                chunk = table.take(order[start:start + step]) if order is not None else table.slice(start, step)
                writer.write_table(chunk, row_group_size=step)


def _write_ipc(directory: str, table) -> str:
    """A spilled run: one Arrow IPC stream under `directory`, uniquely named."""
    import pyarrow as pa

    path = FileSystems.join(directory, f"run-{uuid.uuid4().hex}.arrow")
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        with pa.ipc.new_stream(fh, table.schema) as writer:
            writer.write_table(table)
    return path


def _read_ipc(path: str):
    import pyarrow as pa

    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        return pa.ipc.open_stream(fh.read()).read_all()


class _SpillShards(beam.DoFn):
    """rows -> runs of each shard spilled to files -> ((partition, shard, n), run path).

    Rows are buffered per shard as (sort key, row tuple in schema order) and,
    every `spill_rows` rows and at the end of the bundle, each shard's buffer
    becomes an Arrow table written as one IPC file under `spill_dir`. Only the
    file names cross the shuffle, so no runner ever holds all rows in memory
    (the DirectRunner's GroupByKey keeps everything it groups). A retried
    bundle writes new, uniquely named files; the failed attempt's files are
    never named downstream and go with the spill directory.
    """

    def __init__(self, schema, partition_by, key_columns, num_shards, spill_dir, spill_rows):
        self.schema = schema
        self.names = tuple(schema.names)
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
        buffers, n, partition_by, keyer = self._buffers, self.num_shards, self.partition_by, self._keyed
        rows = items_of(element)
        last_first, target = None, None
        for row in rows:
            keyed = keyer(row)
            first = keyed[0].partition("\x1f")[0]
            if partition_by or first != last_first:  # an entry's rows come one after another
                part = partition_of(row, partition_by) if partition_by else ()
                target = (part, stable_hash(first) % n, n)
                last_first = first
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
            yield (target, _write_ipc(self.spill_dir, keyed_table(self.schema, buffers[target])))


class _WriteShard(beam.DoFn):
    """((partition, shard, n), spilled run paths) -> one sorted Parquet file (Arrow all the way)."""

    def __init__(self, base, schema, row_group_size):
        self.base = base
        self.schema = schema
        self.row_group_size = row_group_size

    def process(self, element):
        import pyarrow as pa

        (part, shard, n), paths = element
        table = pa.concat_tables([_read_ipc(path) for path in sorted(paths)])
        path = shard_path(self.base, part, shard, n)
        write_arrow_file(path, table, self.row_group_size, sort_order(table))
        yield (path, table.num_rows)


class WriteParquetShards(beam.PTransform):
    """rows (dicts, or lists of dicts; one PCollection or a tuple of them)
    -> Parquet shards under `base`.

    Returns (path, rows) per file.

    `num_shards` is per output (per partition for partitioned outputs) and is
    fixed when the pipeline is built (see build.resolve_num_shards), so no
    counting pass over the rows is needed before they are sharded. Rows are
    spilled as Arrow IPC runs under `spill_dir` (default `<base>/_spill`, removed
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
        spill = _SpillShards(self.schema, self.partition_by, self.key_columns, self.num_shards,
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
    write_arrow_file(shard_path(base, part, 0, 1), schema.empty_table(), 1)
