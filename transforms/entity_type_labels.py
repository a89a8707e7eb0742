"""The labelled entity-type set: loading and scoring (`cdtp types eval`).

Rows are locators into the data folder (../shared/data), like the domain set
(transforms/domain_labels.py resolves them), plus the hand label:
    {"source": "kgclue/train.json", "locator": 1234, "entity": "…", "type": "work"}
or self-contained rows {entity|title, text|summary, tags, triples|infobox, type}.
The rules the labels follow are in docs/entity_types.md.

KgCLUE and NLPCC-KBQA rows carry one triple each, and a single triple says
little about what its head is. A build sees the entity's whole infobox, so a
locator into those files resolves to every triple of the same head in that
file: its infobox signature.
"""
from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from transforms.domain_labels import LabelError, locate_item, split_by_source
from transforms.domain_labels import load_labels as load_rows
from transforms.entity_type import ENTITY_TYPES, TypeDecision, entity_type

__all__ = ["LabelError", "load_labels", "evaluate", "format_report", "split_by_source", "type_item"]


def norm_type(value: Any) -> str:
    v = str(value or "").strip().lower()
    v = {"organization": "organisation", "org": "organisation", "location": "place", "loc": "place"}.get(v, v)
    if v not in ENTITY_TYPES:
        raise LabelError(f"unknown entity type {value!r}: use one of {', '.join(ENTITY_TYPES)}")
    return v


@lru_cache(maxsize=4)
def _kgclue_heads(path: str) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = defaultdict(list)
    for line in Path(path).read_text("utf-8").splitlines():
        if line.strip():
            parts = [p.strip() for p in json.loads(line)["answer"].split("|||")]
            if len(parts) == 3:
                out[parts[0]].append({"head": parts[0], "relation": parts[1], "tail": parts[2]})
    return dict(out)


@lru_cache(maxsize=4)
def _nlpcc_heads(path: str) -> dict[str, list[dict[str, str]]]:
    out: dict[str, list[dict[str, str]]] = defaultdict(list)
    for m in re.finditer(r"<triple id=\d+>\s*(.*)", Path(path).read_text("utf-8", errors="replace")):
        parts = [p.strip() for p in m.group(1).split("|||")]
        if len(parts) == 3:
            out[parts[0]].append({"head": parts[0], "relation": parts[1], "tail": parts[2]})
    return dict(out)


def resolve_row(row: dict[str, Any], data_root: Path | None) -> dict[str, Any]:
    """One labelled row -> an item {entity, subtitle?, text, tags, triples, source, gold}."""
    if not isinstance(row, dict):
        raise LabelError("expected a JSON object")
    label = norm_type(row.get("type", row.get("label")))
    item = locate_item(row, data_root)
    source = str(item.get("source") or "")
    if "locator" in row and source.startswith(("kgclue/", "nlpcc2016-kbqa/")):
        index = (_kgclue_heads if source.startswith("kgclue/") else _nlpcc_heads)(str(Path(data_root) / source))
        item["triples"] = index.get(item["entity"], item["triples"])
    item["gold"] = label
    if row.get("set"):
        item["set"] = str(row["set"])
    return item


def load_labels(path: Path, data_root: Path | None) -> list[dict[str, Any]]:
    return load_rows(path, data_root, resolve_row)


def type_item(item: dict[str, Any]) -> TypeDecision:
    """entity_type on a labelled item, fed exactly what the build feeds it."""
    return entity_type(
        item.get("entity") or "",
        item.get("tags") or [],
        [t.get("relation") or "" for t in item.get("triples") or []],
        item.get("subtitle"),
        item.get("text") or "",
        [(t.get("relation") or "", str(t.get("tail") or "")) for t in item.get("triples") or []],
    )


def evaluate(items: list[dict[str, Any]], typer: Callable[[dict], TypeDecision] = type_item) -> dict[str, Any]:
    """Accuracy, per-type precision/recall, the confusion matrix and the share of `other`."""
    decisions = [typer(it) for it in items]
    confusion = {g: {p: 0 for p in ENTITY_TYPES} for g in ENTITY_TYPES}
    for item, d in zip(items, decisions):
        confusion[item["gold"]][d.type if d.type in ENTITY_TYPES else "other"] += 1
    n = len(items)
    correct = sum(confusion[t][t] for t in ENTITY_TYPES)
    per = {}
    for t in ENTITY_TYPES:
        tp, pred, gold = confusion[t][t], sum(confusion[g][t] for g in ENTITY_TYPES), sum(confusion[t].values())
        per[t] = {"precision": tp / pred if pred else 0.0, "recall": tp / gold if gold else 0.0, "support": gold}
    other_pred = sum(confusion[g]["other"] for g in ENTITY_TYPES)
    errors = [
        {"entity": it["entity"], "source": it.get("source"), "gold": it["gold"], "pred": d.type, "reason": d.reason}
        for it, d in zip(items, decisions)
        if d.type != it["gold"]
    ]
    by_source: dict[str, list[int]] = {}
    for item, d in zip(items, decisions):
        key = str(item.get("source") or "inline").split("/")[0]
        by_source.setdefault(key, [0, 0])[d.type == item["gold"]] += 1
    return {
        "n": n,
        "accuracy": correct / n if n else 0.0,
        "accuracy_by_source": {k: {"n": v[0] + v[1], "accuracy": v[1] / (v[0] + v[1])} for k, v in sorted(by_source.items())},
        "other_share": other_pred / n if n else 0.0,
        "other_share_gold": sum(confusion["other"].values()) / n if n else 0.0,
        "per_type": per,
        "confusion": confusion,
        "by_source": dict(Counter(it.get("source") for it in items)),
        "errors": errors,
    }


def format_report(report: dict[str, Any]) -> str:
    abbrev = {t: t[:5] for t in ENTITY_TYPES}
    lines = [
        f"items: {report['n']}  accuracy: {report['accuracy']:.3f}  "
        f"typed other: {report['other_share']:.3f} (gold other: {report['other_share_gold']:.3f})",
        "",
        "type          precision  recall  support",
    ]
    for t in ENTITY_TYPES:
        p = report["per_type"][t]
        lines.append(f"{t:<13} {p['precision']:>9.3f}  {p['recall']:>6.3f}  {p['support']:>7}")
    lines += ["", "confusion (rows = gold, columns = predicted)",
              "gold\\pred     " + " ".join(f"{abbrev[t]:>6}" for t in ENTITY_TYPES)]
    for g in ENTITY_TYPES:
        lines.append(f"{g:<13} " + " ".join(f"{report['confusion'][g][t]:>6}" for t in ENTITY_TYPES))
    lines += ["", "by source: " + ", ".join(
        f"{k} {v['accuracy']:.3f} ({v['n']})" for k, v in report.get("accuracy_by_source", {}).items())]
    return "\n".join(lines)


