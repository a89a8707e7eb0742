"""`cdtp leaderboard`: CUGE multi-level scores from the evaluation results table.

Reads the results table that `cdtp eval` appends to (RESULT_SCHEMA rows, one
Parquet file or a folder of them), prints the ranked table, and writes it as
Markdown, CSV and Parquet (`leaderboard.parquet`, which `cdtp query OUT`
shows as the `leaderboard` view), with the plots:
bars per dataset, a radar per capability, and, when open-ended judged results
are present (task `qa_open`), the closed/open scatter with its correlations.
The logic is in evaluation/leaderboard.py; this module only does I/O.
"""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from pipeline.errors import CdtpError

LEADERBOARD_FILE = "leaderboard.parquet"


def register(subparsers) -> None:
    p = subparsers.add_parser("leaderboard", help="CUGE multi-level leaderboard from evaluation results")
    p.add_argument("--results", default="results", help="results table: a Parquet file or a folder of them "
                                                         "(default: ./results, where cdtp eval appends)")
    p.add_argument("--tasks", default="", help="comma-separated tasks (default: all in the hierarchy)")
    p.add_argument("--domains", default="", help="comma-separated domains, e.g. HP,NE (default: all)")
    p.add_argument("--split", default="eval", help="split of the items scored (default eval)")
    p.add_argument("--weights", default=None, help="hierarchy/weights JSON (default: evaluation/resources/"
                                                   "leaderboard.json)")
    p.add_argument("--baseline", default=None, help="model whose score is 100 on every dataset "
                                                    "(default: each task's baseline in the weights file)")
    p.add_argument("--out", required=True, help="folder for leaderboard.md/.csv/.parquet and the plots")
    p.add_argument("--no-plots", action="store_true", help="tables only")
    p.add_argument("--runs", nargs="*", default=[], metavar="DIR",
                   help="cdtp eval run folders (predictions.parquet): paired bootstrap p-values between models "
                        "on the same items, per dataset")
    p.set_defaults(handler=_run)
    register_judge(subparsers)
    register_ood(subparsers)


def _csv_list(value: str) -> list[str] | None:
    items = [v.strip() for v in value.split(",") if v.strip()]
    return items or None


def read_results(path: str) -> list[dict]:
    """All rows of the results table at `path` (file or folder), or a clear error."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    import pyarrow.parquet as pq

    if not os.path.exists(path):
        raise CdtpError(f"no results table at {path}: run `cdtp eval ... --results {path}` first")
    needed = {"model", "task", "domain", "split", "dataset", "metric", "value"}
    # the files the dataset reads: hidden (`.`, `_`) ones are skipped, as pyarrow does
    files = sorted(str(f) for f in Path(path).rglob("*") if f.is_file() and not f.name.startswith((".", "_"))
                   ) if os.path.isdir(path) else [path]
    for f in files:  # the dataset takes its schema from one file: another file's would be read as nulls
        try:
            missing = needed - set(pq.read_schema(f).names)
        except (pa.ArrowInvalid, OSError) as exc:
            raise CdtpError(f"results table {path}: {f} is not readable Parquet: {exc}") from None
        if missing:
            raise CdtpError(f"results table {path}: {f} lacks column(s) {sorted(missing)}")
    try:
        table = ds.dataset(path, format="parquet", exclude_invalid_files=False).to_table()
    except (pa.ArrowInvalid, OSError) as exc:
        raise CdtpError(f"results table {path} is not readable Parquet: {exc}") from None
    return table.to_pylist()


def _write_tables(out: str, board, hierarchy) -> list[str]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from evaluation.leaderboard import leaderboard_rows, markdown_table

    rows = leaderboard_rows(board, hierarchy)
    md = os.path.join(out, "leaderboard.md")
    with open(md, "w", encoding="utf-8") as fh:
        fh.write(markdown_table(board, hierarchy))
    path_csv = os.path.join(out, "leaderboard.csv")
    with open(path_csv, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["rank", "model", "level", "name", "score", "raw"])
        w.writeheader()
        w.writerows(rows)
    schema = pa.schema([("rank", pa.int32()), ("model", pa.string()), ("level", pa.string()),
                        ("name", pa.string()), ("score", pa.float64()), ("raw", pa.float64())])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), os.path.join(out, LEADERBOARD_FILE))
    return [md, path_csv, os.path.join(out, LEADERBOARD_FILE)]


def _write_plots(out: str, board, hierarchy, rows: list[dict]) -> list[str]:
    from evaluation import plots
    from evaluation.significance import pearson, spearman

    models = board.ranked()
    written = [plots.bars(os.path.join(out, "scores_by_dataset.png"), models, board.datasets, board.dataset_scores)]
    caps = [(c.name, c.label) for c in hierarchy.capabilities
            if any(c.name in board.capability_scores[m] for m in models)]
    if len(caps) >= 3:
        written.append(plots.radar(os.path.join(out, "capabilities_radar.png"), models, caps,
                                   board.capability_scores))
    points = closed_open_points(rows)
    if len(points) >= 2:
        xs, ys = zip(*points.values())
        written.append(plots.closed_open_scatter(os.path.join(out, "closed_vs_open.png"), points,
                                                 spearman(xs, ys), pearson(xs, ys)))
    return written


def per_item_scores(run_dirs: list[str], hierarchy) -> dict[str, dict[str, dict[str, float]]]:
    """dataset -> model -> {item_id: the task metric's per-item score}, from eval run folders."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from evaluation.results import TASK_LABEL

    out: dict[str, dict[str, dict[str, float]]] = {}
    for run in run_dirs:
        try:
            with open(os.path.join(run, "results.json"), encoding="utf-8") as fh:
                doc = json.load(fh)
            model = doc["model"] if isinstance(doc, dict) else None
            if not isinstance(model, str):
                raise ValueError("results.json names no model")
            rows = pq.read_table(os.path.join(run, "predictions.parquet"),
                                 columns=["item_id", "task", "domain", "rotation", "scores"]).to_pylist()
        except (OSError, ValueError, KeyError, pa.ArrowInvalid) as exc:
            raise CdtpError(f"{run}: not a readable cdtp eval run folder (results.json, predictions.parquet): "
                            f"{exc}") from None
        for r in rows:
            spec = hierarchy.task(r["task"])
            if spec is None or (r["rotation"] or 0) != 0:
                continue
            scores = dict(r["scores"] or [])
            if spec.metric not in scores:
                continue
            dataset = f"CDTP_{r['domain']}_{TASK_LABEL.get(r['task'], r['task'].upper())}"
            out.setdefault(dataset, {}).setdefault(model, {})[r["item_id"]] = float(scores[spec.metric])
    return out


def _significance(run_dirs: list[str], hierarchy, board) -> list[dict]:
    from evaluation.significance import pairwise_pvalues

    rows = []
    for dataset, per_model in sorted(per_item_scores(run_dirs, hierarchy).items()):
        for r in pairwise_pvalues(per_model):
            rows.append({"dataset": dataset, **r})
    return rows


def closed_open_points(rows: list[dict]) -> dict[str, tuple[float, float]]:
    """Per model: (closed QA hits@1 over all domains, open-ended judged score)."""
    closed: dict[str, list[float]] = {}
    opened: dict[str, float] = {}
    for r in rows:
        if r.get("split") not in (None, "eval") or r.get("value") is None:
            continue
        if r["task"] == "qa" and r["metric"] == "hits@1":
            closed.setdefault(r["model"], []).append(float(r["value"]))
        elif r["task"] == "qa_open" and r["metric"] == "judge_score":
            opened[r["model"]] = float(r["value"])
    return {m: (sum(v) / len(v), opened[m]) for m, v in closed.items() if m in opened}


def _run(args) -> int:
    from evaluation.leaderboard import HierarchyError, build_leaderboard, load_hierarchy, markdown_table
    from evaluation.plots import PlotError
    from pipeline.output_check import refuse_out_in_build

    # in a build, only BUILD/leaderboard/: there `cdtp query BUILD` reads the table as its
    # leaderboard view; in pairs/ or items/ it would be read as the build's shards
    refuse_out_in_build(args.out, place="leaderboard")
    try:
        hierarchy = load_hierarchy(args.weights)
    except HierarchyError as exc:
        raise CdtpError(str(exc)) from None
    rows = read_results(args.results)
    # a name the results do not hold would be silently left out (or, as the
    # baseline, turn every score into "—"): say which, and what there is
    for flag, wanted, present in (
            ("--tasks", _csv_list(args.tasks), {t.task for c in hierarchy.capabilities for t in c.tasks}),
            ("--domains", _csv_list(args.domains), {r["domain"] for r in rows}),
            ("--baseline", [args.baseline] if args.baseline and args.baseline != "chance" else [],
             {r["model"] for r in rows})):
        unknown = sorted(set(wanted or ()) - present)
        if unknown:
            where = "the hierarchy" if flag == "--tasks" else args.results
            raise CdtpError(f"{flag}: {', '.join(unknown)} not in {where} (there: {', '.join(sorted(map(str, present)))})")
    board = build_leaderboard(rows, hierarchy, baseline=args.baseline, tasks=_csv_list(args.tasks),
                              domains=_csv_list(args.domains), split=args.split)
    if not board.models:
        raise CdtpError(f"no scores in {args.results} for the hierarchy's metrics "
                        f"({', '.join(t.metric for c in hierarchy.capabilities for t in c.tasks)}) on split "
                        f"{args.split}")
    os.makedirs(args.out, exist_ok=True)
    print(markdown_table(board, hierarchy), end="")
    written = _write_tables(args.out, board, hierarchy)
    if not args.no_plots:
        try:
            written += _write_plots(args.out, board, hierarchy, rows)
        except PlotError as exc:
            raise CdtpError(str(exc)) from None
    significance = _significance(args.runs, hierarchy, board) if args.runs else []
    if significance:
        path = os.path.join(args.out, "significance.csv")
        with open(path, "w", encoding="utf-8", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(significance[0]))
            w.writeheader()
            w.writerows(significance)
        written.append(path)
        from evaluation.significance import MIN_PAIRED_ITEMS

        tested = [s for s in significance if s["p_value"] is not None]
        real = [s for s in tested if s["p_value"] < 0.05]
        few = len(significance) - len(tested)
        print(f"\nsignificance: {len(real)} of {len(tested)} tested model pairs differ at p < 0.05 "
              f"(paired bootstrap, per dataset; {path})"
              + (f"; {few} pair(s) not tested: too few items (fewer than {MIN_PAIRED_ITEMS} paired)" if few else ""))
    with open(os.path.join(args.out, "leaderboard.json"), "w", encoding="utf-8") as fh:
        json.dump({"overall": board.overall, "capabilities": board.capability_scores, "tasks": board.task_scores,
                   "datasets": board.dataset_scores, "raw": board.raw, "notes": board.notes,
                   "significance": significance}, fh,
                  ensure_ascii=False, indent=1, sort_keys=True)
    print(f"\nwrote {len(written) + 1} files to {args.out}")
    return 0


# ------------------------------------------------------------------ cdtp judge
JUDGED_SCHEMA_FIELDS = ("item_id", "domain", "question", "gold", "candidate", "reference", "verdict_first",
                        "verdict_swapped", "outcome", "raw_first", "raw_swapped")


def register_judge(subparsers) -> None:
    p = subparsers.add_parser("judge", help="open-ended QA judged against a reference model (SuperCLUE style)")
    p.add_argument("--items", required=True, metavar="DIR", help="build folder with items/, or an items folder")
    p.add_argument("--model", required=True, metavar="SPEC", help="the candidate model")
    p.add_argument("--reference", required=True, metavar="SPEC", help="the reference model it is compared with")
    p.add_argument("--judge", required=True, metavar="SPEC", help="the judge (any OpenAI-compatible model spec)")
    p.add_argument("--domains", default="", help="comma-separated domains (default: all)")
    p.add_argument("--split", default="eval")
    p.add_argument("--subset", action="store_true", help="only the stratified subset's items")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="at most N QA items per domain")
    p.add_argument("--out", required=True, metavar="DIR", help="judged.parquet and report.json go here")
    p.add_argument("--results", metavar="DIR", default=None,
                   help="results table to append to (default: results/ beside the items)")
    p.set_defaults(handler=_judge)


def _answers(model, prompts: list[str], who: str) -> tuple[list[str], int]:
    gens = model.generate(prompts)
    if len(gens) != len(prompts):
        raise CdtpError(f"{who} returned {len(gens)} answers for {len(prompts)} prompts")
    return [g.text or "" for g in gens], sum(1 for g in gens if g.error)


def _judge(args) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from evaluation.backends import Prompt
    from evaluation.items import ItemSelection, load_items, results_home
    from evaluation.judge import OPEN_QA_TEMPLATE, judge_items, outcome_rates
    from evaluation.models import make_model
    from evaluation.results import append_results, code_version, now_iso, stable_hash

    sel = ItemSelection(tasks=("qa",), domains=_csv_list(args.domains), split=args.split, subset=args.subset,
                        limit=args.limit)
    loaded = load_items(args.items, sel)
    items = loaded.items
    if not items:
        raise CdtpError("no valid QA items to judge")
    prompts = [Prompt(OPEN_QA_TEMPLATE.format(question=it["question"]), it) for it in items]
    models = {role: make_model(spec) for role, spec in (("candidate", args.model), ("reference", args.reference),
                                                          ("judge", args.judge))}
    try:
        cand, cand_errors = _answers(models["candidate"], prompts, "the candidate model")
        ref, ref_errors = _answers(models["reference"], prompts, "the reference model")
        judge_errors = [0]

        def judge(ps: list[str]) -> list[str]:
            texts, errors = _answers(models["judge"], ps, "the judge")
            judge_errors[0] += errors
            return texts

        judged = judge_items(items, cand, ref, judge)
    finally:
        for m in models.values():
            m.close()

    os.makedirs(args.out, exist_ok=True)
    domains = {it["item_id"]: it["domain"] for it in items}
    rows = [dict(item_id=j.item_id, domain=domains[j.item_id], question=j.question, gold=j.gold,
                 candidate=j.candidate, reference=j.reference, verdict_first=j.verdict_first,
                 verdict_swapped=j.verdict_swapped, outcome=j.outcome, raw_first=j.raw_first,
                 raw_swapped=j.raw_swapped) for j in judged]
    schema = pa.schema([(f, pa.string()) for f in JUDGED_SCHEMA_FIELDS])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), os.path.join(args.out, "judged.parquet"))

    by_domain: dict[str, list] = {"ALL": list(judged)}
    for j in judged:
        by_domain.setdefault(domains[j.item_id], []).append(j)
    report = {"model": args.model, "reference": args.reference, "judge": args.judge,
              "fingerprint": loaded.fingerprint, "code_version": code_version(),
              "errors": {"candidate": cand_errors, "reference": ref_errors, "judge": judge_errors[0]},
              "invalid_items": len(loaded.invalid),
              "domains": {d: outcome_rates(js) for d, js in sorted(by_domain.items())}}
    with open(os.path.join(args.out, "report.json"), "w", encoding="utf-8") as fh:
        json.dump(report, fh, ensure_ascii=False, indent=1, sort_keys=True)
    # A failed call, or a judge that names no verdict at all, would be counted as
    # ties: the rates would look like a measurement. They are kept for reading,
    # never added to the results table.
    failed = sum(report["errors"].values())
    unparsed = report["domains"]["ALL"]["unparsed"]
    if failed or unparsed == 2 * len(judged):
        why = (f"{failed} model calls failed (candidate {cand_errors}, reference {ref_errors}, "
               f"judge {judge_errors[0]})" if failed else f"the judge named no verdict in any of its {unparsed} answers")
        raise CdtpError(f"{why}: the outcomes are not a measurement and were not added to the results table "
                        f"(judged.parquet and report.json in {args.out} show them)")

    created = now_iso()
    run_id = stable_hash("judge", args.model, args.reference, args.judge, loaded.fingerprint, code_version())
    result_rows = []
    for d, rates in sorted(report["domains"].items()):
        metrics = {"win_rate": rates["win"]["rate"], "tie_rate": rates["tie"]["rate"],
                   "loss_rate": rates["loss"]["rate"], "judge_score": rates["score"]["rate"],
                   "judge_score_ci_low": rates["score"]["ci95"][0], "judge_score_ci_high": rates["score"]["ci95"][1]}
        for metric, value in metrics.items():
            result_rows.append(dict(run_id=run_id, model=args.model, task="qa_open", domain=d, split=args.split,
                                    dataset=f"CDTP_{d}_QA_OPEN", metric=metric, value=float(value), n=rates["n"],
                                    fingerprint=loaded.datasets[("qa", d)], code_version=code_version(),
                                    created_at=created))
    path = append_results(result_rows, args.results or results_home(args.items), run_id)
    overall = report["domains"]["ALL"]
    print(f"judged {overall['n']} items: win {overall['win']['rate']:.3f} "
          f"[{overall['win']['ci95'][0]:.3f}, {overall['win']['ci95'][1]:.3f}]  "
          f"tie {overall['tie']['rate']:.3f}  loss {overall['loss']['rate']:.3f}  "
          f"(unparsed verdicts {overall['unparsed']}, call errors {sum(report['errors'].values())})")
    print(f"wrote {args.out}/judged.parquet, {args.out}/report.json; results appended to {path}")
    return 0


# ------------------------------------------------------------------ cdtp ood
def register_ood(subparsers) -> None:
    from evaluation.ood import OOD_SETS

    p = subparsers.add_parser("ood", help="out-of-distribution item sets (WebNLG, YAGO3-10, HotpotQA) as items")
    p.add_argument("name", choices=OOD_SETS, help="which set")
    p.add_argument("--data", required=True, metavar="DIR", help="the set's folder, e.g. ../shared/data/ood/yago3-10")
    p.add_argument("--out", required=True, metavar="DIR", help="items/task=…/domain=NAME/split=… go here")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="at most N items per split")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--embedder", default="use-m3", help="embedder spec for the semantic band")
    p.set_defaults(handler=_ood)


def _refuse_foreign_out(out: str) -> None:
    """`--out` may be new, empty or hold earlier `cdtp ood` sets; never a build or a release,
    whose items/ the OOD items would join and whose stats.json they would replace, nor a
    folder inside one (BUILD/items/…: its shards would be read as the build's)."""
    from pipeline.output_check import refuse_out_in_build

    try:
        with open(os.path.join(out, "stats.json"), encoding="utf-8") as fh:
            prior = json.load(fh)
    except FileNotFoundError:
        prior = {}
    except (OSError, ValueError):
        prior = None
    if not isinstance(prior, dict) or set(prior) - {"output_check"}:
        raise CdtpError(f"--out {out} holds a cdtp build or release, not OOD items: "
                        "give the OOD items a folder of their own")
    refuse_out_in_build(out)  # a build's pairs/ without that stats.json, or a folder inside a build


def _ood(args) -> int:
    from collections import Counter

    import pyarrow as pa
    import pyarrow.parquet as pq

    from evaluation.ood import OodError, load
    from schemas.items import ITEM_SCHEMA

    _refuse_foreign_out(args.out)
    stats: Counter = Counter()
    try:
        items = list(load(args.name, args.data, seed=args.seed, limit=args.limit, embedder=args.embedder,
                          stats=stats))
    except OodError as exc:
        raise CdtpError(str(exc)) from None
    if not items:
        raise CdtpError(f"{args.data}: no {args.name} items could be made ({dict(stats)})")
    groups: dict[tuple, list] = {}
    for it in items:
        groups.setdefault((it["task"], it["domain"], it["split"]), []).append(it)
    for (task, domain, split), rows in sorted(groups.items()):
        folder = os.path.join(args.out, "items", f"task={task}", f"domain={domain}", f"split={split}")
        os.makedirs(folder, exist_ok=True)
        rows.sort(key=lambda r: r["item_id"])
        pq.write_table(pa.Table.from_pylist(rows, schema=ITEM_SCHEMA), os.path.join(folder, "part-0.parquet"))
        print(f"{task} {domain} {split}: {len(rows)} items")
    with open(os.path.join(args.out, f"ood-{args.name}-stats.json"), "w", encoding="utf-8") as fh:
        json.dump(dict(sorted(stats.items())), fh, ensure_ascii=False, indent=1)
    # Written last, as a build writes its stats.json: `cdtp eval --items OUT` reads OUT/items/
    # as finished and checks its shards against this record (all sets written into OUT).
    shards = sorted((Path(args.out) / "items").rglob("*.parquet"))
    record = {"output_check": {"items": {"files": len(shards),
                                         "rows": sum(pq.read_metadata(p).num_rows for p in shards)}}}
    tmp = os.path.join(args.out, "stats.json.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(record, fh, indent=1)
    os.replace(tmp, os.path.join(args.out, "stats.json"))
    print(f"wrote {len(items)} items to {args.out}/items (counts by reason in ood-{args.name}-stats.json)")
    return 0
