"""`cdtp types eval`: score entity typing against a labelled set.

Reads a labelled JSONL (locator rows rebuilt from the data folder, or
self-contained rows; see transforms/entity_type_labels.py and
docs/entity_types.md) and prints accuracy, per-type precision/recall, the
confusion matrix and the share typed `other`, for all rows and, with
--held-out, for the held-out part and the rest. Heavy imports happen inside
the handler.
"""
from __future__ import annotations

from pipeline.errors import CdtpError
from transforms.corpora import DEFAULT_DATA_DIR


def register(subparsers) -> None:
    parser = subparsers.add_parser("types", help="entity typing: evaluate against a labelled set")
    sub = parser.add_subparsers(dest="types_command", metavar="SUBCOMMAND")
    ev = sub.add_parser("eval", help="accuracy, per-type P/R, confusion matrix and share of `other` on a labelled JSONL")
    ev.add_argument("--labels", required=True, help="labelled JSONL (locator rows or self-contained rows)")
    ev.add_argument("--held-out", default="",
                    help="comma-separated source prefixes or row sets (e.g. held_out) reported separately")
    ev.add_argument("--errors", action="store_true", help="list mistyped entities with the signal that decided")
    ev.add_argument("--json", action="store_true", help="print the report as JSON")
    ev.add_argument("--data", default=str(DEFAULT_DATA_DIR), help="data folder for locator rows (default ../shared/data)")
    ev.set_defaults(handler=_eval)
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])


def _eval(args) -> int:
    from pipeline.domain_commands import print_json_report, read_labels
    from transforms.entity_type_labels import evaluate, format_report, load_labels, split_by_source

    items = read_labels(load_labels, args.labels, args.data)
    held = [h.strip() for h in args.held_out.split(",") if h.strip()]
    reports = {"all": evaluate(items)}
    if held:
        tune, test = split_by_source(items, held)
        if not test:
            raise CdtpError(f"--held-out {args.held_out!r} matches no labelled row (use source prefixes or row sets)")
        reports["held_out"] = evaluate(test)
        if tune:
            reports["other_rows"] = evaluate(tune)
    if args.json:
        return print_json_report(reports, args.errors)
    for name, rep in reports.items():
        if name != "all":
            print(f"\n== {name}" + (f" ({', '.join(held)})" if name == "held_out" else ""))
        print(format_report(rep))
    if args.errors:
        print("\nmistyped:")
        for e in reports["all"]["errors"]:
            print(f"  gold={e['gold']} pred={e['pred']} {e['entity']} [{e['source']}] {e['reason']}")
    return 0
