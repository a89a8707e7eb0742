"""`cdtp build` and `cdtp query`.

`cdtp build --input GLOB --out DIR [options] [Beam pipeline options]`: every
argument `build` does not know is passed unchanged to Beam's PipelineOptions
(--runner DataflowRunner --project P --region R --temp_location gs://...
--sdk_container_image IMG / --setup_file ./setup.py,
--direct_running_mode=multi_processing --direct_num_workers=N). The runner
defaults to DirectRunner, set explicitly: Beam's own default (Prism)
downloads a binary and fails offline.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time

from pipeline.errors import CdtpError


class _PassThroughParser(argparse.ArgumentParser):
    """Keeps unknown options (Beam's) in `args.beam_args` instead of failing."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        namespace.beam_args = list(getattr(namespace, "beam_args", None) or []) + list(extras)
        return namespace, []


def register(subparsers) -> None:
    b = subparsers.add_parser(
        "build",
        help="clean raw Baike entries into data-text pairs (Apache Beam)",
        description="Read raw entries (JSON Lines / Parquet), run the CDTP cleaning stages and write "
                    "pairs, audit, discarded triples and benchmark items (with their T2KG ontologies) as Parquet "
                    "plus stats.json. Unknown options are "
                    "Beam pipeline options (e.g. --runner DataflowRunner --project P --region R "
                    "--temp_location gs://B/tmp --setup_file ./setup.py).",
    )
    b.__class__ = _PassThroughParser
    b.add_argument("--input", action="append", default=[], metavar="GLOB",
                   help="raw entry files: raw-*.jsonl[.gz] or *.parquet (repeatable; local or gs://)")
    b.add_argument("--out", required=True, metavar="DIR", help="output directory (local or gs://)")
    b.add_argument("--config", metavar="FILE.json", help="BuildConfig as JSON (sections: input, cleaning, "
                   "relation_frequency, output, ...)")
    b.add_argument("--set", action="append", default=[], metavar="SECTION.FIELD=JSON",
                   help="override one config field, e.g. --set relation_frequency.min_count=3")
    b.add_argument("--num-shards", type=int, help="shards per output/partition (0 = one per 16 MiB of input)")
    b.add_argument("--min-relation-count", type=int, help="relation-frequency filter: minimum count")
    b.add_argument("--top-k-relations", type=int, help="relation-frequency filter: keep the top K")
    b.add_argument("--position-index", type=float, help="redundant-description threshold (paper: 0.75)")
    b.add_argument("--min-coverage", type=float, metavar="C",
                   help="beyond the paper, off by default: drop pairs whose coverage (share of the text's "
                        "clauses holding a kept triple's support) is below C")
    b.add_argument("--trim", action="store_true", default=None,
                   help="trim mode (beyond the paper): cut the text after the last matched triple's sentence")
    b.add_argument("--relation-review", metavar="DECISIONS.json",
                   help="drop triples whose relation the annotators rejected (file from `cdtp review import`)")
    b.add_argument("--seed", type=int, help="split/subset seed and the items' option-order seed (default 0): "
                   "same seed, same split and same items")
    b.add_argument("--subset-size", type=int, help="stratified subset size N (default 10000; paper §4.1)")
    b.add_argument("--no-split", action="store_true", default=None,
                   help="skip the train/eval split and subset (split and in_subset stay null)")
    b.add_argument("--no-near-duplicate", action="store_true", default=None,
                   help="skip the near-duplicate text reduction (MinHash LSH; leakage.near_duplicate_texts stays null)")
    b.add_argument("--no-domain", action="store_true", default=None,
                   help="skip domain classification (domain columns stay null)")
    b.add_argument("--embedder", help="embedder of the domain fallback: use-m3 (default, offline), st:<model>, none")
    b.add_argument("--search-backend", choices=("local", "searxng", "off"),
                   help="search co-occurrence validation (§3.2): local full-text index (default index: the "
                        "build's own input), a SearXNG service, or off (default)")
    b.add_argument("--search-index", metavar="INDEX.duckdb", help="local index from `cdtp search index` (implies local)")
    b.add_argument("--searxng-url", metavar="URL", help="SearXNG base URL, e.g. http://127.0.0.1:8888 (implies searxng)")
    b.add_argument("--search-cache", metavar="DIR", help="search cache directory (default: OUT/search_cache)")
    b.add_argument("--unverified-policy", choices=("keep", "drop"),
                   help="triples whose search FAILED: keep them as unverified (default) or drop them")
    b.add_argument("--domain-threshold", type=float, help="domain confidence below which the code is unknown (0.4)")
    b.add_argument("--no-items", action="store_true", default=None,
                   help="skip the benchmark items (QA, KGC, T2T, T2KG) after split")
    b.add_argument("--embed-cache", metavar="DIR", help="persistent embedding cache of the items stage "
                   "(default: OUT/embed_cache; kept by --overwrite)")
    b.add_argument("--overwrite", action="store_true", help="replace the outputs of an earlier build in DIR")
    # --- release (issue 12): refuse local paths a remote worker cannot share ---
    b.add_argument("--force-local-paths", action="store_true",
                   help="allow a local --input/--out with a runner whose workers may not share this disk "
                        "(only when every worker mounts the same directory at the same path)")
    b.set_defaults(handler=run_build)

    q = subparsers.add_parser(
        "query",
        help="SQL over a build's Parquet outputs (DuckDB)",
        description="Views: pairs, triples (one row per triple of a kept pair), audit, discarded_triples, "
                    "and when present items (benchmark items), results (evaluation results), leaderboard. "
                    "Why was a triple dropped? SELECT stage, reason, detail FROM audit "
                    "WHERE kind='triple' AND head='…' AND tail='…'",
    )
    q.add_argument("dir", metavar="DIR", help="a `cdtp build` output directory")
    q.add_argument("sql", metavar="SQL")
    q.add_argument("--format", choices=("table", "csv", "json"), default="table")
    q.set_defaults(handler=run_query)


def _overrides(args) -> dict:
    o: dict = {"input": {}, "output": {}, "cleaning": {}, "relation_frequency": {}, "split": {}}
    if args.input:
        o["input"]["patterns"] = list(args.input)
    o["output"]["out_dir"] = args.out.rstrip("/") if args.out not in ("/",) else args.out
    if args.num_shards is not None:
        o["output"]["num_shards"] = args.num_shards
    if args.min_relation_count is not None:
        o["relation_frequency"]["min_count"] = args.min_relation_count
    if args.top_k_relations is not None:
        o["relation_frequency"]["top_k"] = args.top_k_relations
    if args.position_index is not None:
        o["cleaning"]["position_index_threshold"] = args.position_index
    if args.trim:
        o["cleaning"]["trim_mode"] = True
    if getattr(args, "min_coverage", None) is not None:
        o["cleaning"]["min_coverage"] = args.min_coverage
    if getattr(args, "relation_review", None):
        o["relation_review"] = {"decisions": args.relation_review}
    if getattr(args, "seed", None) is not None:
        o["split"]["seed"] = args.seed
    if getattr(args, "subset_size", None) is not None:
        o["split"]["subset_size"] = args.subset_size
    if getattr(args, "no_near_duplicate", None):
        o["near_duplicate"] = {"enabled": False}
    if getattr(args, "no_split", None):
        o["split"]["enabled"] = False
    items: dict = {}
    if getattr(args, "seed", None) is not None:
        items["seed"] = args.seed
    if getattr(args, "no_items", None):
        items["enabled"] = False
    if getattr(args, "embed_cache", None):
        items["embed_cache"] = args.embed_cache
    if items:
        o["items"] = items
    dom: dict = {}
    if getattr(args, "no_domain", None):
        dom["enabled"] = False
    if getattr(args, "embedder", None):
        dom["embedder"] = args.embedder
    if getattr(args, "domain_threshold", None) is not None:
        dom["threshold"] = args.domain_threshold
    if dom:
        o["domain"] = dom
    o["search"] = _search_overrides(args)
    return {k: v for k, v in o.items() if v}


def _search_overrides(args) -> dict:
    s: dict = {}
    backend = getattr(args, "search_backend", None)
    # An option of one backend given with another is a mistake, not a choice to
    # settle quietly (`--search-backend local --searxng-url URL` ran local and
    # ignored the URL).
    given = [f for f, b in (("--search-index", "local"), ("--searxng-url", "searxng"))
             if getattr(args, f[2:].replace("-", "_"), None) and backend != b]
    if (backend is not None and given) or len(given) > 1:
        raise CdtpError(f"{' and '.join(given)} cannot go with "
                        f"{'--search-backend ' + backend if backend else 'each other'}: one search backend per build")
    if backend is None and getattr(args, "searxng_url", None):
        backend = "searxng"
    if backend is None and getattr(args, "search_index", None):
        backend = "local"
    if backend == "off":
        s["enabled"] = False
    elif backend:
        s.update(enabled=True, backend=backend)
    for flag, key in (("search_index", "index_path"), ("searxng_url", "searxng_url"),
                      ("search_cache", "cache_dir"), ("unverified_policy", "unverified_policy")):
        if getattr(args, flag, None):
            s[key] = getattr(args, flag)
    return s


def pipeline_options(beam_args: list[str]):
    """Beam options from the pass-through args; DirectRunner unless told otherwise."""
    from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions

    unknown = unknown_beam_args(beam_args)
    if unknown:
        # Beam only logs "Discarding unparseable args" and runs on: a typo
        # (`--postion-index 0.9`) would build with the default and say nothing.
        raise CdtpError(f"unknown option{'s' if len(unknown) > 1 else ''} {' '.join(unknown)}: neither cdtp's "
                        "nor Beam's (see `cdtp build --help`)")
    opts = PipelineOptions(beam_args)
    if not opts.view_as(StandardOptions).runner:
        opts.view_as(StandardOptions).runner = "DirectRunner"
    return opts


def unknown_beam_args(beam_args: list[str]) -> list[str]:
    """The options of `beam_args` that no Beam options class defines (their
    values left out), parsed as PipelineOptions.get_all_options parses them."""
    from apache_beam.options.pipeline_options import PipelineOptions, _BeamArgumentParser

    parser = _BeamArgumentParser(allow_abbrev=False)
    for cls in {str(c): c for c in PipelineOptions.__subclasses__()}.values():
        cls._add_argparse_args(parser)  # noqa: SLF001 - how Beam itself collects them
    _, unknown = parser.parse_known_args(list(beam_args))
    return [a for a in unknown if a.startswith("-")]


def make_runner(options):
    """The runner object for `options`; None lets Beam resolve --runner itself.

    For DirectRunner we build Beam's FnApiRunner directly. Beam's DirectRunner
    first tries Prism, which downloads a binary (fails offline, costs seconds
    per run) and ignores --direct_running_mode/--direct_num_workers; the
    FnApiRunner honours them, so multi_processing really pickles every DoFn.
    """
    from apache_beam.options.pipeline_options import StandardOptions

    name = (options.view_as(StandardOptions).runner or "DirectRunner").rsplit(".", 1)[-1]
    if name not in ("DirectRunner", "SwitchingDirectRunner", "FnApiRunner"):
        return None
    from apache_beam.portability.api import beam_provision_api_pb2
    from apache_beam.runners.portability.fn_api_runner import fn_runner
    from apache_beam.runners.portability.portable_runner import JobServiceHandle

    encoded = JobServiceHandle.encode_pipeline_options(options.get_all_options())
    info = fn_runner.ExtendedProvisionInfo(beam_provision_api_pb2.ProvisionInfo(pipeline_options=encoded))
    return fn_runner.FnApiRunner(provision_info=info)


def execute_build(cfg, beam_args: list[str], overwrite: bool = False, force_local_paths: bool = False) -> dict:
    """Run the build described by `cfg`; returns the stats dict (also written to stats.json)."""
    import apache_beam as beam
    from apache_beam.io.filesystems import FileSystems
    from apache_beam.runners.runner import PipelineState

    from pipeline import staging
    from pipeline.build import SPILL_DIR, build_pipeline
    from pipeline.errors import RELAYED_NAME
    from pipeline.funnel import read_counters
    from pipeline.read import expand_inputs
    from pipeline.spill import remove_dir
    from pipeline.stats import assemble_stats, write_stats
    from pipeline.write import ensure_nonempty
    from schemas.outputs import AUDIT_SCHEMA, DISCARDED_TRIPLE_SCHEMA, PAIR_SCHEMA

    if not cfg.output.out_dir:
        raise CdtpError("no --out directory given")
    # Local paths with remote workers are refused before anything runs (issue 12).
    from apache_beam.options.pipeline_options import PortableOptions

    from pipeline.output_check import (clear_object_store_out, is_local_path, refuse_unshared_paths,
                                       verify_written)

    options = pipeline_options(beam_args)

    if (options.view_as(PortableOptions).environment_type or "").upper() == "LOOPBACK":
        from pipeline.cli import skip_finalisation

        skip_finalisation()  # in-process gRPC workers can abort the interpreter's teardown (exit 134)

    FileSystems.set_options(options)  # the launcher's own file access uses --s3_endpoint_url & co. too
    refuse_unshared_paths(cfg, options, force_local_paths)
    inputs = expand_inputs(cfg.input.patterns)
    out = cfg.output.out_dir
    if cfg.items.enabled and not cfg.items.embed_cache:
        # The embedding cache outlives builds (a string is embedded once, ever): it sits
        # in the real OUT, not in the staging directory that is swapped in or discarded.
        from pipeline.build import EMBED_CACHE_DIR

        cfg.items.embed_cache = FileSystems.join(out, EMBED_CACHE_DIR)
    if cfg.items.enabled:  # before OUT is touched: a stray cache file fails the build in its first second
        from pipeline.items_embed import check_cache

        check_cache(cfg.items.embed_cache, cfg.items.embedder)
    if is_local_path(out):
        # Every local build writes into OUT/_staging and its outputs replace the old
        # ones only after it succeeded (pipeline/staging.py): a failed --overwrite
        # build keeps the previous outputs, a killed one leaves only scratch, removed here.
        staging_dir, removed = staging.prepare(out, overwrite)
        if removed:
            print(f"cdtp build: cleared what an interrupted build left in {out}: {', '.join(removed)}",
                  file=sys.stderr)
    else:
        # An object store cannot rename a folder, so there is no atomic swap: an
        # --overwrite build removes the earlier shards before it starts (release, issue 12).
        clear_object_store_out(out, overwrite)
        staging_dir = out
    if cfg.search.enabled:  # index the build's own input when no index is given; default cache in OUT
        from pipeline.search_stage import prepare_search

        try:
            cfg.search = prepare_search(cfg.search, cfg.input.patterns, out)
        except BaseException:
            if staging_dir != out:
                staging.discard(staging_dir)  # refused before it ran: it leaves nothing behind
            raise
    staged = dataclasses.replace(cfg, output=dataclasses.replace(cfg.output, out_dir=staging_dir))
    from pipeline.gc_tuning import tune_gc

    tune_gc()  # the DirectRunner runs the stages in this process
    started = time.time()
    try:
        try:
            p = beam.Pipeline(runner=make_runner(options), options=options)
        except ValueError as exc:  # e.g. an unknown --runner
            raise CdtpError(f"cannot start the pipeline: {exc}") from None
        build_pipeline(p, staged, inputs)
        # A job that fails on the workers is a clear error, not a runner traceback (issue 12).
        try:
            result = p.run()
            state = result.wait_until_finish()
        except CdtpError:
            raise
        except Exception as exc:  # noqa: BLE001 - the runner's own exception types vary
            if "KeyboardInterrupt" in str(exc):
                # Ctrl-C while the DirectRunner's bundles run reaches us wrapped in
                # its RuntimeError: the user stopped the build, it did not fail.
                raise KeyboardInterrupt from None
            lines = [ln for ln in str(exc).strip().splitlines() if ln.strip()]
            why = next((ln.strip() for ln in reversed(lines) if "Error" in ln or "Exception" in ln),
                       lines[-1].strip() if lines else type(exc).__name__)
            user = why.partition(f"{RELAYED_NAME}: ")[2]
            if user:  # the user's error, raised in a worker's process: said as in this one
                raise CdtpError(user) from None
            raise CdtpError(f"the Beam job failed on the runner ({type(exc).__name__}): {why[:500]}. Nothing it "
                            f"wrote in {out} should be used.") from exc
        if state not in (PipelineState.DONE, None) and str(state) != "DONE":
            raise CdtpError(f"pipeline ended in state {state}")
        elapsed = time.time() - started
        remove_dir(None, FileSystems.join(staging_dir, SPILL_DIR))
        from pipeline.provenance import code_version

        stats = assemble_stats(read_counters(result), staged, {"run": {"seconds": round(elapsed, 2),
                                                                       "beam_args": list(beam_args)},
                                                               "code_version": code_version()})
        stats["config"] = cfg.to_dict()  # the real OUT, not the staging directory
        # An output with no row still gets one empty shard, so readers see its
        # schema; it is written first so that the record below counts it (a
        # reader compares the shards it finds with that record).
        ensure_nonempty(FileSystems.join(staging_dir, "pairs"), PAIR_SCHEMA, tuple(cfg.output.partition_by))
        ensure_nonempty(FileSystems.join(staging_dir, "audit"), AUDIT_SCHEMA)
        ensure_nonempty(FileSystems.join(staging_dir, "discarded_triples"), DISCARDED_TRIPLE_SCHEMA)
        if cfg.items.enabled:
            from schemas.items import ITEM_SCHEMA

            ensure_nonempty(FileSystems.join(staging_dir, "items"), ITEM_SCHEMA, ("task", "domain", "split"))
        # What is on storage must match the funnel before anything claims success (issue 12).
        stats["output_check"] = verify_written(staging_dir, stats, staged, input_bytes=inputs.estimated_bytes)
        write_stats(stats, staging_dir)
    except BaseException:
        if staging_dir != out:
            staging.discard(staging_dir)  # the previous outputs, if any, are untouched
        raise
    if staging_dir != out:
        staging.swap_in(out, staging_dir)
    return stats


def run_build(args) -> int:
    from pipeline.config import load_config

    cfg = load_config(args.config, _overrides(args), args.set)
    stats = execute_build(cfg, list(getattr(args, "beam_args", []) or []), overwrite=args.overwrite,
                          force_local_paths=getattr(args, "force_local_paths", False))
    t = stats["totals"]
    kept = next((s["out"]["entries"] for s in stats["funnel"] if s["stage"] == "finalise"), 0)
    print(
        f"cdtp build: {t['entry']['kept'] + t['entry']['dropped']} entries -> {kept} pairs; "
        f"triples kept {t['triple']['kept']}, dropped {t['triple']['dropped']}; "
        f"{stats['run']['seconds']} s; outputs in {cfg.output.out_dir}"
    )
    for s in stats["funnel"]:
        dropped = {**s["dropped"].get("entry", {})}
        if dropped:
            print(f"  {s['stage']:<22} in {s['in']['entries']:>8}  out {s['out']['entries']:>8}  "
                  f"dropped {json.dumps(dropped, ensure_ascii=False)}")
    search = stats.get("search") or {}
    unverified = {k.removeprefix("unverified_"): v for k, v in search.items()
                  if k.startswith("unverified_") and v}
    if unverified:
        # kept (or dropped, by the policy) without the search's word: say so, not only in stats.json
        print(f"  search: {search.get('triples_unverified_kept', 0)} triples kept and "
              f"{search.get('triples_unverified_dropped', 0)} dropped unverified "
              f"({json.dumps(unverified, ensure_ascii=False)})", file=sys.stderr)
    if t["entry"]["kept"] + t["entry"]["dropped"] == 0:
        print("cdtp build: warning: the input held no entry", file=sys.stderr)
    return 0


def run_query(args) -> int:
    from pipeline.query import format_rows, run_query as _run

    columns, rows = _run(args.dir, args.sql)
    text = format_rows(columns, rows, args.format)
    sys.stdout.write(text + ("\n" if text else ""))
    return 0
