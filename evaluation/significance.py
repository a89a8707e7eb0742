"""Uncertainty for the leaderboard: bootstrap intervals, paired tests, correlations.

- `bootstrap_ci`: percentile interval of a statistic over items resampled with
  replacement (win/tie/loss rates of the open-ended judging).
- `paired_bootstrap_pvalue`: Koehn (2004)-style paired bootstrap on the same
  items. Two models' per-item scores are resampled together; the p-value is
  the share of resamples in which the observed winner does not win, so a gap
  that hangs on a handful of items gets a large p.
  Below MIN_PAIRED_ITEMS shared items no p-value is given: with two items
  the resamples can only repeat them, and a one-item gap "wins" in almost
  every resample (p = 0.001 on 2 items), which reads as a real difference.
- `pearson` / `spearman`: agreement of closed- and open-ended results across
  models (SuperCLUE checks that the two rankings agree). Ties get average
  ranks, as scipy does.

Seeded numpy generators throughout: the same inputs give the same numbers.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

MIN_PAIRED_ITEMS = 20
TOO_FEW = f"too few items (fewer than {MIN_PAIRED_ITEMS} paired)"

def bootstrap_ci(values: Sequence[float], statistic: Callable[[np.ndarray], float] = np.mean, *,
                 n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0) -> tuple[float, float, float]:
    """(point, low, high): the statistic and its percentile bootstrap interval."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return (math.nan, math.nan, math.nan)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, arr.size, size=(n_resamples, arr.size))
    stats = np.array([statistic(arr[row]) for row in idx])
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(stats, [alpha, 1.0 - alpha])
    return (float(statistic(arr)), float(low), float(high))


def paired_bootstrap_pvalue(a: Sequence[float], b: Sequence[float], *, n_resamples: int = 1000,
                            seed: int = 0) -> float:
    """p-value that the mean difference a - b is not in the observed direction.

    `a` and `b` are per-item scores of two models on the SAME items, in the
    same order. 1.0 when the observed means are equal."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError(f"paired scores need the same items: {x.size} vs {y.size}")
    if x.size == 0:
        return math.nan
    diff = x - y
    observed = diff.mean()
    if observed == 0:
        return 1.0
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, diff.size, size=(n_resamples, diff.size))
    means = diff[idx].mean(axis=1)
    not_winning = np.count_nonzero(means <= 0) if observed > 0 else np.count_nonzero(means >= 0)
    return float((not_winning + 1) / (n_resamples + 1))


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.size != b.size or a.size < 2:
        return math.nan
    a, b = a - a.mean(), b - b.mean()
    denom = math.sqrt(float((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / denom) if denom > 0 else math.nan


def _ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(values.size, dtype=np.float64)
    sorted_vals = values[order]
    i = 0
    while i < values.size:
        j = i
        while j + 1 < values.size and sorted_vals[j + 1] == sorted_vals[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.size != b.size or a.size < 2:
        return math.nan
    return pearson(_ranks(a), _ranks(b))


def pairwise_pvalues(per_model: dict[str, dict[str, float]], *, n_resamples: int = 1000,
                     seed: int = 0, min_items: int = MIN_PAIRED_ITEMS) -> list[dict]:
    """Paired bootstrap p-value for every pair of models, on the items both were scored on.

    `per_model` maps a model to {item_id: score}. Items only one model has are
    left out of that pair (the test is paired), and the pair says how many it used.
    A pair with fewer than `min_items` shared items gets no p-value (None) and
    the note TOO_FEW instead."""
    models = sorted(per_model)
    out = []
    for i, a in enumerate(models):
        for b in models[i + 1:]:
            shared = sorted(set(per_model[a]) & set(per_model[b]))
            xs = [per_model[a][k] for k in shared]
            ys = [per_model[b][k] for k in shared]
            enough = len(shared) >= min_items
            out.append(dict(model_a=a, model_b=b, n=len(shared),
                            mean_a=float(np.mean(xs)) if xs else math.nan,
                            mean_b=float(np.mean(ys)) if ys else math.nan,
                            p_value=(paired_bootstrap_pvalue(xs, ys, n_resamples=n_resamples, seed=seed)
                                     if enough else None),
                            note="" if enough else TOO_FEW))
    return out
