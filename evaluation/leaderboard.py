"""CUGE-style multi-level scores: dataset -> task -> capability -> overall.

CUGE (Yao et al., 2021) reports one score per dataset normalised by a
reference baseline (p / b x 100), so that datasets on different metric scales
can be averaged, then averages them up a fixed hierarchy. The hierarchy, the
metric of each task, its baseline and the weights live in one data file
(`evaluation/resources/leaderboard.json`; `--weights FILE` replaces it).

Missing is never 0: a model without a score for a dataset that other models
have is shown as missing there, and every level above it is missing too. A
partial average would rank a model that skipped its weakest task above one
that did not.

Everything here is pure: rows in (RESULT_SCHEMA dicts), a `Leaderboard` out.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Iterable

from schemas.items import TASKS as ITEM_TASKS

# The tasks a results table holds: the item tasks and the judged open-ended QA.
TASKS = (*ITEM_TASKS, "qa_open")

MISSING = None
# "chance" as a baseline: the expected score of a uniform guess among the ten
# options. Unlike a random run it is exact, so a small item set cannot make
# the baseline 0 (and every normalised score undefined).
CHANCE = {"hits@1": 0.1, "acc": 0.1, "hits@3": 0.3, "hits@10": 1.0, "mrr": sum(1 / k for k in range(1, 11)) / 10,
          "f1_cdtp": 2 * 0.1 / 1.1}


@dataclass(frozen=True)
class TaskSpec:
    task: str
    label: str
    metric: str
    baseline: str | None  # model whose score is 100; None = the raw score x 100
    weight: float = 1.0


@dataclass(frozen=True)
class CapabilitySpec:
    name: str
    label: str
    weight: float
    tasks: tuple[TaskSpec, ...]


@dataclass(frozen=True)
class Hierarchy:
    capabilities: tuple[CapabilitySpec, ...]

    def task(self, name: str) -> TaskSpec | None:
        for cap in self.capabilities:
            for t in cap.tasks:
                if t.task == name:
                    return t
        return None


class HierarchyError(ValueError):
    """A weights file that does not describe a hierarchy."""


def load_hierarchy(path: str | None = None) -> Hierarchy:
    """The default hierarchy, or a user's weights file of the same shape."""
    try:
        if path is None:
            text = resources.files("evaluation").joinpath("resources/leaderboard.json").read_text("utf-8")
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        data = json.loads(text)
    except (OSError, ValueError, RecursionError) as exc:
        raise HierarchyError(f"cannot read weights file {path}: {exc}") from None
    try:
        caps = []
        for c in data["capabilities"]:
            for t in c["tasks"]:
                if t.get("baseline") is not None and not isinstance(t["baseline"], str):
                    raise ValueError(f"task {t.get('task')!r}: baseline is a model spec, \"chance\" or null, "
                                     f"not {t['baseline']!r}")
            tasks = tuple(
                TaskSpec(str(t["task"]), str(t.get("label", t["task"])), str(t["metric"]),
                         None if t.get("baseline") is None else str(t["baseline"]), float(t.get("weight", 1.0)))
                for t in c["tasks"])
            caps.append(CapabilitySpec(str(c["name"]), str(c.get("label", c["name"])), float(c.get("weight", 1.0)),
                                       tasks))
    except (KeyError, TypeError, ValueError) as exc:
        raise HierarchyError(f"weights file {path or 'default'}: expected capabilities[].tasks[] with "
                             f"task/metric (and optional label, baseline, weight): {exc!r}") from None
    names = [t.task for c in caps for t in c.tasks]
    if len(names) != len(set(names)):
        raise HierarchyError(f"weights file {path or 'default'}: a task appears under two capabilities")
    unknown = sorted(set(names) - set(TASKS))
    if unknown:  # its datasets would never exist, and its capability would be silently partial
        raise HierarchyError(f"weights file {path or 'default'}: unknown task(s) {unknown}; known: {list(TASKS)}")
    weights = [t.weight for c in caps for t in c.tasks] + [c.weight for c in caps]
    if not all(math.isfinite(w) and w >= 0 for w in weights):
        raise HierarchyError(f"weights file {path or 'default'}: weights must be finite numbers >= 0")
    return Hierarchy(tuple(caps))


def weighted_mean(values: Iterable[tuple[float | None, float]]) -> float | None:
    """Mean of (value, weight); missing if any value is missing or no weight."""
    total = weight = 0.0
    for v, w in values:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return MISSING
        total += v * w
        weight += w
    return total / weight if weight > 0 else MISSING


@dataclass
class Leaderboard:
    """One row per model; columns per level. Scores are normalised (baseline = 100)."""

    models: list[str]
    datasets: list[str]  # sorted dataset names (CDTP_HP_QA …)
    dataset_task: dict[str, str]
    raw: dict[str, dict[str, float | None]]  # model -> dataset -> raw metric value
    dataset_scores: dict[str, dict[str, float | None]]  # normalised
    task_scores: dict[str, dict[str, float | None]]
    capability_scores: dict[str, dict[str, float | None]]
    overall: dict[str, float | None]
    notes: list[str] = field(default_factory=list)

    def ranked(self) -> list[str]:
        """Models by overall score, missing last, ties by name (a stable order)."""
        return sorted(self.models, key=lambda m: (self.overall[m] is None, -(self.overall[m] or 0.0), m))

    def ranks(self) -> list[tuple[int, str]]:
        """(rank, model) in `ranked()` order; equal overall scores share a rank
        (1, 2, 2, 4), as do models without one (all ranked after the rest).

        Why: the name that breaks a tie only fixes the order of the rows; ranks
        3 and 4 for one score said one model beat the other."""
        def same(a: float | None, b: float | None) -> bool:
            return a is None and b is None or (a is not None and b is not None and math.isclose(a, b))

        out: list[tuple[int, str]] = []
        for i, m in enumerate(self.ranked(), 1):
            tied = bool(out) and same(self.overall[m], self.overall[out[-1][1]])
            out.append((out[-1][0] if tied else i, m))
        return out


def select_rows(rows: Iterable[dict[str, Any]], split: str | None = "eval"
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(kept, dropped): the newest row per (model, dataset, metric) on the item
    set most models share, and the newest rows left out because they were
    scored on another item set of that dataset.

    Runs are appended, so a re-run supersedes the older one (not reported:
    that is what a re-run is for). Per dataset only one item set (fingerprint)
    is compared, the one the most models were scored on; a row of another item
    set is dropped and returned, so the board can say so."""
    rows = [r for r in rows if split is None or r.get("split") == split]
    newest: dict[tuple, dict] = {}
    for r in rows:
        key = (r["model"], r["dataset"], r["metric"], r.get("fingerprint"))
        if key not in newest or (r.get("created_at") or "") >= (newest[key].get("created_at") or ""):
            newest[key] = r
    by_dataset: dict[str, dict[str, set]] = {}
    for (model, dataset, _metric, fp) in newest:
        by_dataset.setdefault(dataset, {}).setdefault(fp, set()).add(model)
    chosen = {d: max(fps.items(), key=lambda kv: (len(kv[1]), str(kv[0])))[0] for d, fps in by_dataset.items()}
    ordered = sorted(newest.items(), key=lambda kv: tuple(map(str, kv[0])))
    kept = [r for (_m, d, _x, fp), r in ordered if chosen[d] == fp]
    dropped = [{**r, "chosen_fingerprint": chosen[d], "chosen_models": len(by_dataset[d][chosen[d]])}
               for (_m, d, _x, fp), r in ordered if chosen[d] != fp]
    return kept, dropped


def latest_rows(rows: Iterable[dict[str, Any]], split: str | None = "eval") -> list[dict[str, Any]]:
    """The rows `select_rows` keeps."""
    return select_rows(rows, split)[0]


def dropped_notes(dropped: Iterable[dict[str, Any]]) -> list[str]:
    """One note per (model, dataset, run) left out for its item set: which run, and why."""
    notes: dict[tuple, str] = {}
    for r in dropped:
        key = (r["dataset"], r["model"], r.get("run_id"), r.get("fingerprint"))
        if key in notes:
            continue
        notes[key] = (f"{r['dataset']}: {r['model']} (run {r.get('run_id')}) left out: scored on item set "
                      f"{r.get('fingerprint')}, not on {r['chosen_fingerprint']}, the one "
                      f"{r['chosen_models']} model(s) were scored on; evaluate it on the same items to compare")
    return [notes[k] for k in sorted(notes, key=lambda k: tuple(map(str, k)))]


def build_leaderboard(rows: Iterable[dict[str, Any]], hierarchy: Hierarchy, *, baseline: str | None = None,
                      tasks: Iterable[str] | None = None, domains: Iterable[str] | None = None,
                      split: str | None = "eval") -> Leaderboard:
    """Normalise dataset scores by the baseline and average them up the hierarchy.

    `baseline` overrides every task's baseline from the hierarchy."""
    task_filter = set(tasks) if tasks else None
    domain_filter = set(domains) if domains else None
    notes: list[str] = []
    raw: dict[str, dict[str, float | None]] = {}
    dataset_task: dict[str, str] = {}
    kept, dropped = select_rows(rows, split)

    def shown(r: dict[str, Any]) -> bool:
        spec = hierarchy.task(r["task"])
        return (spec is not None and r["metric"] == spec.metric and r["domain"] != "ALL"
                and (not task_filter or r["task"] in task_filter)
                and (not domain_filter or r["domain"] in domain_filter))

    notes.extend(dropped_notes(r for r in dropped if shown(r)))
    for r in kept:
        spec = hierarchy.task(r["task"])
        if spec is None or r["metric"] != spec.metric:
            continue
        if task_filter and r["task"] not in task_filter:
            continue
        if domain_filter and r["domain"] not in domain_filter:
            continue
        if r["domain"] == "ALL":  # an aggregate over domains, not a dataset of its own
            continue
        dataset_task[r["dataset"]] = r["task"]
        value = r["value"]
        raw.setdefault(r["model"], {})[r["dataset"]] = None if value is None or math.isnan(value) else float(value)
    models = sorted(raw)
    datasets = sorted(dataset_task)
    for m in models:
        for d in datasets:
            raw[m].setdefault(d, MISSING)

    normalised: dict[str, dict[str, float | None]] = {m: {} for m in models}
    for d in datasets:
        spec = hierarchy.task(dataset_task[d])
        base_model = baseline or spec.baseline
        if base_model is None:
            b = 1.0
        elif base_model == "chance":
            b = CHANCE.get(spec.metric)
            if b is None:
                notes.append(f"{d}: no chance level for {spec.metric}; normalised scores missing")
        else:
            b = raw.get(base_model, {}).get(d)
            if b is None:
                notes.append(f"{d}: baseline {base_model} has no {spec.metric} score; normalised scores missing")
            elif b <= 0:
                notes.append(f"{d}: baseline {base_model} scores {b} on {spec.metric}; cannot normalise")
                b = None
        for m in models:
            p = raw[m][d]
            normalised[m][d] = MISSING if p is None or b is None else p / b * 100.0

    task_scores: dict[str, dict[str, float | None]] = {m: {} for m in models}
    cap_scores: dict[str, dict[str, float | None]] = {m: {} for m in models}
    overall: dict[str, float | None] = {}
    for m in models:
        caps = []
        for cap in hierarchy.capabilities:
            tvals = []
            for t in cap.tasks:
                ds = [d for d in datasets if dataset_task[d] == t.task]
                if not ds:
                    continue  # no model has this task: not a level of this board
                task_scores[m][t.task] = weighted_mean((normalised[m][d], 1.0) for d in ds)
                tvals.append((task_scores[m][t.task], t.weight))
            if not tvals:
                continue
            cap_scores[m][cap.name] = weighted_mean(tvals)
            caps.append((cap_scores[m][cap.name], cap.weight))
        overall[m] = weighted_mean(caps) if caps else MISSING
    return Leaderboard(models, datasets, dataset_task, raw, normalised, task_scores, cap_scores, overall, notes)


def leaderboard_rows(board: Leaderboard, hierarchy: Hierarchy) -> list[dict[str, Any]]:
    """Long rows (model, level, name, score, raw) for CSV/Parquet export and `cdtp query`."""
    out = []
    for rank, m in board.ranks():
        out.append(dict(model=m, rank=rank, level="overall", name="overall", score=board.overall[m], raw=None))
        for cap in hierarchy.capabilities:
            if cap.name in board.capability_scores[m]:
                out.append(dict(model=m, rank=rank, level="capability", name=cap.name,
                                score=board.capability_scores[m][cap.name], raw=None))
        for t, v in sorted(board.task_scores[m].items()):
            out.append(dict(model=m, rank=rank, level="task", name=t, score=v, raw=None))
        for d in board.datasets:
            out.append(dict(model=m, rank=rank, level="dataset", name=d, score=board.dataset_scores[m][d],
                            raw=board.raw[m][d]))
    return out


def _fmt(v: float | None) -> str:
    return "—" if v is None else f"{v:.1f}"


def markdown_table(board: Leaderboard, hierarchy: Hierarchy) -> str:
    """Ranked table: overall, capabilities, tasks, datasets (baseline = 100; — = missing)."""
    caps = [c for c in hierarchy.capabilities if any(c.name in board.capability_scores[m] for m in board.models)]
    tasks = [t.task for c in caps for t in c.tasks if any(t.task in board.task_scores[m] for m in board.models)]
    head = ["rank", "model", "overall", *[c.name for c in caps], *tasks, *board.datasets]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for rank, m in board.ranks():
        cells = [str(rank), m, _fmt(board.overall[m]),
                 *[_fmt(board.capability_scores[m].get(c.name)) for c in caps],
                 *[_fmt(board.task_scores[m].get(t)) for t in tasks],
                 *[_fmt(board.dataset_scores[m][d]) for d in board.datasets]]
        lines.append("| " + " | ".join(cells) + " |")
    for note in board.notes:
        lines.append(f"\n> {note}")
    return "\n".join(lines) + "\n"
