"""The manifest of a dataset release: what every file must be, and the check of it.

Why: a release is copied, mirrored and uploaded; the manifest lets anyone
prove that what they hold is what was built. It lists every file of the
release (sha256, bytes, and for Parquet the row count and schema), the schema
versions, the build's config and the code version of the build and of the
release.

`manifest.json` protects itself too: it holds the sha256 of its own canonical
form, and it must be byte-for-byte that canonical form, so one changed byte
anywhere in the release (data, card, plots or manifest) fails `verify`.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

MANIFEST = "manifest.json"
FORMAT = "cdtp-release/1"
SELF_HASH = "manifest_sha256"


def sha256_file(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def parquet_rows(path: Path) -> int:
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).metadata.num_rows


def parquet_schema_name(path: Path) -> str | None:
    """The `cdtp.schema` name the writer stamped into the file's Arrow schema."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).schema_arrow.metadata or {}
    name = meta.get(b"cdtp.schema")
    return name.decode("utf-8") if name else None


def release_files(root: Path) -> list[Path]:
    """Every file of the release except the manifest, in a fixed order."""
    return sorted((p for p in root.rglob("*") if p.is_file() and p.relative_to(root).as_posix() != MANIFEST),
                  key=lambda p: p.relative_to(root).as_posix())


def describe_file(root: Path, path: Path) -> dict[str, Any]:
    entry: dict[str, Any] = {"path": path.relative_to(root).as_posix(), "bytes": path.stat().st_size,
                             "sha256": sha256_file(path)}
    if path.suffix == ".parquet":
        entry["rows"] = parquet_rows(path)
        entry["schema"] = parquet_schema_name(path)
    return entry


def canonical(manifest: dict[str, Any]) -> str:
    """The one serialisation a manifest may have on disk."""
    return json.dumps(manifest, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _self_hash(manifest: dict[str, Any]) -> str:
    body = {k: v for k, v in manifest.items() if k != SELF_HASH}
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()


def write_manifest(root: Path, info: dict[str, Any]) -> dict[str, Any]:
    """Describe every file under `root` and write manifest.json; `info` adds schema versions, config, code."""
    files = [describe_file(root, p) for p in release_files(root)]
    manifest = {"format": FORMAT, **info, "files": files,
                "totals": {"files": len(files), "bytes": sum(f["bytes"] for f in files)}}
    manifest[SELF_HASH] = _self_hash(manifest)
    (root / MANIFEST).write_text(canonical(manifest), encoding="utf-8")
    return manifest


def verify_release(root: Path, only: tuple[str, ...] = ()) -> tuple[list[str], dict[str, Any] | None]:
    """Every problem found (empty = the release is exactly what was built), and the manifest.

    `only`: check just the files under these path prefixes (`data/items/`, ...), for a
    reader of part of a release (`cdtp export`); the manifest itself is always checked.
    """
    path = root / MANIFEST
    if not path.is_file():
        return [f"{path} is missing: not a cdtp release, or the manifest was removed"], None
    raw = path.read_bytes()
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return [f"{MANIFEST} is not valid JSON ({exc})"], None
    problems = []
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return [f"{MANIFEST} is not a {FORMAT} manifest"], None
    if manifest.get(SELF_HASH) != _self_hash(manifest):
        problems.append(f"{MANIFEST} was edited: its content no longer matches its own {SELF_HASH}")
    elif raw.decode("utf-8") != canonical(manifest):
        problems.append(f"{MANIFEST} was edited: its bytes are not its canonical form")
    files = manifest.get("files", [])
    if not (isinstance(files, list) and all(isinstance(f, dict) and isinstance(f.get("path"), str)
                                            and isinstance(f.get("bytes"), int) and isinstance(f.get("sha256"), str)
                                            for f in files)):
        return problems + [f"{MANIFEST}: `files` is not a list of {{path, bytes, sha256}} entries"], None
    wanted = (lambda rel: rel.startswith(only)) if only else (lambda rel: True)  # noqa: E731
    listed = {f["path"]: f for f in files if wanted(f["path"])}
    present = {rel: p for p in release_files(root) if wanted(rel := p.relative_to(root).as_posix())}
    for rel in sorted(set(listed) - set(present)):
        problems.append(f"{rel}: listed in the manifest but missing")
    for rel in sorted(set(present) - set(listed)):
        problems.append(f"{rel}: present but not in the manifest")
    for rel in sorted(set(listed) & set(present)):
        want, p = listed[rel], present[rel]
        size = p.stat().st_size
        if size != want["bytes"]:
            problems.append(f"{rel}: {size} bytes, the manifest says {want['bytes']}")
        if sha256_file(p) != want["sha256"]:
            problems.append(f"{rel}: sha256 differs from the manifest (the file changed)")
            continue
        if "rows" in want:
            try:
                rows = parquet_rows(p)
            except Exception as exc:  # noqa: BLE001 - reported with the file
                problems.append(f"{rel}: not readable Parquet ({exc})")
                continue
            if rows != want["rows"]:
                problems.append(f"{rel}: {rows} rows, the manifest says {want['rows']}")
    return problems, manifest
