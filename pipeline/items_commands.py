"""`cdtp items distractors`: how many wrong answers are really wrong, on a labelled set.

The labelled distractor set (docs/distractor_labels.md) names QA items of
three builds of the corpora in ../shared/data. This command rebuilds each
build the set names, from the data folder, with the options it was labelled
on and the effective items configuration (`--set items.<field>=JSON`, as for
`cdtp build`), then scores the build's QA items with the labels: the share
of labelled distractors that are right answers, and of items with one. Heavy
imports happen inside the handler.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.errors import CdtpError
from transforms.corpora import DEFAULT_DATA_DIR, data_folder_entries


# The builds a label row may name: the data folder's corpora they are made of
# (transforms.corpora.DATA_FOLDER_CORPORA, in this order) and their build options.
BUILDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "kdconv": (("kdconv",), ("--position-index", "0")),
    "duie": (("duie", "duie-line"), ("--min-relation-count", "2", "--position-index", "0")),
    "plants": (("plant", "kdconv-travel"), ()),
}


def register(subparsers) -> None:
    parser = subparsers.add_parser("items", help="benchmark items: score their distractors on a labelled set")
    sub = parser.add_subparsers(dest="items_command", metavar="SUBCOMMAND")
    ev = sub.add_parser("distractors", help="rebuild the labelled builds and score their QA items' distractors")
    ev.add_argument("--labels", required=True,
                    help="labelled JSONL (docs/distractor_labels.md), e.g. tests/data/distractor_labels.jsonl")
    ev.add_argument("--data", default=str(DEFAULT_DATA_DIR), help="data folder the builds are made from (default ../shared/data)")
    ev.add_argument("--work", required=True, help="folder for the builds' inputs and outputs")
    ev.add_argument("--build", action="append", choices=sorted(BUILDS), default=[],
                    help="only this build (repeatable; default: every build the labels name)")
    ev.add_argument("--by-relation", action="store_true", help="also report each part per relation")
    ev.add_argument("--json", action="store_true", help="print the report as JSON")
    ev.add_argument("--set", action="append", default=[], metavar="SECTION.FIELD=JSON",
                    help="override one field of the builds, as `cdtp build --set` (e.g. items.skip_open_relations=false)")
    ev.set_defaults(handler=_distractors)
    parser.set_defaults(handler=lambda args: (parser.print_help(), 2)[1])


def rebuild_and_score(labels_path: str, data: Path, work: Path, builds: list[str] | None = None,
                      sets: list[str] = (), by: tuple[str, ...] = ("part", "round", "build")) -> dict[str, dict[str, Any]]:
    """Build each labelled build into `work`/<build> and score its QA items
    (distractor_labels.score), grouped by each of `by` in turn."""
    from pipeline.cli import main
    from pipeline.config import load_config
    from pipeline.output_check import refuse_out_in_build
    from pipeline.query import connect
    from transforms.items.distractor_labels import load_labels, score

    # Checked before any build starts: each build would only repeat the error
    # and then be reported as failed; and a work folder in a build would put
    # these builds among its shards.
    load_config(None, None, list(sets))
    refuse_out_in_build(str(work), "--work")
    try:
        labels = load_labels(labels_path)
    except ValueError as exc:  # names the file and the line
        raise CdtpError(str(exc)) from None
    except OSError as exc:
        raise CdtpError(f"cannot read the labels file {labels_path}: {exc.strerror}") from None
    unknown = sorted({r["build"] for r in labels} - set(BUILDS))
    if unknown:
        raise CdtpError(f"labels file {labels_path} names unknown builds {unknown} (known: {', '.join(BUILDS)})")
    wanted = builds or sorted({r["build"] for r in labels})
    if not data.is_dir():
        raise CdtpError(f"data folder {data} does not exist (the labelled builds are made from it)")
    items: list[dict] = []
    for name in wanted:
        corpora, options = BUILDS[name]
        raw, out = work / name / "raw-00000.jsonl", work / name / "out"
        raw.parent.mkdir(parents=True, exist_ok=True)
        with raw.open("w", encoding="utf-8") as fh:  # the entries in their order: the labelled item ids follow
            fh.writelines(json.dumps(e, ensure_ascii=False) + "\n" for e in data_folder_entries(data, *corpora))
        set_args = [a for s in sets for a in ("--set", s)]
        if main(["build", "--input", str(raw), "--out", str(out), "--overwrite", *options, *set_args]) != 0:
            raise CdtpError(f"the {name} build failed")
        con = connect(str(out))
        cur = con.execute("SELECT item_id, task, options, answer_index FROM items WHERE task = 'qa'")
        items += [dict(zip(("item_id", "task", "options", "answer_index"), r)) for r in cur.fetchall()]
    labels = [r for r in labels if r["build"] in wanted]
    return {name: r for group in by for name, r in score(labels, items, group).items()}


def _distractors(args) -> int:
    by = ("part", "round", "build") + (("relation",) if args.by_relation else ())
    report = rebuild_and_score(args.labels, Path(args.data), Path(args.work), args.build, args.set, by)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    for name, r in report.items():
        print(f"{name:24s} items {r['items']:4d}  with a right answer among the wrong {r['ambiguous_items']:.3f}  "
              f"distractors {r['distractors_labelled']:4d} right {r['false_distractor_rate']:.3f} "
              f"unsure {r['unsure'] / r['distractors_labelled'] if r['distractors_labelled'] else 0:.3f}"
              + (f"  not asked {r['not_asked']}" if r["not_asked"] else "")
              + (f"  (unlabelled {r['unlabelled']})" if r["unlabelled"] else ""))
    return 0
