"""`cdtp release`: turn a checked build into a publishable dataset folder.

    RELEASE/
      README.md            dataset card, Hugging Face YAML header (pipeline/release_card.py)
      manifest.json        sha256 + rows of every file, schema versions, config, code version
      config.json          the build's effective configuration
      stats.json           the build's own stats (funnel, relations, split report)
      plots/*.png          Figures 6 and 7, domains, text lengths, funnel (pipeline/release_plots.py)
      data/pairs/domain=XX/split=S/S-NNNNN-of-NNNNN.parquet
      data/items/task=T/domain=XX/split=S/...      when the build has items
      data/ontologies/cdtp_XX.json                 the T2KG ontologies (Text2KGBench format), when built
      auxiliary/discarded_triples/...              the paper's auxiliary data
      auxiliary/audit/...                          with --include-audit

Why this layout: the Hive directories keep DuckDB's partition pruning, and
naming each file after its split (`train-00000-of-00002.parquet`, Hugging
Face's own convention) lets `datasets.load_dataset("parquet", data_dir=...)`
find the splits without the card. The shard bytes are copied unchanged.
The ontologies travel with the items: a T2KG item names its ontology
(`ontology`, `cdtp_HP`), whose relations are the ones a model may extract, so
a release of T2KG items without them could not be used (nor exported with
`cdtp export --format text2kgbench`, which reads a release as it reads a build).

A release is only made from a build whose files still match its funnel
(pipeline/output_check.py), and it is written to a temporary folder that is
renamed into place, so a failed release leaves no half-made folder behind, and
an earlier release replaced with --overwrite stays until the new one is in.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path
from typing import Any

from pipeline.errors import CdtpError

DATA = "data"
AUX = "auxiliary"


def _partitions(rel_dir: Path) -> dict[str, str]:
    return dict(part.split("=", 1) for part in rel_dir.parts if "=" in part)


def load_build(shards: Path) -> tuple[dict[str, Any], Any]:
    """The build's stats and config, after checking its files against its funnel."""
    from pipeline.config import BuildConfig, from_dict
    from pipeline.output_check import verify_written

    if "://" in str(shards):
        raise CdtpError(f"--shards {shards}: a release is made from a local folder; copy the build first "
                        "(gsutil -m cp -r / aws s3 sync)")
    stats_path = shards / "stats.json"
    if not stats_path.is_file():
        raise CdtpError(f"{shards} is not a cdtp build output (no stats.json)")
    try:
        stats = json.loads(stats_path.read_text(encoding="utf-8"))
        if not isinstance(stats, dict) or not isinstance(stats.get("config"), dict):
            raise KeyError("config")
        cfg = from_dict(BuildConfig, stats["config"])
    except (ValueError, KeyError) as exc:  # not JSON, not UTF-8, no config object
        raise CdtpError(f"{stats_path} is not a complete cdtp stats file ({exc})") from None
    cfg.output.out_dir = str(shards)
    verify_written(str(shards), stats, cfg, read_back=True)
    pairs = (stats.get("output_check") or {}).get("pairs") or {}
    if pairs.get("rows") == 0:
        # A build of no pair (an empty input, every entry dropped) makes a card of
        # placeholder configs and nothing to load: no release to publish.
        raise CdtpError(f"{shards} holds no pair (its audit says why each entry was dropped); "
                        "there is nothing to release")
    return stats, cfg


ONTOLOGIES = "ontologies"


def check_ontologies(shards: Path) -> list[Path]:
    """The build's ontology files, after checking that every ontology its T2KG items name is one of them."""
    import pyarrow.parquet as pq

    onto_dir = shards / ONTOLOGIES
    have = sorted(onto_dir.glob("*.json")) if onto_dir.is_dir() else []
    named: set[str] = set()
    for f in sorted((shards / "items" / "task=t2kg").rglob("*.parquet")):
        named.update(v for v in pq.ParquetFile(f).read(columns=["ontology"]).column("ontology").to_pylist() if v)
    missing = sorted(named - {p.stem for p in have})
    if missing:
        raise CdtpError(f"{shards}: its T2KG items name the ontolog{'ies' if len(missing) > 1 else 'y'} "
                        f"{', '.join(missing)}, but {onto_dir}/ holds no "
                        f"{', '.join(m + '.json' for m in missing)}; a release without them could not be used. "
                        "Rebuild, or restore the folder as the build left it.")
    return have


def copy_output(src: Path, dst: Path, split_names: bool) -> list[Path]:
    """Copy every shard under `src` to `dst`, same Hive dirs; files named after their split when asked."""
    copied = []
    for path in sorted(src.rglob("*.parquet")):
        rel = path.relative_to(src)
        name = rel.name
        split = _partitions(rel.parent).get("split")
        if split_names and split and name.startswith("part-"):
            name = f"{split}-{name[len('part-'):]}"
        target = dst / rel.parent / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        copied.append(target)
    return copied


def describe_configs(root: Path, task: str, files: list[Path], schema) -> dict[str, dict[str, Any]]:
    """Hugging Face configs for one output: all domains, then one per domain; splits with globs and rows."""
    import pyarrow.parquet as pq

    base = root / DATA / task
    subtasks: dict[str, list[Path]] = {}
    for f in files:
        parts = _partitions(f.relative_to(base).parent)
        subtasks.setdefault(parts.get("task", task), []).append(f)
    configs: dict[str, dict[str, Any]] = {}
    for name, group in sorted(subtasks.items()):
        rows: dict[str, dict[str, int]] = {}
        for f in group:
            parts = _partitions(f.relative_to(base).parent)
            dom, split = parts.get("domain", "all"), parts.get("split", "train")
            rows.setdefault(dom, {}).setdefault(split, 0)
            rows[dom][split] += pq.ParquetFile(f).metadata.num_rows
        prefix = f"{DATA}/{task}" + (f"/task={name}" if name != task else "")
        splits = sorted({s for r in rows.values() for s in r}, key=lambda s: (s != "train", s))
        deep = "*/" if any("domain" in _partitions(f.relative_to(base).parent) for f in group) else ""
        configs[name] = {"task": name, "domain": None, "schema": schema,
                         "splits": {s: [f"{prefix}/{deep}split={s}/*.parquet"] for s in splits},
                         "rows": {s: sum(r.get(s, 0) for r in rows.values()) for s in splits}}
        for dom in sorted(rows):
            if dom == "all":
                continue
            configs[f"{name}_{dom}"] = {
                "task": name, "domain": dom, "schema": schema,
                "splits": {s: [f"{prefix}/domain={dom}/split={s}/*.parquet"] for s in splits if s in rows[dom]},
                "rows": {s: rows[dom][s] for s in splits if s in rows[dom]}}
    return configs


def pair_columns(files: list[Path], top: int = 20) -> tuple[dict[str, dict[str, int]], list[int], list[dict[str, Any]]]:
    """For the plots: pairs per (domain, split), every text length, and the `top`
    most frequent relations of the pairs' triples ({relation, count}, ties by name).

    Why the relations are counted here, not taken from stats.json's
    `relations.top`: a build of an earlier version took that figure from the
    relation-frequency stage, before search validation and near-duplicates
    drop triples, so it showed relations the release does not hold (属性 60
    where the pairs keep 5). A build of this version counts its written pairs
    there too (pipeline/stats.py); the files released are the plot's source either way.
    """
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    by: dict[str, dict[str, int]] = {}
    lengths: list[int] = []
    counts: dict[str, int] = {}
    for f in files:
        t = pq.read_table(f, columns=["domain", "split", "text_length", "triples"])
        for d, s, n in zip(*(t.column(c).to_pylist() for c in ("domain", "split", "text_length"))):
            d, s = d or "unknown", s or "unassigned"
            by.setdefault(d, {}).setdefault(s, 0)
            by[d][s] += 1
            lengths.append(int(n or 0))
        for rel in pc.struct_field(pc.list_flatten(t.column("triples")), "relation").to_pylist():
            counts[rel] = counts.get(rel, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0] or ""))[:top]
    return by, lengths, [{"relation": r, "count": n} for r, n in ranked]


def make_release(shards: Path, out: Path, *, name: str = "CDTP-style Chinese data-text pairs",
                 license: str = "other", license_name: str | None = "encyclopedia-terms",
                 license_link: str | None = None, include_audit: bool = False,
                 overwrite: bool = False) -> dict[str, Any]:
    """Check the build, copy its shards, draw the plots, write card and manifest; the manifest."""
    from pipeline.provenance import code_version
    from pipeline.release_card import ReleaseFacts, check_license, render_card
    from pipeline.release_manifest import write_manifest
    from pipeline.release_plots import find_cjk_font, make_plots
    from schemas.items import ITEM_SCHEMA, ITEMS_SCHEMA_VERSION
    from schemas.outputs import AUDIT_SCHEMA, DISCARDED_TRIPLE_SCHEMA, PAIR_SCHEMA, SCHEMA_VERSION

    license, license_name, license_link = check_license(license, license_name, license_link)
    check_out(shards, out, overwrite)
    out = Path(os.path.abspath(out))  # `--out .` has no name to put a partial folder beside
    stats, _cfg = load_build(shards)
    ontologies = check_ontologies(shards)
    find_cjk_font()  # fail before copying anything when the plots cannot be drawn
    tmp, lock = _private_partial(out)
    try:
        pair_files = copy_output(shards / "pairs", tmp / DATA / "pairs", split_names=True)
        configs = describe_configs(tmp, "pairs", pair_files, PAIR_SCHEMA)
        schema_versions = {"pairs": SCHEMA_VERSION, "discarded_triples": SCHEMA_VERSION}
        if (shards / "items").is_dir():
            item_files = copy_output(shards / "items", tmp / DATA / "items", split_names=True)
            configs.update(describe_configs(tmp, "items", item_files, ITEM_SCHEMA))
            schema_versions["items"] = ITEMS_SCHEMA_VERSION
        extra = []
        if ontologies:  # bytes unchanged, as the build wrote (and output_check hashed) them
            (tmp / DATA / ONTOLOGIES).mkdir(parents=True)
            for path in ontologies:
                shutil.copyfile(path, tmp / DATA / ONTOLOGIES / path.name)
            extra.append(f"{DATA}/{ONTOLOGIES}/")
        aux = [("discarded_triples", DISCARDED_TRIPLE_SCHEMA)] + ([("audit", AUDIT_SCHEMA)] if include_audit else [])
        for aux_name, _schema in aux:
            if copy_output(shards / aux_name, tmp / AUX / aux_name, split_names=False):
                extra.append(f"{AUX}/{aux_name}/")
                schema_versions[aux_name] = SCHEMA_VERSION
        by_domain, lengths, relations = pair_columns(pair_files)
        make_plots(tmp / "plots", stats, by_domain, lengths, relations)
        (tmp / "stats.json").write_bytes((shards / "stats.json").read_bytes())
        (tmp / "config.json").write_text(json.dumps(stats.get("config", {}), ensure_ascii=False, indent=2,
                                                    sort_keys=True) + "\n", encoding="utf-8")
        release_cv = code_version()
        facts = ReleaseFacts(name=name, stats=stats, configs=configs, code_version=stats.get("code_version") or {},
                             release_code_version=release_cv, license=license, license_name=license_name,
                             license_link=license_link, extra_files=extra)
        (tmp / "README.md").write_text(render_card(facts), encoding="utf-8")
        manifest = write_manifest(tmp, {
            "name": name,
            "schema_versions": schema_versions,
            "build": {"code_version": stats.get("code_version"), "config": stats.get("config"),
                      "funnel_pairs": next((s["out"]["entries"] for s in stats.get("funnel", [])
                                            if s["stage"] == "finalise"), 0)},
            "release": {"code_version": release_cv},
            "configs": {n: {"task": c["task"], "domain": c["domain"], "rows": c["rows"]} for n, c in configs.items()},
        })
        _move_into_place(tmp, out, overwrite)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        os.close(lock)
    return manifest


def is_release(folder: Path) -> bool:
    from pipeline.release_manifest import FORMAT, MANIFEST

    try:
        return json.loads((folder / MANIFEST).read_text(encoding="utf-8")).get("format") == FORMAT
    except (OSError, ValueError, AttributeError):
        return False


def check_out(shards: Path, out: Path, overwrite: bool) -> None:
    """Refuse an --out that is, holds or lies in the build, and one holding anything but an earlier release.

    Why: `--overwrite` removed whatever --out held, so `--out` naming the build
    (or a folder around it) deleted the build, and a folder of other files was
    emptied without a word.
    """
    s, o = shards.resolve(), out.resolve()
    if o == s or s in o.parents or o in s.parents:
        raise CdtpError(f"--out {out} and --shards {shards} overlap (one is or holds the other): "
                        "give the release a folder of its own, beside the build")
    if out.exists() and not out.is_dir():
        raise CdtpError(f"--out {out} is a file, where a folder is wanted")
    if out.is_dir() and any(out.iterdir()):
        if not overwrite:
            raise CdtpError(f"{out} is not empty; pass --overwrite to replace it")
        if not is_release(out):
            raise CdtpError(f"{out} holds something other than a cdtp release (no cdtp manifest.json); "
                            "--overwrite replaces only an earlier release, so it is left as it is")


def _private_partial(out: Path) -> tuple[Path, int]:
    """A new folder beside `out` for this run alone, locked while it runs; a dead run's folder is removed.

    Why: one fixed `OUT.partial` was shared by two releases into one folder at
    once; each removed the other's files and one printed success for a release
    without its data (or with the other build's).
    """
    import fcntl
    import glob
    import tempfile

    out.parent.mkdir(parents=True, exist_ok=True)
    for stale in [out.with_name(out.name + ".partial"), *out.parent.glob(f"{glob.escape(out.name)}.partial-*")]:
        try:
            fd = os.open(stale, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shutil.rmtree(stale, ignore_errors=True)  # by name: a folder renamed into place meanwhile is not it
        except OSError:
            pass  # another release is writing it
        finally:
            os.close(fd)
    tmp = Path(tempfile.mkdtemp(prefix=f"{out.name}.partial-", dir=out.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's 0700 would become the release's own mode
    lock = os.open(tmp, os.O_RDONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)
    return tmp, lock


def _move_into_place(tmp: Path, out: Path, overwrite: bool) -> None:
    """Rename the finished release to `out`; an earlier release there goes only once the new one is in.

    The rename is refused by the system when `out` was filled meanwhile (another
    release into it finished first): that is an error, never a mix of the two.
    """
    old = None
    if overwrite and out.is_dir() and any(out.iterdir()):
        if not is_release(out):
            raise CdtpError(f"{out} now holds something other than a cdtp release; it is left as it is")
        old = out.with_name(f"{out.name}.old-{tmp.name.rsplit('-', 1)[-1]}")
        os.rename(out, old)
    try:
        os.rename(tmp, out)
    except OSError as exc:
        if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
            raise CdtpError(f"{out} was filled while this release was made (another `cdtp release` into it?); "
                            f"this release is discarded and {out} left as it is") from None
        raise
    finally:
        if old is not None and not out.exists():  # interrupted between the two renames
            os.rename(old, out)
            old = None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
