"""`cdtp eval`: ask a model the benchmark's items and score the answers.

    cdtp eval --items BUILD --model SPEC --tasks qa,kgc,t2t,t2kg [--domains HP,HS,TE,NE]
              [--split eval] [--subset] [--limit N] [--shots K] [--circular R] --out DIR
              [--results DIR] [--reuse] [--retry-errors]

Model specs: see evaluation/models.py (random, most-frequent, embed, template,
openai-chat:MODEL@URL, openai-completions:MODEL@URL, hf:PATH).
"""
from __future__ import annotations

import sys


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def register(subparsers) -> None:
    p = subparsers.add_parser("eval", help="evaluate a model on the items (QA, KGC, T2T, T2KG); resumable",
                              description=__doc__)
    p.add_argument("--items", required=True, metavar="DIR", help="build folder with items/, or an items folder")
    p.add_argument("--model", metavar="SPEC", help="model spec (optional with --reuse)")
    p.add_argument("--tasks", type=_csv, default=["qa", "kgc", "t2t", "t2kg"], help="comma-separated tasks")
    p.add_argument("--domains", type=_csv, default=None, help="comma-separated domains (default: all)")
    p.add_argument("--split", default="eval", help="split of the items asked: eval (default), train, or unassigned (the items of a --no-split build)")
    p.add_argument("--subset", action="store_true", help="only the stratified subset's items")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="at most N items per task and domain")
    p.add_argument("--shots", type=int, default=0, metavar="K", help="K demonstrations from train (embedding-nearest)")
    p.add_argument("--embedder", default="use-m3", help="embedder spec for choosing demonstrations")
    p.add_argument("--circular", type=int, default=0, metavar="R",
                   help="circular evaluation with R option rotations (right only if right in all)")
    p.add_argument("--out", required=True, metavar="DIR", help="run folder: journal, predictions, results")
    p.add_argument("--results", metavar="DIR", default=None,
                   help="results table folder to append to (default: BUILD/results beside items/)")
    p.add_argument("--reuse", action="store_true", help="re-score the saved predictions; no model call")
    p.add_argument("--retry-errors", action="store_true", help="on resume, ask again the items whose call failed")
    p.set_defaults(handler=run)


def run(args) -> int:
    from evaluation.config import EvalConfig
    from evaluation.runner import run_eval
    from pipeline.errors import CdtpError

    if args.limit is not None and args.limit < 1:
        raise CdtpError("--limit must be at least 1")
    if args.shots < 0 or args.circular < 0:
        raise CdtpError("--shots and --circular must not be negative")
    from schemas.items import NUM_OPTIONS

    if args.circular > NUM_OPTIONS:  # there are no more rotations than options: the run would record a lie
        raise CdtpError(f"--circular must be at most {NUM_OPTIONS}, the options of an item")
    cfg = EvalConfig(tasks=args.tasks, domains=args.domains, split=args.split, subset=args.subset,
                     limit=args.limit, shots=args.shots, embedder=args.embedder, circular=args.circular,
                     retry_errors=args.retry_errors)
    # an unwritable --out or results folder, a full disk: an OSError, which
    # the command line names with its path (pipeline/cli.py)
    doc = run_eval(args.items, args.out, cfg, model_spec=args.model, reuse=args.reuse, results_dir=args.results)
    with open(f"{args.out}/results.md", encoding="utf-8") as fh:
        sys.stdout.write(fh.read())
    c = doc["counts"]
    if doc["results_table"] is None:
        raise CdtpError(f"{doc['not_added']} (the run is in {args.out})")
    print(f"{c['asked']} answers scored ({c['errors']} errors, {c['unparseable']} unparseable, "
          f"{c['no_triples']} T2KG with no triples, {c['empty_output']} T2T empty, "
          f"{c['output_truncated']} T2T cut to the scored length, "
          f"{c['missing']} missing, {c['invalid_items']} invalid items); run {doc['run_id']}, "
          f"results table {doc['results_table']}", file=sys.stderr)
    return 0
