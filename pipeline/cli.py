"""`cdtp` command line: one console script, one subcommand per stage.

Each area owns its subcommands in its own module, which exposes
`register(subparsers)`. Registration must stay cheap: heavy imports (Beam,
Scrapy, DuckDB, embedding models) happen inside the handlers, so `cdtp --help`
answers at once.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from pipeline.errors import CdtpError

# Modules that contribute subcommands, in the order they appear in --help.
COMMAND_MODULES = (
    "crawlers.commands",  # crawl
    "crawlers.seed_commands",  # seeds
    "crawlers.site_commands",  # site serve
    "pipeline.commands",  # build, query
    "pipeline.search_commands",  # search index/query
    "pipeline.review_commands",  # review export/import
    "pipeline.domain_commands",  # domain eval
    "pipeline.demo",  # demo
    "pipeline.release_commands",  # release, release verify
    "pipeline.config_commands",  # config show
    "pipeline.worker_pool",  # workers (loopback SDK worker pool, cluster rehearsal)
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cdtp",
        description="Build CDTP-style Chinese data-text pair benchmarks from Baike pages.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # area not built yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except CdtpError as exc:
        print(f"cdtp: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cdtp: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and friends: the reader left, nothing is wrong.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
