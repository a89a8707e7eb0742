"""`cdtp align eval`: score the redundant-triple filter on a labelled alignment set.

Reads a labelled JSONL in the format of docs/alignment.md (locator rows: the
pages are rebuilt from the data folder, or for rows of source `raw` read from
`--entries`, a crawl's RawEntry JSON Lines; no text is stored), runs the
redundant-triple stage on every labelled page with the effective build
configuration (`--config`, `--set cleaning.align.dates=false`, as for
`cdtp build`) and prints span precision, recall and false keeps for all
rows and for each part (tune, heldout), optionally per source and KdConv
domain, with the errors to read. Heavy imports happen inside the handler.
"""
from __future__ import annotations

from pathlib import Path

from pipeline.errors import CdtpError
from transforms.corpora import DEFAULT_DATA_DIR


def register(subparsers) -> None:
    parser = subparsers.add_parser("align", help="alignment: score the redundant-triple filter on a labelled set")
    sub = parser.add_subparsers(dest="align_command", metavar="SUBCOMMAND")
    ev = sub.add_parser("eval", help="span precision, recall and false keeps on a labelled alignment JSONL")
    ev.add_argument("--labels", required=True, help="labelled JSONL (docs/alignment.md), e.g. tests/data/alignment_labels.jsonl")
    ev.add_argument("--data", default=str(DEFAULT_DATA_DIR), help="data folder the pages are rebuilt from (default ../shared/data)")
    ev.add_argument("--entries", metavar="GLOB",
                    help="RawEntry JSON Lines (e.g. a crawl's raw-*.jsonl) holding the pages of rows of source `raw`")
    ev.add_argument("--by-group", action="store_true", help="also report each part per source and KdConv domain")
    ev.add_argument("--errors", action="store_true", help="list the false keeps, wrong spans and missed triples")
    ev.add_argument("--json", action="store_true", help="print the report as JSON")
    ev.add_argument("--config", metavar="FILE.json", help="BuildConfig as JSON, as `cdtp build --config`")
    ev.add_argument("--set", action="append", default=[], metavar="SECTION.FIELD=JSON",
                    help="override one field, as `cdtp build --set` (e.g. cleaning.align.roles=false)")
    ev.set_defaults(handler=_eval)
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])


def _read(path: Path) -> tuple[list[dict], list[int]]:
    """The label rows of `path`, each checked, and the line of each; a bad
    file is a clear error naming its line."""
    from transforms.align_labels import LABEL_SOURCES, label_key
    from transforms.safejson import iter_jsonl

    if not path.is_file():
        raise CdtpError(f"labels file {path} does not exist")
    rows, lines = [], []
    verdicts: dict[tuple, tuple[int, bool]] = {}
    try:
        for n, r in iter_jsonl(str(path)):
            if not isinstance(r, dict):
                raise CdtpError(f"{path}, line {n}: not a label row (a JSON object is expected)")
            # A set labelled elsewhere may not split tune from held out: all of it is held out.
            r.setdefault("part", "heldout")
            missing = [k for k in ("source", "page", "relation", "stated") if k not in r]
            if missing or ("tail" not in r and "tail_key" not in r):
                raise CdtpError(f"{path}, line {n}: not a label row (missing {missing or ['tail or tail_key']})")
            wrong = [k for k in ("source", "page", "relation", "part", "tail", "tail_key")
                     if k in r and not (isinstance(r[k], str) and r[k])]
            if wrong:
                raise CdtpError(f"{path}, line {n}: {', '.join(wrong)} must be a non-empty string")
            if not isinstance(r["stated"], bool):
                # "yes" or 0 would be read as a verdict the labeller never gave
                raise CdtpError(f"{path}, line {n}: `stated` must be true or false, not {r['stated']!r}")
            if not _spans_ok(r.get("spans", [])) or (r["stated"] and not r.get("spans")):
                raise CdtpError(f"{path}, line {n}: `spans` must list the [start, end) of each mention of a stated value")
            if r["source"] not in LABEL_SOURCES:
                raise CdtpError(f"{path}, line {n}: unknown source {r['source']!r} (one of {', '.join(LABEL_SOURCES)})")
            # One triple, one verdict: a second row that says otherwise would
            # silently replace the first in the scores.
            key = (r["source"], r["page"], r["relation"], label_key(r))
            first = verdicts.setdefault(key, (n, r["stated"]))
            if first[1] != r["stated"]:
                raise CdtpError(f"{path}, line {n}: this triple is labelled {r['stated']} here and "
                                f"{first[1]} on line {first[0]}")
            rows.append(r)
            lines.append(n)
    except ValueError as exc:  # not JSON, not UTF-8, or nested too deeply
        raise CdtpError(f"labels file {path} is not JSON Lines: {exc}") from None
    except OSError as exc:
        raise CdtpError(f"cannot read the labels file {path}: {exc}") from None
    if not rows:
        raise CdtpError(f"labels file {path} holds no label row: there is nothing to score")
    return rows, lines


def _spans_ok(spans) -> bool:
    """Each span a [start, end) pair of character offsets with start < end."""
    return isinstance(spans, list) and all(
        isinstance(x, list) and len(x) == 2 and all(type(i) is int for i in x) and 0 <= x[0] < x[1]
        for x in spans)


def _read_entries(pattern: str) -> list[dict]:
    """The RawEntry records of every file the glob names (blank lines skipped;
    any other line that is not a JSON object is an error naming it)."""
    import glob

    from transforms.safejson import iter_jsonl

    paths = sorted(glob.glob(pattern))
    if not paths:
        raise CdtpError(f"--entries {pattern!r} names no file")
    entries = []
    try:
        for path in paths:
            for n, obj in iter_jsonl(path):
                if not isinstance(obj, dict):
                    raise CdtpError(f"--entries: {path}, line {n}: not a RawEntry (a JSON object is expected)")
                entries.append(obj)
    except ValueError as exc:  # the message names the file and the line
        raise CdtpError(f"--entries: {exc}") from None
    except OSError as exc:
        raise CdtpError(f"--entries: cannot read {exc.filename}: {exc.strerror}") from None
    return entries


def _eval(args) -> int:
    from pipeline.config import load_config
    from pipeline.domain_commands import print_json_report
    from transforms.align_labels import format_line, labelled_entries, score_report, span_problems

    labels, lines = _read(Path(args.labels))
    cfg = load_config(args.config, None, args.set)
    data = Path(args.data)
    if not data.is_dir() and any(r["source"] != "raw" for r in labels):
        raise CdtpError(f"data folder {data} does not exist (the labelled pages are rebuilt from it)")
    if not args.entries and any(r["source"] == "raw" for r in labels):
        raise CdtpError("rows of source `raw` label pages of one's own crawl: give them with --entries GLOB")
    raw_entries = _read_entries(args.entries) if args.entries else ()
    try:
        entries = labelled_entries(data, labels, raw_entries)
    except (ValueError, OSError) as exc:
        raise CdtpError(f"cannot rebuild the labelled pages: {exc}") from None
    problems = span_problems(labels, entries)
    if problems:
        # scored anyway, the figures would count right keeps as false ones
        shown = "; ".join(f"line {lines[i]}: {why}" for i, why in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise CdtpError(f"{args.labels}: spans that are no offsets into the pages' texts as rebuilt: {shown}{more}")
    report = score_report(labels, entries, cfg.cleaning, by_group=args.by_group)
    if args.json:
        return print_json_report(report, args.errors)
    for name, r in report.items():
        print(format_line(name, r))
    if args.errors:
        for kind, rows in report["all"]["errors"].items():
            print(f"\n{kind} ({len(rows)}):")
            for row in rows:
                print("  " + " | ".join(map(str, row)))
    return 0
