"""`cdtp review export` / `cdtp review import`: the annotators' relation review.

Round trip (paper §3.2: double annotation, > 90% agreement per relation):

    cdtp review export --shards out/build --out review/ --per-relation 50 --seed 0
        # review/A/<relation>.csv and review/B/<relation>.csv: identical sheets,
        # one folder per annotator; review/manifest.json lists relation -> file
    (annotator A fills review/A, annotator B fills review/B: decision = accept|reject)
    cdtp review import review/A review/B --out decisions.json
        # per relation: n, agreement, Cohen's kappa, decision; disagreements
        # on stdout and in decisions.disagreements.csv
    cdtp build ... --relation-review decisions.json

Two folders rather than one sheet to copy: each annotator gets a private copy
that cannot be overwritten by the other, and `import` pairs them by item_id.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from pipeline.errors import CdtpError

ANNOTATOR_FOLDERS = ("A", "B")
PAIR_COLUMNS = ["pair_id", "entity", "text", "triples"]


def register(subparsers) -> None:
    review = subparsers.add_parser(
        "review",
        help="relation review: export sheets for two annotators, import their decisions",
        description="Relation review workflow (double annotation, agreement and Cohen's kappa per relation).",
    )
    sub = review.add_subparsers(dest="review_command", metavar="SUBCOMMAND")

    exp = sub.add_parser(
        "export",
        help="write one CSV review sheet per relation type, for two annotators",
        description="Sample N pairs per relation type from a build's pairs Parquet and write identical "
        "sheets to OUT/A and OUT/B (one per annotator), plus OUT/manifest.json.",
    )
    exp.add_argument("--shards", required=True, metavar="DIR",
                     help="a `cdtp build` output folder (reads DIR/pairs/**/*.parquet), a pairs folder or one Parquet file")
    exp.add_argument("--out", required=True, metavar="DIR", help="folder for the sheets")
    exp.add_argument("--per-relation", type=int, default=50, metavar="N", help="pairs sampled per relation (default 50)")
    exp.add_argument("--seed", type=int, default=0, help="sampling seed (default 0); same build + seed = same sheets")
    exp.add_argument("--force", action="store_true", help="overwrite existing sheets in OUT (filled sheets are lost)")
    exp.set_defaults(handler=run_export)

    imp = sub.add_parser(
        "import",
        help="agreement, Cohen's kappa and relation decisions from two annotators' sheets",
        description="Paths come in pairs, annotator A first: A.csv B.csv [A2.csv B2.csv ...], or the folders "
        "OUT/A OUT/B written by `review export`. Items are matched by item_id.",
    )
    imp.add_argument("paths", nargs="+", metavar="SHEET", help="annotator A's then annotator B's sheet or folder, repeated")
    imp.add_argument("--out", required=True, metavar="DECISIONS.json", help="relation decision file to write")
    imp.add_argument("--disagreements", metavar="CSV",
                     help="where to list disagreements (default: DECISIONS.disagreements.csv beside --out)")
    imp.add_argument("--min-agreement", type=float, default=0.9, help="agreement needed to accept a relation (default 0.9)")
    imp.add_argument("--min-accept-share", type=float, default=0.5,
                     help="share of items both annotators must accept (default 0.5: a majority)")
    imp.add_argument("--skip-undecided", action="store_true",
                     help="leave out items with a blank decision instead of failing")
    imp.add_argument("--allow-unmatched", action="store_true",
                     help="leave out items only one annotator labelled instead of failing")
    imp.set_defaults(handler=run_import)

    review.set_defaults(handler=lambda args: (review.print_help(), 2)[1])


# ------------------------------------------------------------------ export

def pair_files(shards: str) -> list[Path]:
    """The pairs Parquet files of a build folder, a pairs folder or one file."""
    p = Path(shards)
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise CdtpError(f"--shards {shards}: no such file or folder")
    base = p / "pairs" if (p / "pairs").is_dir() else p
    found = sorted(base.rglob("*.parquet"))
    odd = [f for f in found if not f.is_file()]
    if odd:  # a folder named like a shard was skipped unseen
        raise CdtpError(f"--shards {shards}: {odd[0]} is not a Parquet file")
    if not found:
        raise CdtpError(f"--shards {shards}: no Parquet files under {base} (expected DIR/pairs/**/*.parquet)")
    if base != p:  # a build folder: all of its pairs, as the build wrote them
        from pipeline.query import count_problem, recorded_counts

        problem = count_problem("pairs", [str(f) for f in found], recorded_counts(str(p)))
        if problem:
            raise CdtpError(f"--shards {shards}: {problem}")
    return found


def iter_pairs(files: list[Path]):
    import pyarrow.parquet as pq

    for f in files:
        try:
            pf = pq.ParquetFile(f)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for bad files
            raise CdtpError(f"{f}: not a readable Parquet file ({exc})") from None
        names = set(pf.schema_arrow.names)
        missing = [c for c in PAIR_COLUMNS if c not in names]
        if missing:
            raise CdtpError(f"{f}: not a pairs file, missing column(s) {', '.join(missing)}")
        for batch in pf.iter_batches(columns=PAIR_COLUMNS, batch_size=4096):
            yield from batch.to_pylist()


def run_export(args: argparse.Namespace) -> int:
    from transforms.review_sheets import ReviewError, SheetSampler, sheet_filenames, write_sheet

    if args.per_relation <= 0:
        raise CdtpError(f"--per-relation must be positive, got {args.per_relation}")
    files = pair_files(args.shards)
    out = Path(args.out)
    existing = [f for d in ANNOTATOR_FOLDERS for f in (out / d).glob("*.csv")]
    if existing and not args.force:
        raise CdtpError(
            f"{out} already holds {len(existing)} sheet(s) (e.g. {existing[0]}); they may be filled in. "
            "Choose another --out or pass --force to overwrite."
        )
    sampler = SheetSampler(args.per_relation, args.seed)
    n_pairs = 0
    try:
        for pair in iter_pairs(files):
            if not pair.get("pair_id"):
                raise CdtpError("a pairs row has no pair_id; is this a `cdtp build` output?")
            sampler.add_pair(pair)
            n_pairs += 1
    except ReviewError as exc:
        raise CdtpError(str(exc)) from None
    sheets = sampler.sheets()
    if not sheets:
        raise CdtpError(f"no triple with a relation in {n_pairs} pair(s) from {args.shards}: nothing to review")
    names = sheet_filenames(sheets)
    for folder in ANNOTATOR_FOLDERS:
        for f in (out / folder).glob("*.csv"):
            f.unlink()  # --force: stale sheets of relations that no longer exist would be imported
        for rel, rows in sheets.items():
            write_sheet(out / folder / names[rel], rows)
    manifest = {
        "format": "cdtp.review_sheets",
        "version": 1,
        "shards": str(args.shards),
        "pairs_read": n_pairs,
        "per_relation": args.per_relation,
        "seed": args.seed,
        "annotator_folders": list(ANNOTATOR_FOLDERS),
        "relations": {
            rel: {"file": names[rel], "items": len(rows), "pairs_with_relation": sampler.pairs_with_relation[rel]}
            for rel, rows in sheets.items()
        },
        "instructions": "Fill `decision` with accept or reject (is this triple a correct instance of the "
        "relation, stated by the text?), `annotator` with your name and `note` if useful. Annotator A works "
        "in A/, annotator B in B/, independently. Then: cdtp review import A B --out decisions.json",
    }
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    items = sum(len(r) for r in sheets.values())
    print(f"read {n_pairs} pairs from {len(files)} file(s); wrote {len(sheets)} relation sheets "
          f"({items} items) to {out / 'A'} and {out / 'B'}; manifest {out / 'manifest.json'}")
    return 0


# ------------------------------------------------------------------ import

def sheet_paths(path: str) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.glob("*.csv") if f.is_file())
        if not files:
            raise CdtpError(f"{p}: folder holds no .csv sheet")
        return files
    if p.is_file():
        return [p]
    raise CdtpError(f"{p}: no such sheet or folder")


def run_import(args: argparse.Namespace) -> int:
    from transforms.review import ReviewRules, compare
    from transforms.review_sheets import ReviewError, read_sheet

    if len(args.paths) % 2:
        raise CdtpError(
            f"import takes paths in pairs (annotator A, then annotator B); got {len(args.paths)}: {args.paths}"
        )
    try:
        rules = ReviewRules(args.min_agreement, args.min_accept_share)
    except ValueError as exc:
        raise CdtpError(str(exc)) from None
    a_labels, b_labels, undecided = [], [], 0
    try:
        for i in range(0, len(args.paths), 2):
            for who, path, dest in (("A", args.paths[i], a_labels), ("B", args.paths[i + 1], b_labels)):
                for f in sheet_paths(path):
                    labels, skipped = read_sheet(f, skip_undecided=args.skip_undecided)
                    dest.extend(labels)
                    undecided += len(skipped)
        result = compare(a_labels, b_labels, rules)
    except ReviewError as exc:
        raise CdtpError(str(exc)) from None
    if result.unmatched and not args.allow_unmatched:
        shown = "; ".join(f"{u['item_id']} only in {u['only_in']} ({u['where']})" for u in result.unmatched[:5])
        raise CdtpError(
            f"{len(result.unmatched)} item(s) were labelled by one annotator only: {shown}"
            f"{' ...' if len(result.unmatched) > 5 else ''}; pass --allow-unmatched to leave them out"
        )
    if not result.relations:
        raise CdtpError("no item was labelled by both annotators: nothing to decide")

    out = Path(args.out)
    dis_path = Path(args.disagreements) if args.disagreements else out.with_name(out.stem + ".disagreements.csv")
    for path in (out, dis_path):  # both or neither: decisions without their disagreements would look complete
        if path.is_dir():
            raise CdtpError(f"{path} is a folder; give a file name")
    out.parent.mkdir(parents=True, exist_ok=True)
    decision = result.decision_file(rules, args.paths)
    decision["left_out"] = {"undecided": undecided, "unmatched": len(result.unmatched)}
    out.write_text(json.dumps(decision, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    dis_path.parent.mkdir(parents=True, exist_ok=True)
    cols = ["item_id", "relation", "a_decision", "b_decision", "a_annotator", "b_annotator", "a_where", "b_where"]
    with open(dis_path, "w", encoding="utf-8-sig", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        w.writerows(result.disagreements)

    _print_summary(result, out, dis_path, undecided, sys.stdout)
    return 0


def _display_width(text: str) -> int:
    """Terminal columns: CJK characters take two, so the table stays aligned."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _print_summary(result, out: Path, dis_path: Path, undecided: int, fh) -> None:
    rels = result.relations
    width = max(8, *(_display_width(r) for r in rels))
    print(f"{'relation':<{width}}  {'n':>5}  {'agree':>6}  {'kappa':>7}  decision", file=fh)
    for rel, r in rels.items():
        kappa = f"{r['kappa']:.3f}" + ("*" if r["kappa_degenerate"] else " ")
        pad = " " * (width - _display_width(rel))
        print(f"{rel}{pad}  {r['n']:>5}  {r['agreement']:>6.3f}  {kappa:>7}  {r['decision']} ({r['reason']})", file=fh)
    if any(r["kappa_degenerate"] for r in rels.values()):
        print("* kappa undefined (both annotators used one label for every item); reported as 1.0", file=fh)
    accepted = sum(1 for r in rels.values() if r["decision"] == "accepted")
    print(f"\n{accepted} of {len(rels)} relations accepted; decision file {out}", file=fh)
    if undecided or result.unmatched:
        print(f"left out: {undecided} undecided item(s), {len(result.unmatched)} item(s) labelled by one annotator",
              file=fh)
    print(f"{len(result.disagreements)} disagreement(s), listed in {dis_path}", file=fh)
    for d in result.disagreements[:50]:
        print(f"  {d['item_id']}  {d['relation']}  A={d['a_decision']}  B={d['b_decision']}", file=fh)
    if len(result.disagreements) > 50:
        print(f"  ... {len(result.disagreements) - 50} more in {dis_path}", file=fh)
