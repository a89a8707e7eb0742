"""Embeddings for the items stage: every unique string embedded once, ever.

The stage collects the distinct strings an item may show (names, values,
numeric variants), looks them up in a persistent cache (Arrow IPC files under
`embed_cache/<embedder>/`, kept across builds), embeds only the missing ones,
in sorted order and fixed batches, and appends them to the cache as one new
file per chunk of them (`missing_chunks`, `embed_chunk`: chunks side by
side, cut at the batches one worker would embed). One worker
then writes this run's vectors to one file (`write_run_vectors`) that the
question step opens once per worker. So the encoder sees each unique string exactly once
(counters `items|embed|*` in stats.json), a rerun embeds nothing, and the
similarities do not depend on how Beam bundled the strings.

A vector file is 2 KB a string (512 float32): about 20 GB at 10M strings. No
process holds one in its own memory. A file is memory-mapped (a remote one is
copied to the machine's disk first, once for all its worker processes), so
the pages a worker reads sit in the OS's page cache, shared by them. Its
rows are found by a sorted array of their texts' hashes (`VectorIndex`), not by
a dict of every text; the matrices the embedding step writes are filled on
disk, row batch by row batch.
"""
from __future__ import annotations

import atexit
import hashlib
import operator
import os
import re
import shutil
import tempfile
from typing import Iterable

import numpy as np
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from pipeline.funnel import NAMESPACE

BATCH = 256
_ROWS = 65536  # texts looked up at a time
_COPY_ROWS = 1024  # vectors copied at a time from the cache files into this run's matrix (2 MB)
_COPY = 16 << 20
_INT32_MAX = 2**31 - 1
_LOCAL: dict[str, str] = {}  # remote vector file -> its local copy, for this process


def _spec_dir(cache_dir: str, spec: str) -> str:
    return FileSystems.join(cache_dir, re.sub(r"[^A-Za-z0-9_.-]+", "_", spec))


def _local(path: str) -> str:
    """A local file holding `path`: itself, or (gs://, s3://...) a copy on this
    machine's disk, made once and shared by its worker processes (written under
    another name, then renamed into place). Its maker removes it on exit; a
    process that still maps it keeps its pages."""
    if FileSystems.get_scheme(path) is None:
        return path
    if path not in _LOCAL:
        size = FileSystems.match([path])[0].metadata_list[0].size_in_bytes
        name = hashlib.blake2b(f"{path}\n{size}".encode("utf-8"), digest_size=12).hexdigest()
        local = os.path.join(tempfile.gettempdir(), f"cdtp-vectors-{name}.arrow")
        if not (os.path.exists(local) and os.path.getsize(local) == size):
            fd, part = tempfile.mkstemp(prefix=f"cdtp-vectors-{name}.", suffix=".part")
            try:
                with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as src, \
                        os.fdopen(fd, "wb") as dst:
                    shutil.copyfileobj(src, dst, _COPY)
                os.replace(part, local)
            except BaseException:
                os.unlink(part)
                raise
            atexit.register(lambda: os.path.exists(local) and os.unlink(local))
        _LOCAL[path] = local
    return _LOCAL[path]


def _write_table(path: str, texts: list[str], vectors: np.ndarray) -> None:
    """One file of (text, vector) rows: one record batch, so that a reader maps
    its vectors as one matrix. `vectors` may be a memory map: it is written
    from the pages, not copied into memory."""
    import pyarrow as pa

    dim = vectors.shape[1] if vectors.ndim == 2 else 0
    flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1), pa.float32())
    # Past 2**31 - 1 values in one array (4.2M vectors of 512) Arrow's IPC writer
    # refuses the batch unless told 64-bit lengths are fine; texts past 2 GB of
    # UTF-8 need 64-bit offsets (a character is at most 4 bytes).
    text_type = pa.large_string() if 4 * sum(map(len, texts)) > _INT32_MAX else pa.string()
    table = pa.table({"text": pa.array(texts, text_type),
                      "vector": pa.FixedSizeListArray.from_arrays(flat, dim)})
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        with pa.ipc.new_stream(fh, table.schema, options=pa.ipc.IpcWriteOptions(allow_64bit=True)) as w:
            w.write_table(table, max_chunksize=max(len(texts), 1))


def _text_hash(text: str) -> int:
    """Python's own hash of a str: cached on the string, the same in one process
    (an index is built and read in one process)."""
    return hash(text)


class VectorIndex:
    """text -> row of one vector file, as a read-only mapping. The rows' text
    hashes, sorted, in two arrays of 8 bytes a row, and the text itself compared
    on a hit, instead of a dict of every text (about 180 bytes a row)."""

    def __init__(self, texts):
        self._texts = texts  # an Arrow string array, memory-mapped
        hashes = np.empty(len(texts), np.int64)
        for start in range(0, len(texts), _ROWS):
            chunk = texts.slice(start, _ROWS).to_pylist()
            hashes[start:start + len(chunk)] = [_text_hash(t) for t in chunk]
        self._order = np.argsort(hashes, kind="stable")
        self._hashes = hashes[self._order]

    def __len__(self) -> int:
        return len(self._hashes)

    def _find(self, text: str, i: int) -> int | None:
        """The row of `text` among the rows of its hash, from sorted place i on."""
        n, h = len(self._hashes), self._hashes[i] if i < len(self._hashes) else None
        while i < n and self._hashes[i] == h:
            row = int(self._order[i])
            if self._texts[row].as_py() == text:
                return row
            i += 1
        return None

    def rows(self, texts: list[str]) -> list[int | None]:
        """The row of each text, None for a text not in the file."""
        import pyarrow as pa

        if len(texts) < 16 or not len(self._hashes):
            return [self.get(t) for t in texts]
        wanted = np.fromiter(map(_text_hash, texts), np.int64, len(texts))
        at = np.minimum(np.searchsorted(self._hashes, wanted), len(self._hashes) - 1)
        hits = np.flatnonzero(self._hashes[at] == wanted)
        rows = self._order[at[hits]]
        out: list[int | None] = [None] * len(texts)
        for k, row, stored in zip(hits.tolist(), rows.tolist(), self._texts.take(pa.array(rows)).to_pylist()):
            out[k] = row if stored == texts[k] else self._find(texts[k], int(at[k]))
        return out

    def holding(self, texts: list[str], hashes: np.ndarray, order: np.ndarray):
        """(positions in `texts`, rows) of the texts this file holds, block by block
        of its rows, each text with its first row. `hashes` are the texts'
        hashes sorted, `order` their positions. The file's hashes are looked up
        among the texts' (a binary search of each row, vectorised), so
        matching costs rows x log(texts), not texts per file; every pair of
        equal hashes is kept and its two texts compared, so a collision finds
        nothing wrong."""
        import pyarrow as pa

        for start in range(0, len(self._hashes), _ROWS):
            mine = self._hashes[start:start + _ROWS]
            lo = np.searchsorted(hashes, mine, "left")
            counts = np.searchsorted(hashes, mine, "right") - lo
            if not counts.any():
                continue
            at = np.repeat(np.arange(len(mine)), counts)  # each pair: its row's place in the block...
            first = np.repeat(np.cumsum(counts) - counts, counts)
            pos = order[lo[at] + np.arange(len(at)) - first]  # ...and its text's position
            rows = self._order[start + at]
            stored = self._texts.take(pa.array(rows)).to_pylist()
            same = np.fromiter(map(operator.eq, stored, map(texts.__getitem__, pos.tolist())), bool, len(pos))
            # Rows of one hash are in file order (a stable sort): a text the file holds twice keeps its first row.
            pos, keep = np.unique(pos[same], return_index=True)
            yield pos, rows[same][keep]

    def get(self, text: str, default=None):
        h = _text_hash(text)
        i = int(np.searchsorted(self._hashes, h))
        row = self._find(text, i) if i < len(self._hashes) and self._hashes[i] == h else None
        return default if row is None else row

    def __contains__(self, text) -> bool:
        return isinstance(text, str) and self.get(text) is not None

    def __getitem__(self, text: str) -> int:
        row = self.get(text)
        if row is None:
            raise KeyError(text)
        return row


def read_vectors(path: str) -> tuple[VectorIndex, np.ndarray]:
    """(text -> row, float32 matrix) of one vector file, memory-mapped (the module doc)."""
    import pyarrow as pa

    try:
        source = pa.memory_map(_local(path), "r")
    except FileNotFoundError:  # a shared copy removed by the process that made it: copy again
        _LOCAL.pop(path, None)
        source = pa.memory_map(_local(path), "r")
    reader = pa.ipc.open_stream(source)
    table = reader.read_all()  # zero-copy: its buffers are the map's pages
    texts = table.column("text").combine_chunks()
    vectors = table.column("vector")
    dim = vectors.type.list_size
    if vectors.num_chunks != 1:  # not written by _write_table: read whole
        matrix = vectors.combine_chunks().flatten().to_numpy(zero_copy_only=False)
    else:
        matrix = vectors.chunk(0).flatten().to_numpy(zero_copy_only=True)
    return VectorIndex(texts), matrix.astype(np.float32, copy=False).reshape(-1, dim)


def _cache_files(spec_dir: str) -> list[str]:
    try:
        return sorted(m.path for m in FileSystems.match([FileSystems.join(spec_dir, "*.arrow")])[0].metadata_list)
    except Exception:  # noqa: BLE001 - no cache yet
        return []


def _read_cache_file(path: str) -> tuple[VectorIndex, np.ndarray]:
    import pyarrow as pa

    try:
        return read_vectors(path)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, KeyError, ValueError, OSError) as err:  # a truncated body is an OSError
        raise _not_a_vector_file(path, err) from None


def _not_a_vector_file(path: str, err: Exception) -> Exception:
    from pipeline.errors import CdtpError

    return CdtpError(f"{path} in the embedding cache is not a vector file ({type(err).__name__}: "
                     f"{str(err).splitlines()[0] if str(err) else ''}); remove it, or give another --embed-cache")


def check_cache(cache_dir: str, spec: str) -> None:
    """Refuse, before a build starts, a cache file that is not a vector file: its
    schema is read (one small read a file, remote or not), so a stray file
    fails the build in its first second, not after the cleaning stages, and
    not as a worker's traceback."""
    import pyarrow as pa

    for path in _cache_files(_spec_dir(cache_dir, spec)):
        try:
            with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
                schema = pa.ipc.open_stream(fh).schema
            if not (schema.names == ["text", "vector"] and pa.types.is_fixed_size_list(schema.field("vector").type)):
                raise ValueError(f"its columns are {', '.join(schema.names)}")
        except (pa.ArrowException, ValueError, OSError) as err:
            raise _not_a_vector_file(path, err) from None


def _locate(texts: list[str], files: list[str], matrices: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(file, row) of each text's vector: the first of `files` that has it, -1 for none.

    Each text is hashed once (16 bytes a text with its place); each file's rows
    are then matched against all the texts at once (VectorIndex.holding), not
    the texts still missing looked up one by one in every file, which cost
    files x texts in Python: 50 files of 10M strings."""
    where_file = np.full(len(texts), -1, np.int32)
    where_row = np.zeros(len(texts), np.int64)
    hashes = np.fromiter(map(_text_hash, texts), np.int64, len(texts))
    order = np.argsort(hashes, kind="stable")
    hashes = hashes[order]
    left = len(texts)
    for fi, path in enumerate(files):
        if not left:
            break
        index, matrices[fi] = _read_cache_file(path)
        for pos, rows in index.holding(texts, hashes, order):
            new = where_file[pos] < 0  # an earlier file's vector is kept
            where_file[pos[new]], where_row[pos[new]] = fi, rows[new]
            left -= int(new.sum())
    return where_file, where_row


def _write_cache_file(spec_dir: str, texts: list[str], vectors: np.ndarray) -> None:
    """A new cache file, written under another name and then renamed: another
    worker listing the cache meanwhile never reads half a file."""
    digest = hashlib.blake2b("\n".join(texts).encode("utf-8"), digest_size=8).hexdigest()
    path = FileSystems.join(spec_dir, f"cache-{digest}.arrow")
    part = path + ".part"
    _write_table(part, texts, vectors)
    FileSystems.rename([part], [path])


def missing_chunks(strings: Iterable[str], spec: str, cache_dir: str, size: int) -> list[list[str]]:
    """The strings the cache lacks, sorted, in chunks of `size` rounded up to whole
    batches: embedded chunk by chunk (embed_chunk), side by side, they are
    embedded in the very batches one worker would embed them in. (A USE vector
    may move in its last bit with the other strings of its batch: 13 of 8,973
    strings of a build did, when their batches were cut otherwise.)"""
    texts = sorted(set(strings))
    where_file, _ = _locate(texts, _cache_files(_spec_dir(cache_dir, spec)), {})
    missing = [texts[t] for t in np.flatnonzero(where_file < 0).tolist()]
    Metrics.counter(NAMESPACE, "items|embed|cache_hits").inc(len(texts) - len(missing))
    Metrics.counter(NAMESPACE, "items|embed|embedded").inc(0)  # reported as 0 when no chunk is embedded
    step = -(-max(size, 1) // BATCH) * BATCH
    return [missing[i:i + step] for i in range(0, len(missing), step)]


def embed_chunk(missing: list[str], spec: str, cache_dir: str, embedder=None) -> int:
    """Embed one chunk of missing_chunks, in batches, into a new cache file filled on disk; returns its size."""
    if not missing:
        return 0
    if embedder is None:
        from transforms.embed import make_embedder

        embedder = make_embedder(spec)
    work = tempfile.mkdtemp(prefix="cdtp-embed-")
    try:
        matrix = None
        for i in range(0, len(missing), BATCH):
            part = np.asarray(embedder.encode(missing[i:i + BATCH]), np.float32)
            if matrix is None:
                matrix = np.lib.format.open_memmap(os.path.join(work, "new.npy"), "w+", np.float32,
                                                   (len(missing), part.shape[1]))
            matrix[i:i + len(part)] = part
        _write_cache_file(_spec_dir(cache_dir, spec), missing, matrix)
        del matrix
    finally:
        shutil.rmtree(work, ignore_errors=True)
    Metrics.counter(NAMESPACE, "items|embed|embedded").inc(len(missing))
    return len(missing)


def write_run_vectors(strings: Iterable[str], spec: str, cache_dir: str, out_path: str) -> str:
    """This run's vector file: every string's vector, from the cache (embed_chunk
    has put each there), copied on disk in sorted order; returns its path."""
    from pipeline.errors import CdtpError

    texts = sorted(set(strings))
    Metrics.counter(NAMESPACE, "items|embed|unique_strings").inc(len(texts))
    if not texts:
        _write_table(out_path, [], np.zeros((0, 1), np.float32))
        return out_path
    matrices: dict[int, np.ndarray] = {}
    where_file, where_row = _locate(texts, _cache_files(_spec_dir(cache_dir, spec)), matrices)
    if (where_file < 0).any():
        lost = [texts[t] for t in np.flatnonzero(where_file < 0)[:3].tolist()]
        raise CdtpError(f"the embedding cache under {cache_dir} lacks {int((where_file < 0).sum())} of this "
                        f"run's strings (e.g. {lost}): was it changed during the build?")
    work = tempfile.mkdtemp(prefix="cdtp-embed-")
    try:
        dim = matrices[int(where_file[0])].shape[1]
        out = np.lib.format.open_memmap(os.path.join(work, "out.npy"), "w+", np.float32, (len(texts), dim))
        for fi in np.unique(where_file).tolist():
            rows = np.flatnonzero(where_file == fi)
            for start in range(0, len(rows), _COPY_ROWS):
                part = rows[start:start + _COPY_ROWS]
                out[part] = matrices[fi][where_row[part]]
        _write_table(out_path, texts, out)
        del out
        return out_path
    finally:
        shutil.rmtree(work, ignore_errors=True)


def embed_all(strings: Iterable[str], spec: str, cache_dir: str, out_path: str, embedder=None) -> str:
    """Vectors of every string (from the cache, or embedded once) written to `out_path`; returns it."""
    texts = sorted(set(strings))
    for chunk in missing_chunks(texts, spec, cache_dir, len(texts)):
        embed_chunk(chunk, spec, cache_dir, embedder)
    return write_run_vectors(texts, spec, cache_dir, out_path)
