"""Which code produced an output: package version, git describe, and a hash of the source tree.

Why a source hash as well as git: an installed wheel (a Dataflow worker image,
`pip install .`) has no .git, and a git checkout may hold uncommitted edits.
The hash covers every file of the packages that decide what a build writes, so
two outputs with the same `source_sha256` came from the same code whatever the
install.
"""
from __future__ import annotations

import functools
import hashlib
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The packages whose code decides the outputs (pyproject's packages).
SOURCE_PACKAGES = ("pipeline", "transforms", "schemas", "crawlers", "evaluation")
SOURCE_SUFFIXES = (".py", ".json", ".txt", ".tsv", ".csv", ".jsonl", ".html")


def source_files(root: Path = ROOT) -> list[Path]:
    files = []
    for pkg in SOURCE_PACKAGES:
        base = root / pkg
        if base.is_dir():
            files += [p for p in base.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES
                      and "__pycache__" not in p.parts]
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def source_tree_hash(root: Path = ROOT) -> str:
    """sha256 over (relative path, content) of every source file, in path order."""
    h = hashlib.sha256()
    for path in source_files(root):
        rel = path.relative_to(root).as_posix().encode("utf-8")
        data = path.read_bytes()
        h.update(len(rel).to_bytes(8, "big") + rel + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def git_describe(root: Path = ROOT) -> str | None:
    """`git describe --always --dirty --tags`, or None outside a git checkout."""
    if not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty", "--tags"],
                             capture_output=True, text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("cdtp")
    except Exception:  # noqa: BLE001 - not installed: running from a checkout
        return "0+unknown"


@functools.lru_cache(maxsize=1)
def code_version() -> dict[str, Any]:
    """{"package", "git", "source_sha256"}: what every output records about the code."""
    return {"package": package_version(), "git": git_describe(), "source_sha256": source_tree_hash()}


def code_version_string(cv: dict[str, Any] | None = None) -> str:
    """One line, e.g. `cdtp 0.1.0 (git ba507ae-dirty, source 1a2b3c4d5e6f)`."""
    cv = cv or code_version()
    git = f"git {cv['git']}, " if cv.get("git") else ""
    return f"cdtp {cv['package']} ({git}source {cv['source_sha256'][:12]})"
