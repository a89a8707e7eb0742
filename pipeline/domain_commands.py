"""`cdtp domain eval|classify`: score the domain classifier on labelled data.

`eval` reads a labelled JSONL (locator rows rebuilt from the data folder, or
self-contained rows) and prints accuracy, per-domain precision/recall and the
confusion matrix. `classify` prints one prediction per input row with its
confidence and evidence. Heavy imports happen inside the handlers.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pipeline.errors import CdtpError
from transforms.corpora import DEFAULT_DATA_DIR


def register(subparsers) -> None:
    parser = subparsers.add_parser("domain", help="domain classification: evaluate or classify")
    sub = parser.add_subparsers(dest="domain_command", metavar="SUBCOMMAND")

    ev = sub.add_parser("eval", help="accuracy, per-domain P/R and confusion matrix on a labelled JSONL")
    ev.add_argument("--labels", required=True, help="labelled JSONL (locator rows or self-contained rows)")
    _common(ev)
    ev.add_argument("--held-out", default="", help="comma-separated source prefixes also reported separately")
    ev.add_argument("--errors", action="store_true", help="list misclassified items")
    ev.add_argument("--json", action="store_true", help="print the report as JSON")
    ev.set_defaults(handler=_eval)

    cl = sub.add_parser("classify", help="print predictions for a JSONL of entries or pairs")
    cl.add_argument("--input", required=True, help="JSONL rows {entity/title, text/summary, tags, triples/infobox}")
    _common(cl)
    cl.set_defaults(handler=_classify)
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--embedder", default="use-m3", help="'use-m3' (default, offline), 'st:<path or hub id>' or 'none'")
    p.add_argument("--threshold", type=float, default=None, help="confidence below which the domain is 'unknown'")
    p.add_argument("--data", default=str(DEFAULT_DATA_DIR), help="data folder for locator rows (default ../shared/data)")


def _classifier(args):
    from transforms.domain import DomainClassifier, DomainConfig
    from transforms.embed import EmbedderError

    cfg = DomainConfig(embedder=args.embedder)
    if args.threshold is not None:
        if not 0.0 <= args.threshold <= 1.0:
            raise CdtpError("--threshold must be between 0 and 1")
        cfg.threshold = args.threshold
    clf = DomainClassifier(cfg)
    try:
        clf._ensure_embedder()
    except EmbedderError as exc:
        raise CdtpError(str(exc)) from exc
    return clf


def read_labels(load, labels: str, data: str) -> list[dict]:
    """A labelled set read by `load(path, data_root)`; a missing or bad file is a clear error.

    Shared by `cdtp domain eval` and `cdtp types eval`."""
    from transforms.domain_labels import LabelError

    path = Path(labels)
    if not path.is_file():
        raise CdtpError(f"labels file {path} does not exist")
    try:
        return load(path, Path(data))
    except LabelError as exc:
        raise CdtpError(str(exc)) from exc


def print_json_report(reports: dict, keep_errors: bool) -> int:
    """Print an eval report (name -> report or None) as JSON, the listed
    errors dropped unless asked for. Shared by `cdtp domain eval`,
    `cdtp types eval` and `cdtp align eval`."""
    if not keep_errors:
        for r in reports.values():
            if r:
                r.pop("errors", None)
    print(json.dumps(reports, ensure_ascii=False, indent=1))
    return 0


def _eval(args) -> int:
    from transforms.domain_labels import evaluate, format_report, load_labels, split_by_source

    items = read_labels(load_labels, args.labels, args.data)
    clf = _classifier(args)
    report = evaluate(items, clf)
    held = [h for h in args.held_out.split(",") if h]
    parts = {}
    if held:
        tune, test = split_by_source(items, held)
        parts = {"other_sources": evaluate(tune, clf) if tune else None, "held_out": evaluate(test, clf) if test else None}
    if args.json:
        return print_json_report({"all": report, **parts}, args.errors)
    print(format_report(report))
    for name, rep in parts.items():
        if rep:
            print(f"\n== {name} ({', '.join(held)})" if name == "held_out" else f"\n== {name}")
            print(format_report(rep))
    if args.errors:
        print("\nmisclassified:")
        for e in report["errors"]:
            print(f"  gold={e['gold']} pred={e['pred']} {e['entity']} [{e['source']}] {e['scores']}")
    return 0


def _classify(args) -> int:
    from transforms.domain_labels import LabelError, labelled_rows, resolve_row, resolved

    path = Path(args.input)
    if not path.is_file():
        raise CdtpError(f"input file {path} does not exist")
    rows = []
    try:
        for n, row in labelled_rows(path):
            row = dict(row)
            row.setdefault("domain", "HP")  # resolve_row wants a label; it is not used here
            rows.append(resolved(resolve_row, row, Path(args.data), f"{path}:{n}"))
    except LabelError as exc:
        raise CdtpError(str(exc)) from None
    clf = _classifier(args)
    for item, res in zip(rows, clf.classify_batch(rows)):
        print(json.dumps({"entity": item["entity"], "domain": res.domain, "confidence": res.confidence,
                          "evidence": res.evidence}, ensure_ascii=False))
    sys.stdout.flush()
    return 0
