"""Never report success for lost output: the checks around a `cdtp build` run.

Why: Beam metrics travel back to the launcher from any worker, files do not.
A worker that writes a local `--out` on its own disk (a cluster, a worker pool
in another mount namespace) leaves the launcher with full counters and an
empty directory, and the build used to print "5274 pairs" and exit 0. So:

* before the job starts, `refuse_unshared_paths` refuses local input/output
  paths when the runner's workers may not share the launcher's disk (unless
  forced);
* after the job, `verify_written` compares what is on storage with the
  build's own funnel: rows in pairs/ equal the finalise count, rows in audit/
  equal the audited inputs, every shard is readable Parquet of the declared
  schema, stats.json is complete. Any mismatch is a CdtpError (exit 2).
  What it found is recorded in stats.json `output_check`: per output the
  files, the rows and the sha256 of every file (and of the T2KG ontologies),
  so a build read again (`cdtp release`: `read_back`) is held to the very
  bytes it wrote, not only to as many files and rows.

Everything goes through Beam's FileSystems, so it checks gs:// and s3:// too.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import CdtpError

# Runners whose SDK workers run in the launcher's process or machine.
LOCAL_RUNNERS = ("DirectRunner", "SwitchingDirectRunner", "FnApiRunner", "BundleBasedDirectRunner",
                 "InteractiveRunner")
# Portable runners: workers share the disk only in LOOPBACK mode (in this process).
PORTABLE_RUNNERS = ("PortableRunner", "FlinkRunner", "SparkRunner", "PrismRunner", "SamzaRunner")


def is_local_path(path: str) -> bool:
    """A path on this machine's disk (no URL scheme, or file://)."""
    return "://" not in path or path.startswith("file://")


def holds_build(folder: str | Path) -> bool:
    """Whether `folder` is a `cdtp build` output (or a release made of one):
    a stats.json with the build's funnel, or pairs/ (an older build's, or one
    whose stats.json is damaged, is still a build)."""
    try:
        with open(os.path.join(folder, "stats.json"), encoding="utf-8") as fh:
            stats = json.load(fh)
    except (OSError, ValueError):
        stats = None
    return (isinstance(stats, dict) and "funnel" in stats) or os.path.isdir(os.path.join(folder, "pairs"))


def refuse_out_in_build(out: str, flag: str = "--out", place: str | None = None) -> None:
    """Refuse an output folder that is a build, or lies inside one (except in
    its subfolder `place`, where the build is meant to hold that output).

    Why: `cdtp leaderboard --out BUILD/pairs` (or `cdtp ood`, `cdtp items
    distractors --work` into a build) wrote its files among the build's shards,
    and every later read of the build (`cdtp query`, `cdtp eval`, `cdtp
    release`) failed or counted them as the build's.
    """
    if not is_local_path(out):
        return
    path = Path(out).resolve()
    for folder in (path, *path.parents):
        if not holds_build(folder):
            continue
        inside = path.relative_to(folder).parts
        if inside and inside[0] == place:
            return
        where = "is" if not inside else f"lies inside {folder}, which is"
        hint = f", or {folder / place}" if place else ""
        raise CdtpError(f"{flag} {out} {where} a cdtp build output: give it a folder of its own outside the "
                        f"build{hint}")


def workers_may_not_share_disk(options) -> str | None:
    """Why the runner's workers may not see the launcher's files, or None when they do."""
    from apache_beam.options.pipeline_options import PortableOptions, StandardOptions

    runner = (options.view_as(StandardOptions).runner or "DirectRunner")
    name = runner if isinstance(runner, str) else type(runner).__name__
    name = name.rsplit(".", 1)[-1]
    if name in LOCAL_RUNNERS:
        return None
    if name in PORTABLE_RUNNERS:
        env = (options.view_as(PortableOptions).environment_type or "").upper()
        if name == "PrismRunner" and not env:
            return None  # Prism's default environment is LOOPBACK
        if env == "LOOPBACK":
            return None
        return f"--runner={name} with --environment_type={env or 'DOCKER (the default)'} runs SDK workers " \
               "in their own container or process, possibly on another machine"
    return f"--runner={name} runs workers on other machines"


def refuse_unshared_paths(cfg, options, force: bool) -> None:
    """Refuse local paths a remote worker would read or write on its own disk."""
    why = workers_may_not_share_disk(options)
    if why is None or force:
        return
    paths = [("--out", cfg.output.out_dir)] + [("--input", p) for p in cfg.input.patterns]
    if cfg.search.enabled:
        paths += [("--search-index", cfg.search.index_path or ""), ("--search-cache", cfg.search.cache_dir or "")]
    if cfg.items.enabled:  # chunks embedded on one worker are read back on another
        paths.append(("--embed-cache", cfg.items.embed_cache or ""))
    local = [(flag, p) for flag, p in paths if p and is_local_path(p)]
    if local:
        listed = ", ".join(f"{flag} {p}" for flag, p in local)
        raise CdtpError(
            f"{why}, but {listed} {'is a local path' if len(local) == 1 else 'are local paths'}: workers would "
            "read and write their own disk and the launcher would find nothing. Use an object store "
            "(gs://BUCKET/..., s3://BUCKET/...), or pass --force-local-paths if every worker mounts the same "
            "directory at the same path.")


@dataclass
class WrittenOutput:
    """What one output directory holds: files, rows, each file's sha256 (by its path under the
    directory), and the files that could not be read."""

    files: int = 0
    rows: int = 0
    sha256: dict[str, str] = field(default_factory=dict)
    unreadable: list[str] = field(default_factory=list)
    wrong_schema: list[str] = field(default_factory=list)


def list_shards(base: str, pattern: str = "**.parquet") -> list[str]:
    """Every file under `base` matching `pattern` (default: Parquet, recursive), sorted; [] when absent."""
    from apache_beam.io.filesystems import FileSystems

    try:
        found = FileSystems.match([FileSystems.join(base, pattern)])[0].metadata_list
    except Exception:  # noqa: BLE001 - a missing directory matches nothing
        return []
    return sorted(m.path for m in found)


HASH_BLOCK = 8 << 20  # bytes read at a time: memory stays flat whatever the shard's size


def file_sha256(path: str) -> str:
    """sha256 of a file's bytes, read as a stream through Beam's FileSystems (local, gs://, s3://).

    Why the bytes and not the rows: another valid Parquet file of the same
    schema and row count (a shard of another build, an edited one) has the
    same footer counts; only its content tells it apart. The cost is one
    sequential read of each output, about what writing it cost.
    """
    import hashlib

    from apache_beam.io.filesystem import CompressionTypes
    from apache_beam.io.filesystems import FileSystems

    h = hashlib.sha256()
    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        for block in iter(lambda: fh.read(HASH_BLOCK), b""):
            h.update(block)
    return h.hexdigest()


def relative(base: str, path: str) -> str:
    """`path` under the directory `base`: the same for the staging directory the build checks and the
    OUT it is moved to, and for a local copy of a gs:// build."""
    prefix = base.rstrip("/") + "/"
    return path[len(prefix):] if path.startswith(prefix) else path


def shard_rows(path: str, schema=None) -> int:
    """Rows of one Parquet shard, read from its footer; raises when it is not Parquet of `schema`.

    Only the footer is read (the streams of Beam's filesystems seek), so checking
    a build costs a few requests per shard, not a download of the data.
    """
    import pyarrow.parquet as pq
    from apache_beam.io.filesystem import CompressionTypes
    from apache_beam.io.filesystems import FileSystems

    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        pf = pq.ParquetFile(fh)
        schema_arrow, rows = pf.schema_arrow, pf.metadata.num_rows
    if schema is not None and not schema_arrow.remove_metadata().equals(schema.remove_metadata()):
        raise TypeError(f"schema differs from the declared one: {schema_arrow}")
    return rows


def inspect_output(base: str, schema=None) -> WrittenOutput:
    out = WrittenOutput()
    for path in list_shards(base):
        out.files += 1
        try:
            out.rows += shard_rows(path, schema)
            out.sha256[relative(base, path)] = file_sha256(path)
        except TypeError:
            out.wrong_schema.append(path)
        except Exception:  # noqa: BLE001 - any read failure is reported with its path
            out.unreadable.append(path)
    return out


ONTOLOGIES = "ontologies"  # the T2KG task's Text2KGBench ontologies (pipeline/items_stage.py), JSON


def inspect_ontologies(out_dir: str) -> dict[str, Any] | None:
    """{files, sha256} of OUT/ontologies/*.json, or None when the build wrote none."""
    from apache_beam.io.filesystems import FileSystems

    base = FileSystems.join(out_dir, ONTOLOGIES)
    paths = list_shards(base, "*.json")
    if not paths:
        return None
    return {"files": len(paths), "sha256": {relative(base, p): file_sha256(p) for p in paths}}


def hash_problems(name: str, found: dict[str, str], recorded: Any) -> list[str]:
    """Each file of output `name` whose bytes are not those the build recorded (stats.json output_check);
    [] when the build recorded no hashes (a version before them)."""
    if not isinstance(recorded, dict):
        return []
    problems = [f"{name}/{rel}: its sha256 is not the one the build wrote (stats.json output_check): "
                "the file was replaced or changed" for rel in sorted(set(found) & set(recorded))
                if found[rel] != recorded[rel]]
    problems += [f"{name}/{rel}: written by the build (stats.json output_check) but missing"
                 for rel in sorted(set(recorded) - set(found))]
    problems += [f"{name}/{rel}: not written by the build (stats.json output_check records no such file)"
                 for rel in sorted(set(found) - set(recorded))]
    return problems


def expected_counts(stats: dict[str, Any]) -> dict[str, int]:
    """Rows the funnel says each output must hold."""
    finalise = next((s for s in stats.get("funnel", []) if s["stage"] == "finalise"), None)
    t = stats.get("totals", {})
    audited = sum(t.get(k, {}).get(f, 0) for k in ("entry", "triple") for f in ("kept", "dropped"))
    entries = sum(t.get("entry", {}).get(f, 0) for f in ("kept", "dropped"))
    # Eval items dropped for fact leakage have an audit row each (kind='item'), outside the entry/triple funnel.
    items_dropped = int((((stats.get("items") or {}).get("leakage") or {}).get("dropped")) or 0)
    return {"pairs": finalise["out"]["entries"] if finalise else 0, "audit": audited + items_dropped,
            "audit_entries": entries}


def items_written(stats: dict[str, Any]) -> int | None:
    """Items the items stage wrote ({task: {split: n}} in stats.json), or None without the stage."""
    written = (stats.get("items") or {}).get("written")
    if not isinstance(written, dict):
        return None
    return sum(int(n) for by_split in written.values() if isinstance(by_split, dict) for n in by_split.values())


def stats_problems(stats: dict[str, Any], cfg) -> list[str]:
    """What a complete stats.json must hold, given the build's own config."""
    problems = []
    pairs = expected_counts(stats)["pairs"]
    for key in ("schema_version", "totals", "funnel", "relations", "triples_per_pair", "config"):
        if key not in stats:
            problems.append(f"stats.json has no {key!r} section")
    if not any(s.get("stage") == "finalise" for s in stats.get("funnel", [])) and stats.get("totals", {}).get(
            "entry", {}).get("kept", 0):
        problems.append("stats.json funnel has no finalise stage")
    hist = sum((stats.get("triples_per_pair") or {}).get("counts", {}).values())
    if hist != pairs:
        problems.append(f"triples-per-pair histogram counts {hist} pairs, the funnel {pairs}")
    if pairs and not (stats.get("relations") or {}).get("top"):
        problems.append("stats.json has no top relations although pairs were kept "
                        "(the summary of the written pairs' relations was not found in the output directory)")
    if pairs and cfg.split.enabled and "split" not in stats:
        problems.append("stats.json has no split section although the split stage ran "
                        "(its summary was not found in the output directory)")
    return problems


def verify_written(out_dir: str, stats: dict[str, Any], cfg, input_bytes: int | None = None,
                   read_back: bool = False) -> dict[str, Any]:
    """Compare the written outputs with the funnel; a report dict, or CdtpError listing every mismatch.

    `input_bytes` (what the launcher matched) guards the other side: workers
    that cannot see a local input match no file and read nothing, and a build
    of nothing is consistent with itself.
    """
    from apache_beam.io.filesystems import FileSystems

    from schemas.outputs import AUDIT_SCHEMA, DISCARDED_TRIPLE_SCHEMA, PAIR_SCHEMA

    try:
        expected = expected_counts(stats)
        problems = stats_problems(stats, cfg)
        records = expected["audit_entries"] + int(stats.get("blank_lines", 0) or 0)
        written = items_written(stats)
    except (AttributeError, TypeError, ValueError, KeyError) as exc:  # a section of the wrong type
        raise CdtpError(f"{out_dir}/stats.json is not a complete cdtp stats file: a section has the wrong "
                        f"type ({type(exc).__name__}: {exc})") from None
    # read_back: a finished build read again (release) is also held to what it found after writing
    # (stats.json `output_check`): a shard or a whole output removed since must not pass for a
    # smaller build. The funnel alone does not count discarded_triples/, nor items/ once the folder is gone.
    recorded = stats.get("output_check") if read_back else None
    recorded = {k: v for k, v in recorded.items() if isinstance(v, dict)} if isinstance(recorded, dict) else {}
    if input_bytes and not records:
        problems.append(f"the launcher matched {input_bytes:,} bytes of input, but the workers read no record "
                        "(an input on a disk they cannot see?)")
    report: dict[str, Any] = {}
    outputs = [("pairs", PAIR_SCHEMA), ("audit", AUDIT_SCHEMA), ("discarded_triples", DISCARDED_TRIPLE_SCHEMA)]
    if list_shards(FileSystems.join(out_dir, "items")) or written is not None or "items" in recorded:
        from schemas.items import ITEM_SCHEMA

        outputs.append(("items", ITEM_SCHEMA))
    for name, schema in outputs:
        seen = inspect_output(FileSystems.join(out_dir, name), schema)
        report[name] = {"files": seen.files, "rows": seen.rows, "sha256": dict(sorted(seen.sha256.items()))}
        for path in seen.unreadable:
            problems.append(f"{path} is not readable Parquet")
        for path in seen.wrong_schema:
            problems.append(f"{path} does not have the declared {name} schema")
        want = expected.get(name)
        if name == "items":
            want = written
        if want is not None and seen.rows != want:
            problems.append(f"{name}/ holds {seen.rows} rows in {seen.files} files, but the funnel counted {want}")
        elif name in recorded and (seen.files, seen.rows) != (recorded[name].get("files"), recorded[name].get("rows")):
            problems.append(f"{name}/ holds {seen.rows} rows in {seen.files} files, but the build wrote "
                            f"{recorded[name].get('rows')} rows in {recorded[name].get('files')} files "
                            "(stats.json output_check): a shard was removed, added or replaced")
        elif name in recorded and not seen.unreadable and not seen.wrong_schema:
            # as many files and rows: the same bytes? (another valid shard of as many rows is not)
            problems += hash_problems(name, seen.sha256, recorded[name].get("sha256"))
    # The T2KG ontologies: files the items name, so held to their bytes like the shards.
    ontologies = inspect_ontologies(out_dir)
    if ontologies is not None:
        report[ONTOLOGIES] = ontologies
    if ONTOLOGIES in recorded:
        problems += hash_problems(ONTOLOGIES, (ontologies or {}).get("sha256", {}),
                                  recorded[ONTOLOGIES].get("sha256"))
    if problems and read_back:  # a finished build read again (release): changed since, not lost by workers
        raise CdtpError(
            f"the build in {out_dir} no longer matches what it counted and wrote:\n  - " + "\n  - ".join(problems)
            + "\nA shard was removed, added, replaced or damaged, or stats.json was edited, after the build; "
              "nothing here should be released. Rebuild, or restore the folder as the build left it.")
    if problems:
        raise CdtpError(
            f"the build finished but its outputs in {out_dir} do not match its own counts:\n  - "
            + "\n  - ".join(problems)
            + "\nInput or output was lost (a worker on its own disk?) or a shard is damaged; nothing here "
              "should be used. Rerun with input and output on shared storage (gs://, s3://).")
    return report


def content_hash(out_dir: str) -> str:
    """sha256 over the sorted rows of pairs/, audit/ and discarded_triples/, independent of file layout.

    The same input must give the same hash on every runner and worker count;
    the cluster rehearsal compares it across the DirectRunner and workers on
    their own disk (paths through Beam's FileSystems, so s3:// and gs:// work).
    """
    import hashlib
    import io
    import json

    import pyarrow.parquet as pq
    from apache_beam.io.filesystem import CompressionTypes
    from apache_beam.io.filesystems import FileSystems

    h = hashlib.sha256()
    for name in ("pairs", "audit", "discarded_triples"):
        rows = []
        for path in list_shards(FileSystems.join(out_dir, name)):
            with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
                table = pq.read_table(io.BytesIO(fh.read()), partitioning=None)
            rows += [json.dumps(r, ensure_ascii=False, sort_keys=True, default=str) for r in table.to_pylist()]
        h.update(name.encode("utf-8"))
        for r in sorted(rows):
            h.update(r.encode("utf-8"))
    return h.hexdigest()


OUTPUT_DIRS = ("pairs", "audit", "discarded_triples", "items")


def clear_object_store_out(out_dir: str, overwrite: bool) -> None:
    """Before a build into s3:// or gs://: refuse, or with --overwrite remove, the shards of an earlier one.

    Why: an object store has no directories, so `exists(OUT/pairs)` is false
    and deleting the bare prefix deletes nothing; an earlier build's shards
    would stay beside the new ones (a different shard count leaves both).
    """
    from apache_beam.io.filesystems import FileSystems

    from pipeline.spill import remove_dir

    if is_local_path(out_dir):
        return
    found = [name for name in OUTPUT_DIRS if list_shards(FileSystems.join(out_dir, name))]
    if found and not overwrite:
        raise CdtpError(f"{out_dir} already holds build outputs ({', '.join(found)}); "
                        "pass --overwrite to replace them")
    for name in found:
        remove_dir(None, FileSystems.join(out_dir, name))
