"""The labelled distractor set: load it, score a build's QA items with it.

The set (`tests/data/distractor_labels.jsonl`, rules in
docs/distractor_labels.md) says of each labelled distractor of a QA item
whether it is really wrong. Scoring joins a build's items on (item id,
option): a distractor the set does not label (the options changed since it
was labelled) is counted apart, never guessed.

- false-distractor rate: labelled distractors labelled `true`, over the
  labelled distractors (`unsure` reported apart);
- ambiguous items: items with at least one distractor labelled `true`, over
  the items with a labelled distractor;
- beside them, the labelled items the build no longer asks (`not_asked`).
"""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from transforms.align_labels import value_key

LABELS = ("true", "false", "unsure")
PARTS = ("tune", "heldout")
_FIELDS = ("build", "item_id", "head", "relation", "label", "part")


def option_key(row: dict[str, Any]) -> str:
    return row["option_key"] if "option_key" in row else value_key(row["option"])


def load_labels(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a labelled set; ValueError naming the line of a row that breaks the rules."""
    rows, seen = [], {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: not JSON ({exc})") from None
            if not isinstance(row, dict) or any(f not in row for f in _FIELDS) or not (
                    isinstance(row.get("option"), str) or isinstance(row.get("option_key"), str)):
                raise ValueError(f"{path}:{n}: a row needs {', '.join(_FIELDS)} and option or option_key")
            if row["label"] not in LABELS:
                raise ValueError(f"{path}:{n}: label {row['label']!r} is not one of {', '.join(LABELS)}")
            if row["part"] not in PARTS:
                raise ValueError(f"{path}:{n}: part {row['part']!r} is not one of {', '.join(PARTS)}")
            key = (row["item_id"], option_key(row))
            if key in seen and seen[key] != row["label"]:
                raise ValueError(f"{path}:{n}: {key} labelled both {seen[key]} and {row['label']}")
            seen[key] = row["label"]
            rows.append(row)
    if not rows:
        raise ValueError(f"{path}: no labelled row")
    return rows


def score(labels: Iterable[dict[str, Any]], items: Iterable[dict[str, Any]],
          group: str = "part") -> dict[str, dict[str, Any]]:
    """Per group of the labels (`part`, or `part/build`, `part/relation`, `part/round N`):
    the figures above, over the QA items of a build that the labels name."""
    labels = list(labels)
    by_key = {(r["item_id"], option_key(r)): r for r in labels}
    labelled_items = {r["item_id"]: r for r in labels}
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def name(row: dict[str, Any]) -> str:
        if group == "round":
            return f"{row['part']}/round {row.get('round', 1)}"
        return row["part"] if group == "part" else f"{row['part']}/{row[group]}"

    asked = set()
    for item in items:
        if item.get("task") != "qa" or item["item_id"] not in labelled_items:
            continue
        asked.add(item["item_id"])
        rows = []
        for i, option in enumerate(item.get("options") or []):
            if i != item.get("answer_index"):
                rows.append(by_key.get((item["item_id"], value_key(option))))
        c = counts[name(labelled_items[item["item_id"]])]
        c["items"] += 1
        c["ambiguous"] += any(r is not None and r["label"] == "true" for r in rows)
        for r in rows:
            c["unlabelled" if r is None else r["label"]] += 1
    for item_id, row in labelled_items.items():
        if item_id not in asked:
            counts[name(row)]["not_asked"] += 1
    out = {}
    for key, c in sorted(counts.items()):
        labelled = c["true"] + c["false"] + c["unsure"]
        out[key] = {"items": c["items"], "not_asked": c["not_asked"], "distractors_labelled": labelled,
                    "unlabelled": c["unlabelled"], "true": c["true"], "unsure": c["unsure"],
                    "false_distractor_rate": c["true"] / labelled if labelled else 0.0,
                    "ambiguous_items": c["ambiguous"] / c["items"] if c["items"] else 0.0}
    return out
