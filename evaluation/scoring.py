"""From saved model outputs to per-item scores and per-domain metrics. Pure:
the same journal records always give the same predictions and metrics, so
`--reuse` re-scores without a model.

Rules the counts follow:
  * QA/KGC: a failed call (error) or an unparseable answer is wrong in every
    metric; `unparseable` and `errors` count them apart. Main metrics use the
    unrotated presentation; with circular evaluation `acc_circular` counts an
    item right only if it is right in every rotation.
  * T2T: corpus BLEU-4 over the domain; ROUGE/METEOR averaged per item. A
    failed call scores 0. An empty output scores 0 and is counted
    (`empty_output`); an output longer than t2t_metrics.max_output_chars is
    scored on its start and counted (`output_truncated`).
  * T2KG: Text2KGBench's rule: sums over items that have an output, divided
    by all items of the domain. An output with no triple scores as that rule
    scores it (OC 1, SH/OH 0) and is counted (`no_triples`).
"""
from __future__ import annotations

import json
import math
from collections import defaultdict
from typing import Any, Sequence

from evaluation import metrics as M
from evaluation import t2t_metrics as T
from evaluation import text2kg as K
from evaluation.ranking import UNPARSEABLE, parse_ranking, ranking_from_scores


# parse_status of outputs that are scored but are no real answer, counted in every report
NO_TRIPLES, EMPTY_OUTPUT, OUTPUT_TRUNCATED = "no_triples", "empty_output", "output_truncated"


def rotate(options: Sequence[str], answer_index: int, shift: int) -> tuple[list[str], int]:
    """Options shifted left by `shift`; the gold index moves with them."""
    n = len(options)
    s = shift % n
    return list(options[s:]) + list(options[:s]), (answer_index - s) % n


def rotation_shifts(rotations: int, n: int = 10) -> list[int]:
    """0 only without circular evaluation; else `rotations` evenly spaced shifts."""
    if rotations <= 1:
        return [0]
    return sorted({round(i * n / rotations) % n for i in range(rotations)})


def ontology_key(item: dict[str, Any]) -> str:
    return item.get("ontology") or item.get("domain") or ""


def item_ontologies(items: Sequence[dict[str, Any]], files: dict[str, dict] | None = None) -> dict[str, dict]:
    """Per T2KG ontology key, a Text2KGBench-format ontology: the build's own
    `ontologies/<id>.json` when it has one; else one made of the relations the
    items' gold triples use (no concepts)."""
    files = files or {}
    rels: dict[str, set] = defaultdict(set)
    for it in items:
        if it.get("task") == "t2kg":
            for tr in it.get("gold_triples") or []:
                rels[ontology_key(it)].add(tr["relation"])
    out = {k: {"id": k, "concepts": [], "relations": [{"label": r} for r in sorted(v)]} for k, v in rels.items()}
    out.update({k: v for k, v in files.items() if k in rels or not rels})
    return out


def loglik_problem(scores: Sequence[Any] | None, n_options: int) -> str | None:
    """Why per-option log-likelihoods cannot rank the options, or None.

    One real number per option; -inf (an impossible option) is a score, NaN is
    not: sorted as if answered it would rank the options in presented order."""
    if scores is None:
        return "no log-likelihoods"
    if len(scores) != n_options:
        return f"{len(scores)} log-likelihoods for {n_options} options"
    for i, v in enumerate(scores):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return f"log-likelihood of option {i} is {type(v).__name__}, not a number"
        if math.isnan(v) or v == math.inf:
            return f"log-likelihood of option {i} is {v}"
    return None


def score_record(rec: dict[str, Any], item: dict[str, Any], ontologies: dict[str, dict]) -> dict[str, Any]:
    """A prediction row (PREDICTION_SCHEMA) for one journal record."""
    row = {k: rec.get(k) for k in ("key", "item_id", "task", "domain", "split", "rotation", "prompt",
                                   "raw_output", "logliks", "error", "attempts")}
    task = item["task"]
    if task in ("qa", "kgc"):
        options, gold = rotate(item["options"], int(item["answer_index"]), rec.get("rotation") or 0)
        problem = loglik_problem(rec["logliks"], len(options)) if rec.get("logliks") else None
        if problem:  # a journal written before NaN scores were refused at asking time
            row["error"] = problem
        if row.get("error"):
            ranking, status = None, "error"
        elif rec.get("logliks"):
            ranking, status = ranking_from_scores(rec["logliks"]), "loglik"
        else:
            parsed = parse_ranking(rec.get("raw_output") or "", options)
            ranking, status = parsed.ranking, parsed.status
        if ranking is None:
            scores = {"mrr": 0.0, "hits@1": 0.0, "hits@3": 0.0, "hits@10": 0.0, "acc": 0.0, "f1_char": 0.0}
        else:
            scores = M.item_ranking_scores(ranking, gold)
            scores["f1_char"] = M.f1_char(options[ranking[0]], options[gold])
        scores["unparseable"] = 1.0 if status == UNPARSEABLE else 0.0
        row.update(ranking=ranking, parse_status=status, prediction=options[ranking[0]] if ranking else None,
                   scores=scores)
    elif task == "t2t":
        out = "" if rec.get("error") else (rec.get("raw_output") or "")
        scored, cut = T.cap_output(out, item["reference"])
        status = ("error" if rec.get("error") else EMPTY_OUTPUT if not out.strip()
                  else OUTPUT_TRUNCATED if cut else "text")
        row.update(parse_status=status, prediction=scored, scores=T.item_t2t_scores(scored, item["reference"]))
    else:  # t2kg
        gold = [[t["head"], t["relation"], t["tail"]] for t in item.get("gold_triples") or []]
        if rec.get("error"):
            row.update(parse_status="error", prediction=None, scores={})
        else:
            triples = [list(t) for t in K.parse_triples(rec.get("raw_output") or "")]
            ont = ontologies.get(ontology_key(item)) or {"relations": [], "concepts": []}
            # No triples scores OC 1, SH/OH 0, as Text2KGBench's run_eval.py scores it (its
            # Vicuna-13B files do): kept for comparability, and counted apart as `no_triples`.
            row.update(parse_status=NO_TRIPLES if not triples else "text",
                       prediction=json.dumps(triples, ensure_ascii=False),
                       scores=K.sentence_scores(gold, triples, ont, item.get("text") or "", lang="auto"))
    return row


def aggregate(rows: Sequence[dict[str, Any]], items: dict[str, dict[str, Any]]
              ) -> tuple[dict[str, dict[str, dict[str, float]]], dict[str, dict[str, int]]]:
    """metrics[task][domain][metric] and counts[task][domain], with domain "ALL" per task."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        for dom in (r["domain"], "ALL"):
            groups[(r["task"], dom)].append(r)
    metrics: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
    counts: dict[str, dict[str, int]] = defaultdict(dict)
    for (task, dom), grp in sorted(groups.items()):
        base = [r for r in grp if (r.get("rotation") or 0) == 0]
        n = len(base)
        errors = sum(1 for r in base if r.get("error"))
        if task in ("qa", "kgc"):
            vals = M.aggregate_choice([r["scores"] for r in base])
            rotated = defaultdict(list)
            for r in grp:
                rotated[r["item_id"]].append(r["scores"]["acc"])
            if any(len(v) > 1 for v in rotated.values()):
                vals["acc_circular"] = sum(1.0 for v in rotated.values() if all(a == 1.0 for a in v)) / len(rotated)
        elif task == "t2t":
            preds = [r["prediction"] or "" for r in base]
            vals = T.corpus_t2t_scores(preds, [items[r["item_id"]]["reference"] for r in base])
            for status in (EMPTY_OUTPUT, OUTPUT_TRUNCATED):
                vals[status] = float(sum(1 for r in base if r.get("parse_status") == status))
        else:
            with_output = [r["scores"] for r in base if not r.get("error")]
            vals = {k: sum(s[k] for s in with_output) / n for k in K.METRICS} if n else {}
            vals[NO_TRIPLES] = float(sum(1 for r in base if r.get("parse_status") == NO_TRIPLES))
        vals["errors"] = float(errors)
        metrics[task][dom] = vals
        counts[task][dom] = n
    return dict(metrics), dict(counts)
