"""Where a build writes while it runs, and how its outputs replace an earlier build's.

Why: the outputs used to be written straight into OUT, and `--overwrite`
deleted the previous build before the new one started, so a build that
failed (bad option, a crashed worker, kill -9) destroyed a good output and
left partial shards and `_spill/` behind. Now every build writes into
`OUT/_staging/` and the finished outputs are moved into OUT only after the
pipeline succeeded; an earlier build's outputs are set aside in
`OUT/_previous/` for the moment of the swap and deleted after it.

The swap moves one output at a time, so it is not atomic by itself. It is
made so by its order and a manifest: before the first move, `_staging/_swap.json`
lists the new build's outputs; the old stats.json leaves OUT first and the new
one enters last. So OUT holds a stats.json only when it holds one build whole
(readers refuse an OUT without it: pipeline/query.py), and a swap cut short
(kill -9) is finished by the next build into OUT (`finish_swap`): the staged
outputs had all been written and checked, and the manifest tells an old output
still in OUT from a new one already moved. A build that dies before its swap
leaves only `_staging/` (with its `_spill/`); the next build removes it, and
says so.

All paths go through Beam's FileSystems, so gs:// works: there a "move" is
a copy and a delete per file, so the swap is not atomic, but a failed build
still never touches the old outputs.
"""
from __future__ import annotations

import json
import os

from apache_beam.io.filesystems import FileSystems

from pipeline.errors import CdtpError

STAGING_DIR = "_staging"
PREVIOUS_DIR = "_previous"
# What a finished build leaves in OUT (the temporary JSON files are merged into stats.json).
OUTPUT_NAMES = ("pairs", "audit", "discarded_triples", "items", "ontologies", "stats.json")
# Written by older versions straight into OUT; still recognised as outputs / scratch.
LEGACY_OUTPUTS = ("_top_relations.json", "_split_stats.json")
SCRATCH_NAMES = (STAGING_DIR, PREVIOUS_DIR, "_spill")
STATS = "stats.json"
SWAP_MANIFEST = "_swap.json"  # in the staging directory, from the swap's first move on


def _exists(path: str) -> bool:
    try:
        return FileSystems.exists(path)
    except Exception:  # noqa: BLE001 - an unreachable bucket is checked later, with a clear error
        return False


def _delete(path: str) -> None:
    if _exists(path):
        FileSystems.delete([path])


def existing_outputs(out_dir: str) -> list[str]:
    return [n for n in OUTPUT_NAMES + LEGACY_OUTPUTS if _exists(FileSystems.join(out_dir, n))]


def remove_leftovers(out_dir: str) -> list[str]:
    """Delete the scratch of a build that did not finish (`_staging/`, `_previous/`, `_spill/`); their names."""
    removed = []
    for name in SCRATCH_NAMES:
        path = FileSystems.join(out_dir, name)
        if _exists(path):
            try:
                FileSystems.delete([path])
            except Exception as exc:  # noqa: BLE001 - filesystem errors vary by scheme
                raise CdtpError(f"cannot remove {path}, left by an interrupted build: {exc}") from exc
            removed.append(name + "/")
    return removed


def prepare(out_dir: str, overwrite: bool) -> tuple[str, list[str]]:
    """Check OUT, clear an interrupted build's scratch; (staging dir, names of what was removed).

    Nothing of an earlier build is deleted here: that happens in `swap_in`,
    after the new build succeeded.
    """
    if "://" not in out_dir and os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise CdtpError(f"--out {out_dir} exists and is not a directory")
    finished = [] if "://" in out_dir else finish_swap(out_dir)
    existing = existing_outputs(out_dir)
    if existing and not overwrite:
        done = ("; they are a build's that was interrupted during its final move, now moved in whole"
                if finished else "")
        raise CdtpError(f"{out_dir} already holds build outputs ({', '.join(existing)}){done}; "
                        "pass --overwrite to replace them")
    removed = finished + remove_leftovers(out_dir)
    staging = FileSystems.join(out_dir, STAGING_DIR)
    if "://" not in staging:
        try:  # a read-only or unwritable OUT is a clear error before any worker starts
            os.makedirs(staging, exist_ok=True)
        except OSError as exc:
            raise CdtpError(f"cannot write to --out {out_dir}: {exc.strerror or exc}") from None
    return staging, removed


def _move(src: str, dst: str) -> None:
    if "://" not in src:
        os.replace(src, dst)
        return
    if FileSystems.exists(src) and not src.endswith("/") and "." in src.rsplit("/", 1)[-1]:
        FileSystems.rename([src], [dst])  # a file
        return
    metas = FileSystems.match([FileSystems.join(src, "**")])[0].metadata_list
    sources = [m.path for m in metas]
    FileSystems.rename(sources, [dst.rstrip("/") + p[len(src.rstrip("/")):] for p in sources])
    _delete(src)


def swap_in(out_dir: str, staging: str) -> None:
    """Move the finished outputs from `staging` into OUT, replacing an earlier build's.

    The manifest is written first and `finish_swap` does the moves, so that a
    swap cut short is finished the same way by the next build. Local only: on
    an object store a build writes into OUT directly (execute_build)."""
    new = [n for n in OUTPUT_NAMES if os.path.exists(os.path.join(staging, n))]
    manifest = os.path.join(staging, SWAP_MANIFEST)
    with open(manifest + ".part", "w", encoding="utf-8") as fh:
        json.dump({"outputs": new}, fh)
    os.replace(manifest + ".part", manifest)
    finish_swap(out_dir)


def finish_swap(out_dir: str) -> list[str]:
    """Finish a local swap that has begun (its manifest is in `_staging/`); what was done, for the user."""
    staging = os.path.join(out_dir, STAGING_DIR)
    try:
        with open(os.path.join(staging, SWAP_MANIFEST), encoding="utf-8") as fh:
            new = list(json.load(fh)["outputs"])
    except (OSError, ValueError, KeyError, TypeError):
        return []  # no swap begun: a build that died before it is scratch (remove_leftovers)
    _swap_steps(out_dir, staging, new)
    return ["finished moving in the outputs of a build interrupted during its final move"]


def _swap_steps(out_dir: str, staging: str, new: list[str]) -> None:
    """Old stats.json out first; each output of the new build in (the old one set
    aside), an old output the new build lacks set aside; the new stats.json in
    last; then the set-aside outputs and the staging directory deleted. Each
    step can be repeated after a cut: it skips what is done."""
    previous = FileSystems.join(out_dir, PREVIOUS_DIR)

    def set_aside(name: str) -> None:
        here = FileSystems.join(out_dir, name)
        if _exists(here):
            if "://" not in previous and not _exists(previous):
                FileSystems.mkdirs(previous)
            there = FileSystems.join(previous, name)
            _delete(there)  # a set-aside copy of a cut swap that is already older
            _move(here, there)

    staged_stats = FileSystems.join(staging, STATS)
    if _exists(staged_stats):
        set_aside(STATS)
    for name in OUTPUT_NAMES + LEGACY_OUTPUTS:
        if name == STATS:
            continue
        src = FileSystems.join(staging, name)
        if _exists(src):
            set_aside(name)
            _move(src, FileSystems.join(out_dir, name))
        elif name not in new:
            set_aside(name)  # an output of the old build that the new one does not write
    if _exists(staged_stats):
        _move(staged_stats, FileSystems.join(out_dir, STATS))
    _delete(previous)
    _delete(staging)


def discard(staging: str) -> None:
    """Remove a failed build's staging directory (best effort: the next build removes it anyway)."""
    try:
        _delete(staging)
    except Exception:  # noqa: BLE001
        pass
