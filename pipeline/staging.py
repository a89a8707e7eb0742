"""Where a build writes while it runs, and how its outputs replace an earlier build's.

Why: the outputs used to be written straight into OUT, and `--overwrite`
deleted the previous build before the new one started, so a build that
failed (bad option, a crashed worker, kill -9) destroyed a good output and
left partial shards and `_spill/` behind. Now every build writes into
`OUT/_staging/` and the finished outputs are moved into OUT only after the
pipeline succeeded; an earlier build's outputs are set aside in
`OUT/_previous/` for the moment of the swap and deleted after it.

So at any moment OUT holds either the old outputs or the new ones, never a
mix or a part. A build that dies leaves only `_staging/` (with its
`_spill/`); the next build removes it, and says so.

All paths go through Beam's FileSystems, so gs:// works: there a "move" is
a copy and a delete per file, so the swap is not atomic, but a failed build
still never touches the old outputs.
"""
from __future__ import annotations

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
    existing = existing_outputs(out_dir)
    if existing and not overwrite:
        raise CdtpError(f"{out_dir} already holds build outputs ({', '.join(existing)}); "
                        "pass --overwrite to replace them")
    removed = remove_leftovers(out_dir)
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
    """Move the finished outputs from `staging` into OUT, replacing an earlier build's."""
    previous = FileSystems.join(out_dir, PREVIOUS_DIR)
    old = [n for n in OUTPUT_NAMES + LEGACY_OUTPUTS if _exists(FileSystems.join(out_dir, n))]
    if old:
        if "://" not in previous and not _exists(previous):
            FileSystems.mkdirs(previous)
        for name in old:
            _move(FileSystems.join(out_dir, name), FileSystems.join(previous, name))
    for name in OUTPUT_NAMES:
        src = FileSystems.join(staging, name)
        if _exists(src):
            _move(src, FileSystems.join(out_dir, name))
    _delete(previous)
    _delete(staging)


def discard(staging: str) -> None:
    """Remove a failed build's staging directory (best effort: the next build removes it anyway)."""
    try:
        _delete(staging)
    except Exception:  # noqa: BLE001
        pass
