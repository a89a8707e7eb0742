"""Multiple-choice and answer metrics for QA and KGC (CDTP paper §4.2, Tables 4/5).

Pure functions: no I/O, no model. A *ranking* is a list of option indices,
best first, covering every option once (partial rankings are completed by
`evaluation.ranking.complete_ranking` before they reach these functions).

Two F1 variants live here, named apart on purpose so nobody mistakes one for
the other in the results table:

* `f1_cdtp` is the CDTP authors' definition: scikit-learn's F1 with an
  all-positive truth vector and the per-item correctness as the prediction.
  Precision is then 1 whenever anything is right and recall is the accuracy,
  so F1 = 2·acc/(1+acc). It carries no information beyond accuracy; it exists
  so that our numbers line up with the paper's Tables 4 and 5.
* `f1_char` is the SQuAD/CMRC-style character-level overlap F1 between the
  predicted answer string and the gold string: a meaningful partial credit.
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence

HITS_AT = (1, 3, 10)


def rank_of(ranking: Sequence[int], gold_index: int) -> int:
    """1-based rank of the gold option; an absent gold ranks after every option."""
    for pos, idx in enumerate(ranking):
        if idx == gold_index:
            return pos + 1
    return len(ranking) + 1


def item_ranking_scores(ranking: Sequence[int], gold_index: int) -> dict[str, float]:
    """Per-item scores of one ranking: reciprocal rank, hits@k, accuracy."""
    r = rank_of(ranking, gold_index)
    scores = {"mrr": 1.0 / r}
    for k in HITS_AT:
        scores[f"hits@{k}"] = 1.0 if r <= k else 0.0
    scores["acc"] = 1.0 if r == 1 else 0.0
    return scores


def f1_cdtp(acc: float) -> float:
    """The paper's F1 from accuracy (or Hits@1): 2·acc/(1+acc).

    Equal to `sklearn.metrics.f1_score([1]*n, correct)`: with an all-positive
    truth vector precision is 1 (when any item is right) and recall is acc.
    """
    if not 0.0 <= acc <= 1.0:
        raise ValueError(f"accuracy must lie in [0, 1], got {acc}")
    return 0.0 if acc == 0.0 else 2.0 * acc / (1.0 + acc)


def f1_cdtp_from_correct(correct: Iterable[bool | float]) -> float:
    """`f1_cdtp` computed the way the authors' code does, from the correctness vector."""
    flags = [bool(c) for c in correct]
    if not flags:
        return 0.0
    tp = sum(flags)
    if tp == 0:
        return 0.0
    precision = 1.0  # every predicted positive is a true positive: truth is all ones
    recall = tp / len(flags)
    return 2 * precision * recall / (precision + recall)


def _answer_chars(text: str) -> list[str]:
    """Characters that count for answer overlap: NFKC, lowercased, no spaces or punctuation."""
    out = []
    for ch in unicodedata.normalize("NFKC", text or "").lower():
        cat = unicodedata.category(ch)
        if ch.isspace() or cat.startswith("P") or cat.startswith("S"):
            continue
        out.append(ch)
    return out


def f1_char(prediction: str, gold: str) -> float:
    """SQuAD-style F1 over characters (CMRC 2018 does the same for Chinese).

    Both sides empty after normalisation count as a match (1.0); one side
    empty counts as 0.
    """
    p, g = _answer_chars(prediction), _answer_chars(gold)
    if not p and not g:
        return 1.0
    if not p or not g:
        return 0.0
    common = sum((Counter(p) & Counter(g)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def aggregate_choice(per_item: Sequence[dict[str, float]]) -> dict[str, float]:
    """Means of the per-item scores, plus `f1_cdtp` from the accuracy.

    `unparseable` is the share of items whose output could not be parsed (they
    are already counted as wrong in every other metric).
    """
    n = len(per_item)
    if n == 0:
        return {}
    keys = ["mrr", *(f"hits@{k}" for k in HITS_AT), "acc", "f1_char", "unparseable"]
    out = {k: sum(s.get(k, 0.0) for s in per_item) / n for k in keys if any(k in s for s in per_item)}
    out["f1_cdtp"] = f1_cdtp(out.get("acc", 0.0))
    return out
