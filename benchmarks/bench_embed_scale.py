"""The items stage's embedding step at scale: EmbedStrings over N distinct strings (not a timed test).

The step the items stage runs once per build (pipeline/items_stage.py
EmbedStrings): the edges' strings are made distinct and listed on one worker,
the ones the cache lacks are embedded in chunks side by side, and one worker
copies every string's vector into the run's file. At the paper's scale (7M
pairs, 15M triples) that is about ten million strings, 20 GB of vectors.

This runs the real PTransform on the DirectRunner over synthetic edges read
from a text file, with a stand-in embedder (seeded vectors: the embedder's
own speed is bench_items' business; USE embeds about 2,900 strings a
CPU-second here), cold cache then warm, and reports wall time, the process's
peak anonymous memory (its RSS also counts mapped file pages), the vector file's size, and a lookup of 100k strings in the file
(`read_vectors`: memory-mapped). Two edges in ten repeat an earlier string, so
Distinct has work to do.

    python -m benchmarks.bench_embed_scale [--strings 1000000] [--dir DIR]
"""
from __future__ import annotations

import argparse
import filecmp
import os
import resource
import shutil
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.results import emit, figure  # noqa: E402

DIM = 512
_CJK = [chr(c) for c in range(0x4E00, 0x4E00 + 4096)]


def name(i: int) -> str:
    """The i-th synthetic string: 3-6 CJK characters, distinct for distinct i."""
    out = []
    i += 1
    while i:
        i, r = divmod(i, len(_CJK))
        out.append(_CJK[r])
    return "".join(out) + _CJK[zlib.crc32(str(i).encode()) % len(_CJK)] * (1 + len(out) % 3)


class StandInEmbedder:
    """Seeded unit vectors: what the file handling sees of an embedder."""

    spec = "stand-in"
    dim = DIM

    def encode(self, texts):
        out = np.empty((len(texts), DIM), np.float32)
        for k, t in enumerate(texts):
            v = np.random.default_rng(zlib.crc32(t.encode("utf-8"))).standard_normal(DIM).astype(np.float32)
            out[k] = v / np.linalg.norm(v)
        return out


def write_edges(path: Path, n_strings: int) -> int:
    """Lines `head<TAB>tail`: every string 0..n-1 once, then a fifth as many repeats."""
    lines = 0
    with path.open("w", encoding="utf-8") as fh:
        for i in range(0, n_strings - 1, 2):
            fh.write(f"{name(i)}\t{name(i + 1)}\n")
            lines += 1
        for i in range(0, n_strings // 5, 2):
            fh.write(f"{name(i * 7 % n_strings)}\t{name((i * 13 + 1) % n_strings)}\n")
            lines += 1
    return lines


def edge_of(line: str) -> tuple:
    head, tail = line.split("\t")
    return (None, head, None, "other", "关联", tail, "other", "unknown", "train", False)


class AnonPeak:
    """The process's peak anonymous memory (RssAnon, sampled every 50 ms): its
    RSS also counts the pages of the memory-mapped vector files, which the OS
    may drop at will."""

    def __init__(self):
        import threading

        self.peak, self._stop = 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def now() -> int:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) * 1024
        return 0

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self.now())
            self._stop.wait(0.05)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def run_step(edges_file: Path, cache_dir: Path, out_path: Path) -> float:
    import apache_beam as beam
    from apache_beam.options.pipeline_options import PipelineOptions

    from pipeline.items_stage import EmbedStrings
    from transforms.items.config import ItemsConfig

    cfg = ItemsConfig(embedder="use-m3")
    start = time.perf_counter()
    with beam.Pipeline(options=PipelineOptions(["--runner=DirectRunner"])) as p:
        _ = (p | beam.io.ReadFromText(str(edges_file))
             | beam.Map(edge_of)
             | EmbedStrings(cfg, str(cache_dir), str(out_path)))
    return time.perf_counter() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--strings", type=int, default=1_000_000)
    ap.add_argument("--dir", default=None, help="work folder (needs about 4.5 KB a string; default: a temp dir)")
    args = ap.parse_args(argv)

    import transforms.embed as embed

    embed.make_embedder = lambda spec=None, shared=True: StandInEmbedder()  # noqa: ARG005 - the stand-in
    base = Path(args.dir or tempfile.mkdtemp(prefix="cdtp-embed-scale-"))
    base.mkdir(parents=True, exist_ok=True)
    try:
        edges = base / "edges.tsv"
        t0 = time.perf_counter()
        lines = write_edges(edges, args.strings)
        print(f"{lines:,} edges written in {time.perf_counter() - t0:.0f} s", flush=True)
        before = AnonPeak.now()
        with AnonPeak() as anon_cold:
            cold = run_step(edges, base / "cache", base / "cold.arrow")
        print(f"cold: {cold:.0f} s, peak anonymous memory {anon_cold.peak / 2**20:,.0f} MB", flush=True)
        with AnonPeak() as anon_warm:
            warm = run_step(edges, base / "cache", base / "warm.arrow")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"warm: {warm:.0f} s, peak anonymous memory {anon_warm.peak / 2**20:,.0f} MB", flush=True)
        same = filecmp.cmp(base / "cold.arrow", base / "warm.arrow", shallow=False)

        from pipeline.items_embed import read_vectors

        t0 = time.perf_counter()
        index, matrix = read_vectors(str(base / "warm.arrow"))
        opened = time.perf_counter() - t0
        rng = np.random.default_rng(0)
        probe = [name(int(i)) for i in rng.integers(0, args.strings, 100_000)]
        t0 = time.perf_counter()
        rows = index.rows(probe)
        found = sum(r is not None for r in rows)
        checksum = float(np.asarray(matrix[[r for r in rows if r is not None][:1000]]).sum())
        lookup = (time.perf_counter() - t0) / len(probe) * 1e6
        size_gb = os.path.getsize(base / "warm.arrow") / 1e9
        figures = [
            figure("distinct strings", len(index), "", f"== {args.strings}"),
            figure("cold cache: EmbedStrings wall time", round(cold, 1), "s"),
            figure("warm cache (all cached): wall time", round(warm, 1), "s"),
            figure("anonymous memory at the start", round(before / 2**20), "MB"),
            figure("peak anonymous memory, cold run", round(anon_cold.peak / 2**20), "MB"),
            figure("peak anonymous memory, warm run", round(anon_warm.peak / 2**20), "MB"),
            figure("peak RSS of the process (with mapped file pages)", round(rss), "MB"),
            figure("run vector file", round(size_gb, 2), "GB"),
            figure("cold and warm files identical", same, ""),
            figure("open the vector file", round(opened, 2), "s"),
            figure("look up one string (100k, together)", round(lookup, 2), "µs"),
            figure("probe strings found", found, "", "== 100000"),
        ]
        emit("embed_scale", figures, {"strings": args.strings, "edges": lines, "checksum": checksum})
        return 0
    finally:
        if not args.dir:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
