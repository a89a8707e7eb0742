"""`cdtp seeds`: build one seed list for `cdtp crawl --seeds` from several sources."""
from __future__ import annotations

import argparse
import sys

from pipeline.errors import CdtpError


def register(subparsers) -> None:
    # The crawl area may register its commands in a sibling module; never let a
    # second registration of the same name break the whole `cdtp` command line.
    if "seeds" in subparsers.choices:
        return
    p = subparsers.add_parser(
        "seeds",
        help="aggregate seed entries (plain lists, KgCLUE, NLPCC-KBQA, triple CSV/TSV) into one seed file",
        description=(
            "Read seed sources, normalise titles (NFKC, whitespace, disambiguation subtitle split off), "
            "drop garbage with a counted reason, deduplicate across sources and write one seed per line "
            "(`title` or `title<TAB>subtitle`) plus FILE.stats.json with the counts per source."
        ),
    )
    p.add_argument("sources", nargs="+", metavar="SOURCE", help="seed source files (.gz accepted)")
    p.add_argument("--out", required=True, metavar="FILE", help="seed file to write")
    p.add_argument(
        "--format",
        choices=("list", "kgclue", "nlpcc", "triples"),
        default=None,
        help="force one format for every source (default: detected per file)",
    )
    p.set_defaults(handler=run_seeds)


def run_seeds(args: argparse.Namespace) -> int:
    from crawlers.seeds import aggregate, write_seed_file

    try:
        seed_list = aggregate(args.sources, args.format)
    except ValueError as exc:
        raise CdtpError(str(exc)) from exc
    for s in seed_list.sources:
        bad = sum(s.malformed.values())
        reasons = ", ".join(f"{r}={n}" for r, n in sorted(s.malformed.items()))
        print(
            f"{s.path} [{s.format}, {s.encoding}]: {s.lines} lines, {s.seeds} seeds "
            f"({s.new} new, {s.duplicates} duplicates), {s.skipped} skipped, {bad} malformed"
            + (f" ({reasons})" if reasons else "")
        )
    if not seed_list.seeds:
        raise CdtpError("no seed found in the given sources; nothing written (see the counts above)")
    stats_path = write_seed_file(args.out, seed_list)
    with_sub = sum(1 for s in seed_list.seeds if s.subtitle)
    print(f"wrote {len(seed_list.seeds)} seeds ({with_sub} with a subtitle) to {args.out}; counts in {stats_path}")
    sys.stdout.flush()
    return 0
