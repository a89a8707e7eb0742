"""Text generation metrics for T2T (data → text), computed on jieba tokens.

Why our own code instead of the usual packages: sacrebleu's default
tokeniser and rouge-score's tokenizer both assume space-separated words
(rouge-score scores any Chinese text as 0), and nltk's METEOR wants WordNet,
which cannot be downloaded at run time. The formulas below are the packages'
own, applied to token lists; `tests/test_eval_metrics.py` checks them against
sacrebleu, rouge-score and nltk on English, where the tokenisations agree.

* BLEU: cumulative BLEU-4 (uniform weights), sacrebleu's definition, with the
  'exp' (NIST) smoothing sacrebleu uses by default. Corpus BLEU sums n-gram
  statistics over items; sentence BLEU uses effective order, as sacrebleu's
  `sentence_bleu` does. Values in [0, 1] (sacrebleu reports ×100).
* ROUGE-1/2/L: rouge-score's F-measures (clipped n-gram overlap; LCS for L),
  averaged over items.
* METEOR: nltk's formula with exact matching only (no stems, no synonyms):
  alpha 0.9, beta 3, gamma 0.5; several references → the best one.
  As in every METEOR, a perfect single-chunk match of m tokens scores
  1 − 0.5/m³, a hair under 1.

Scored length. An output is scored on at most `max_output_chars(reference)`
characters: 20 times the longest reference, capped at 20,000 (never under
twice the reference). A runaway generation (a million characters of
repetition) once took half a minute per item to tokenise and align, while
anything that long scores next to nothing; the runs count the outputs cut
(`output_truncated`).
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence

MAX_ORDER = 4
OUTPUT_FACTOR, OUTPUT_CAP = 20, 20_000
METEOR_ALPHA, METEOR_BETA, METEOR_GAMMA = 0.9, 3.0, 0.5
T2T_METRICS = ("bleu4", "rouge1", "rouge2", "rougeL", "meteor")


def tokenize(text: str) -> list[str]:
    """jieba (precise mode) tokens without whitespace; English words stay whole."""
    from transforms.search.segment import _jieba

    return [t for t in _jieba().lcut(text or "") if t.strip()]


def _ngrams(tokens: Sequence[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def bleu_stats(hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> tuple[list[int], list[int], int, int]:
    """sacrebleu's sufficient statistics: correct/total n-grams, hyp length, closest ref length."""
    hyp_len = len(hyp)
    ref_len = min((len(r) for r in refs), key=lambda L: (abs(L - hyp_len), L)) if refs else 0
    max_ref: Counter = Counter()
    for r in refs:
        for n in range(1, MAX_ORDER + 1):
            for g, c in _ngrams(r, n).items():
                if c > max_ref[g]:
                    max_ref[g] = c
    correct, total = [0] * MAX_ORDER, [0] * MAX_ORDER
    for n in range(1, MAX_ORDER + 1):
        for g, c in _ngrams(hyp, n).items():
            correct[n - 1] += min(c, max_ref[g])
            total[n - 1] += c
    return correct, total, hyp_len, ref_len


def _log(x: float) -> float:
    return math.log(x) if x > 0 else -9999999999.0  # sacrebleu's my_log


def bleu_from_stats(correct: Sequence[float], total: Sequence[float], sys_len: int, ref_len: int,
                    *, smooth: str = "exp", effective_order: bool = False) -> float:
    """sacrebleu.BLEU.compute_bleu, divided by 100 ('exp' and 'none' smoothing)."""
    if smooth not in ("exp", "none"):
        raise ValueError(f"unknown smoothing {smooth!r}")
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    if not any(correct):
        return 0.0
    precisions = [0.0] * MAX_ORDER
    smooth_mteval = 1.0
    eff_order = MAX_ORDER
    for n in range(1, MAX_ORDER + 1):
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 1.0 / (smooth_mteval * total[n - 1])
        else:
            precisions[n - 1] = correct[n - 1] / total[n - 1]
    return bp * math.exp(sum(_log(p) for p in precisions[:eff_order]) / eff_order)


def sentence_bleu(hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    return bleu_from_stats(*bleu_stats(hyp, refs), effective_order=True)


def corpus_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """Cumulative corpus BLEU-4: statistics summed over items, then combined."""
    correct, total, sys_len, ref_len = [0] * MAX_ORDER, [0] * MAX_ORDER, 0, 0
    for h, rs in zip(hyps, refs, strict=True):
        c, t, sl, rl = bleu_stats(h, rs)
        correct = [a + b for a, b in zip(correct, c)]
        total = [a + b for a, b in zip(total, t)]
        sys_len += sl
        ref_len += rl
    return bleu_from_stats(correct, total, sys_len, ref_len)


def _fmeasure(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def rouge_n(hyp: Sequence[str], ref: Sequence[str], n: int) -> float:
    """rouge-score's ROUGE-N F-measure on given tokens."""
    h, r = _ngrams(hyp, n), _ngrams(ref, n)
    overlap = sum(min(c, r[g]) for g, c in h.items())
    hn, rn = max(sum(h.values()), 1), max(sum(r.values()), 1)
    return _fmeasure(overlap / hn, overlap / rn)


def _lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    if not a or not b:
        return 0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def rouge_l(hyp: Sequence[str], ref: Sequence[str]) -> float:
    """rouge-score's ROUGE-L (sentence-level LCS) F-measure on given tokens."""
    if not hyp or not ref:
        return 0.0
    lcs = _lcs_length(ref, hyp)
    return _fmeasure(lcs / len(hyp), lcs / len(ref))


def _exact_alignment(hyp: Sequence[str], ref: Sequence[str]) -> list[tuple[int, int]]:
    """nltk's exact matching: hypothesis words from the last, each to the last free equal ref word."""
    positions: dict[str, list[int]] = defaultdict(list)
    for j, w in enumerate(ref):
        positions[w].append(j)
    matches = []
    for i in range(len(hyp) - 1, -1, -1):
        pos = positions.get(hyp[i])
        if pos:
            matches.append((i, pos.pop()))
    return sorted(matches)


def _chunks(matches: Sequence[tuple[int, int]]) -> int:
    chunks = 1
    for (i0, j0), (i1, j1) in zip(matches, matches[1:]):
        if not (i1 == i0 + 1 and j1 == j0 + 1):
            chunks += 1
    return chunks


def meteor_single(hyp: Sequence[str], ref: Sequence[str], *, alpha: float = METEOR_ALPHA,
                  beta: float = METEOR_BETA, gamma: float = METEOR_GAMMA) -> float:
    matches = _exact_alignment(hyp, ref)
    m = len(matches)
    if m == 0 or not hyp or not ref:
        return 0.0
    precision, recall = m / len(hyp), m / len(ref)
    fmean = precision * recall / (alpha * precision + (1 - alpha) * recall)
    penalty = gamma * (_chunks(matches) / m) ** beta
    return (1 - penalty) * fmean


def meteor(hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    return max((meteor_single(hyp, r) for r in refs), default=0.0)


def max_output_chars(reference: str | Sequence[str]) -> int:
    """The most characters of an output that are scored against `reference` (see the module docstring)."""
    longest = max((len(r) for r in ([reference] if isinstance(reference, str) else reference)), default=0)
    return max(2 * longest, min(OUTPUT_FACTOR * longest, OUTPUT_CAP))


def cap_output(prediction: str, reference: str | Sequence[str]) -> tuple[str, bool]:
    """(the scored part of `prediction`, whether it was cut to max_output_chars)."""
    limit = max_output_chars(reference)
    return (prediction[:limit], True) if len(prediction) > limit else (prediction, False)


def item_t2t_scores(prediction: str, reference: str | Sequence[str]) -> dict[str, float]:
    """Per-item T2T scores from raw strings (jieba-tokenised here), the output cut to max_output_chars."""
    refs_text = [reference] if isinstance(reference, str) else list(reference)
    hyp = tokenize(cap_output(prediction, refs_text)[0])
    refs = [tokenize(r) for r in refs_text]
    return score_tokens(hyp, refs)


def score_tokens(hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> dict[str, float]:
    return {
        "bleu4": sentence_bleu(hyp, refs),
        "rouge1": max((rouge_n(hyp, r, 1) for r in refs), default=0.0),
        "rouge2": max((rouge_n(hyp, r, 2) for r in refs), default=0.0),
        "rougeL": max((rouge_l(hyp, r) for r in refs), default=0.0),
        "meteor": meteor(hyp, refs),
    }


def corpus_t2t_scores(predictions: Sequence[str], references: Sequence[str | Sequence[str]]) -> dict[str, float]:
    """Corpus BLEU-4 plus the mean per-item ROUGE-1/2/L and METEOR (outputs cut to max_output_chars)."""
    if len(predictions) != len(references):
        raise ValueError("predictions and references differ in length")
    n = len(predictions)
    if n == 0:
        return {}
    hyps = [tokenize(cap_output(p, r)[0]) for p, r in zip(predictions, references)]
    refs = [[tokenize(r)] if isinstance(r, str) else [tokenize(x) for x in r] for r in references]
    per = [score_tokens(h, rs) for h, rs in zip(hyps, refs)]
    out = {k: sum(s[k] for s in per) / n for k in T2T_METRICS}
    out["bleu4"] = corpus_bleu(hyps, refs)
    return out
