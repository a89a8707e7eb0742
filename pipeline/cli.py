"""`cdtp` command line: one console script, one subcommand per stage.

Each area owns its subcommands in its own module, which exposes
`register(subparsers)`. Registration must stay cheap: heavy imports (Beam,
Scrapy, DuckDB, embedding models) happen inside the handlers, so `cdtp --help`
answers at once.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from pathlib import Path

from pipeline.errors import RELAYED_NAME, CdtpError

# Modules that contribute subcommands, in the order they appear in --help.
COMMAND_MODULES = (
    "crawlers.commands",  # crawl
    "crawlers.seed_commands",  # seeds
    "crawlers.site_commands",  # site serve
    "pipeline.commands",  # build, query
    "pipeline.search_commands",  # search index/query
    "pipeline.review_commands",  # review export/import
    "pipeline.domain_commands",  # domain eval
    "evaluation.eval_commands",  # eval
    "evaluation.score_commands",  # score text2kg / t2t
    "evaluation.leaderboard_commands",  # leaderboard, judge
    "pipeline.export_commands",  # export (benchmark items as JSON Lines)
    "pipeline.types_commands",  # types eval
    "pipeline.align_commands",  # align eval
    "pipeline.items_commands",  # items distractors
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
    # A CdtpError raised in a DoFn is the user's error: printed once, below, as
    # `cdtp: error: ...`. Beam would log it first with the worker's traceback,
    # and a portable runner relays the worker's log and its job service's too.
    for name in _LOGGERS_OF_WORKER_ERRORS:
        logging.getLogger(name).addFilter(_not_a_user_error)
    # Beam warns on import, on every command, that BigQuery's client is absent: the build never uses it.
    logging.getLogger().addFilter(_not_beam_s_bigquery_warning)
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
    except OSError as exc:
        # A path no command checked for itself: a folder where a file is to be
        # written (--out DIR), a file where a folder is, no permission. Say
        # which path and why, never a traceback.
        path = exc.filename2 if exc.filename2 is not None else exc.filename  # a rename names its target second
        culprit = _file_in_a_folder_s_place(path) if isinstance(exc, (FileExistsError, NotADirectoryError)) else None
        if culprit is not None:  # `File exists: README.md` would not say what is wrong with it
            print(f"cdtp: error: {culprit} is a file, where a folder is wanted", file=sys.stderr)
            return 2
        where = f": {path}" if path is not None else ""
        print(f"cdtp: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"cdtp: error: an input file is not UTF-8 text ({exc.reason} at byte {exc.start})", file=sys.stderr)
        return 2


_LOGGERS_OF_WORKER_ERRORS = ("apache_beam.runners.common", "apache_beam.runners.worker.sdk_worker",
                             "apache_beam.runners.portability.local_job_service",
                             "")  # "": the root logger, which relays a portable runner's worker log


def _not_a_user_error(record: logging.LogRecord) -> bool:
    """False for Beam's log record of a CdtpError (the logging filter in main):
    raised here, or named in a record relayed from a worker's process; and of a
    KeyboardInterrupt, whose traceback Beam logs before it stops."""
    raised = record.exc_info[1] if record.exc_info else None
    if isinstance(raised, CdtpError) or isinstance(record.msg, CdtpError):
        return False
    if isinstance(raised, KeyboardInterrupt) or str(record.msg).startswith("KeyboardInterrupt"):
        return False  # Ctrl-C in a bundle: the user stopped the build, said once as `cdtp: interrupted`
    if record.levelno < logging.ERROR:
        return True
    return RELAYED_NAME not in record.getMessage() and RELAYED_NAME not in str(raised or "")


def _not_beam_s_bigquery_warning(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith("apitools not found")


def _file_in_a_folder_s_place(path) -> str | None:
    """The nearest existing part of `path` when it is a file, or None: `--out
    README.md` fails as `File exists: README.md`, `README.md/items` as `Not a
    directory`; both mean a file stands where a folder is to be made."""
    if path is None:
        return None
    for part in (Path(os.fsdecode(path)), *Path(os.fsdecode(path)).parents):
        if part.exists():
            return None if part.is_dir() else str(part)
    return None


# Set by a command whose process must not run Python's finalisation (see entry()).
_SKIP_FINALISATION = False


def skip_finalisation() -> None:
    """Ask entry() to end the process with os._exit after the command has finished.

    Why: a Beam job on the PortableRunner with --environment_type=LOOPBACK runs
    its SDK worker as gRPC threads inside this process. When the interpreter
    tears down with one of gRPC's C++ threads still joinable, libstdc++ calls
    std::terminate ("terminate called without an active exception") and the
    process dies with SIGABRT (exit 134) although the job and its outputs are
    complete; 3 of 16 such runs did. Everything is written and checked by the
    time the command returns, so the process exits with the command's own
    status and skips the teardown.
    """
    global _SKIP_FINALISATION
    _SKIP_FINALISATION = True


def entry() -> None:
    """The `cdtp` console script: main(), then exit with its status."""
    rc = main()
    if _SKIP_FINALISATION:
        import logging

        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(rc)
    sys.exit(rc)


if __name__ == "__main__":  # pragma: no cover
    entry()
