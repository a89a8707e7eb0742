"""Embeddings for the items stage: every unique string embedded once, ever.

The stage collects the distinct strings an item may show (names, values,
numeric variants), looks them up in a persistent cache (Arrow IPC files under
`embed_cache/<embedder>/`, kept across builds), embeds only the missing ones,
in sorted order and fixed batches, and appends them to the cache as one new
file. It then writes this run's vectors to one file that the question step
loads once per worker. So the encoder sees each unique string exactly once
(counters `items|embed|*` in stats.json), a rerun embeds nothing, and the
similarities do not depend on how Beam bundled the strings.
"""
from __future__ import annotations

import hashlib
import re
from typing import Iterable

import numpy as np
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from pipeline.funnel import NAMESPACE

BATCH = 256


def _spec_dir(cache_dir: str, spec: str) -> str:
    return FileSystems.join(cache_dir, re.sub(r"[^A-Za-z0-9_.-]+", "_", spec))


def _write_table(path: str, texts: list[str], vectors: np.ndarray) -> None:
    import pyarrow as pa

    dim = vectors.shape[1] if vectors.ndim == 2 else 0
    flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1), pa.float32())
    table = pa.table({"text": pa.array(texts, pa.string()),
                      "vector": pa.FixedSizeListArray.from_arrays(flat, dim)})
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        with pa.ipc.new_stream(fh, table.schema) as w:
            w.write_table(table)


def read_vectors(path: str) -> tuple[dict[str, int], np.ndarray]:
    """(text -> row, float32 matrix) of one vector file."""
    import pyarrow as pa

    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        table = pa.ipc.open_stream(fh.read()).read_all()
    texts = table.column("text").to_pylist()
    col = table.column("vector").combine_chunks()
    dim = col.type.list_size
    matrix = col.values.to_numpy(zero_copy_only=False).astype(np.float32, copy=False).reshape(-1, dim)
    return {t: i for i, t in enumerate(texts)}, matrix


def _cached(spec_dir: str, wanted: set[str]) -> dict[str, np.ndarray]:
    try:
        files = sorted(m.path for m in FileSystems.match([FileSystems.join(spec_dir, "*.arrow")])[0].metadata_list)
    except Exception:  # noqa: BLE001 - no cache yet
        files = []
    found: dict[str, np.ndarray] = {}
    for path in files:
        index, matrix = read_vectors(path)
        for text, row in index.items():
            if text in wanted and text not in found:
                found[text] = matrix[row]
    return found


def embed_all(strings: Iterable[str], spec: str, cache_dir: str, out_path: str, embedder=None) -> str:
    """Vectors of every string (from the cache, or embedded once) written to `out_path`; returns it."""
    texts = sorted(set(strings))
    spec_dir = _spec_dir(cache_dir, spec)
    found = _cached(spec_dir, set(texts))
    missing = [t for t in texts if t not in found]
    if missing:
        if embedder is None:
            from transforms.embed import make_embedder

            embedder = make_embedder(spec)
        parts = [embedder.encode(missing[i:i + BATCH]) for i in range(0, len(missing), BATCH)]
        vectors = np.vstack(parts)
        digest = hashlib.blake2b("\n".join(missing).encode("utf-8"), digest_size=8).hexdigest()
        _write_table(FileSystems.join(spec_dir, f"cache-{digest}.arrow"), missing, vectors)
        for t, v in zip(missing, vectors):
            found[t] = v
    Metrics.counter(NAMESPACE, "items|embed|unique_strings").inc(len(texts))
    Metrics.counter(NAMESPACE, "items|embed|embedded").inc(len(missing))
    Metrics.counter(NAMESPACE, "items|embed|cache_hits").inc(len(texts) - len(missing))
    dim = next(iter(found.values())).shape[0] if found else 1
    matrix = np.vstack([found[t] for t in texts]) if texts else np.zeros((0, dim), np.float32)
    _write_table(out_path, texts, matrix)
    return out_path
