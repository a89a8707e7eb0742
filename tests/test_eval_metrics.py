"""Evaluation metrics against the papers and the reference packages.

* f1_cdtp reproduces the CDTP paper's Tables 4/5 F1 from Hits@1/ACC and equals
  scikit-learn's F1 with an all-positive truth vector (the authors' code).
* BLEU/ROUGE/METEOR agree with sacrebleu, rouge-score and nltk (exact matching
  only) on English, and behave on Chinese (identical → 1, disjoint → 0).
"""
from __future__ import annotations

import random

import pytest

from evaluation import metrics as M
from evaluation import t2t_metrics as T

# (Hits@1 or ACC, F1) as printed in the paper's Tables 4 and 5.
PAPER_F1 = [(0.3445, 0.5125), (0.1870, 0.3151)]

ENGLISH = [
    ("the cat sat on the mat near the door", "the cat was sitting on the mat by the door"),
    ("a quick brown fox jumps over the lazy dog", "the quick brown fox jumped over a lazy dog today"),
    ("beijing is the capital of china", "the capital of china is beijing"),
    ("paris hosted the olympic games in 2024", "the 2024 olympic games were held in paris france"),
    ("he wrote many poems during the tang dynasty", "li bai wrote many famous poems in the tang dynasty"),
    ("the river flows east to the sea", "the yangtze river flows east into the east china sea"),
    ("no overlap here at all", "completely different words appear instead"),
]


@pytest.mark.parametrize("acc,f1", PAPER_F1)
def test_f1_cdtp_reproduces_paper_tables(acc, f1):
    assert round(M.f1_cdtp(acc), 4) == f1


def test_f1_cdtp_equals_sklearn_all_positive_truth():
    from sklearn.metrics import f1_score

    rng = random.Random(7)
    for n in (1, 5, 200):
        correct = [rng.random() < 0.37 for _ in range(n)]
        expected = f1_score([1] * n, [int(c) for c in correct], zero_division=0)
        assert M.f1_cdtp_from_correct(correct) == pytest.approx(expected)
        assert M.f1_cdtp(sum(correct) / n) == pytest.approx(expected)
    with pytest.raises(ValueError, match="accuracy"):
        M.f1_cdtp(1.5)


def test_ranking_scores_and_char_f1():
    s = M.item_ranking_scores([3, 0, 1, 2, 4, 5, 6, 7, 8, 9], gold_index=1)
    assert s["mrr"] == pytest.approx(1 / 3) and s["hits@1"] == 0 and s["hits@3"] == 1 and s["acc"] == 0
    assert M.item_ranking_scores(list(range(10)), 0)["acc"] == 1.0
    # Character F1: 李白 vs 李白（诗人）: 2 shared chars of 2 predicted / 4 gold.
    assert M.f1_char("李白", "李白（诗人）") == pytest.approx(2 * 1 * 0.5 / 1.5)
    assert M.f1_char("杜甫", "李白") == 0.0
    assert M.f1_char("  长江。", "长江") == 1.0  # punctuation and spaces do not count
    agg = M.aggregate_choice([{"acc": 1.0, "mrr": 1.0}, {"acc": 0.0, "mrr": 0.5}])
    assert agg["acc"] == 0.5 and agg["f1_cdtp"] == pytest.approx(2 * 0.5 / 1.5)


def _toks(s):
    return s.split()


def test_bleu_matches_sacrebleu_on_english():
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, refs = [h for h, _ in ENGLISH], [r for _, r in ENGLISH]
    ref_corpus = sacrebleu.corpus_bleu(hyps, [refs], tokenize="none").score / 100
    ours = T.corpus_bleu([_toks(h) for h in hyps], [[_toks(r)] for r in refs])
    assert ours == pytest.approx(ref_corpus, abs=1e-9)
    assert 0 < ours < 1
    for h, r in ENGLISH:
        ref_sent = sacrebleu.sentence_bleu(h, [r], tokenize="none").score / 100
        assert T.sentence_bleu(_toks(h), [_toks(r)]) == pytest.approx(ref_sent, abs=1e-9), h


def test_rouge_matches_rouge_score_on_english():
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

    class Split:
        def tokenize(self, text):
            return text.split()

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=Split())
    for h, r in ENGLISH:
        ref = scorer.score(r, h)
        assert T.rouge_n(_toks(h), _toks(r), 1) == pytest.approx(ref["rouge1"].fmeasure, abs=1e-12)
        assert T.rouge_n(_toks(h), _toks(r), 2) == pytest.approx(ref["rouge2"].fmeasure, abs=1e-12)
        assert T.rouge_l(_toks(h), _toks(r)) == pytest.approx(ref["rougeL"].fmeasure, abs=1e-12)


def test_meteor_matches_nltk_exact_matching_on_english():
    meteor_score = pytest.importorskip("nltk.translate.meteor_score")

    class NoStem:  # exact matching only: stems equal the words, so no extra matches
        def stem(self, w):
            return w

    class NoWordNet:  # no synonyms (WordNet is never downloaded)
        def synsets(self, w):
            return []

    for h, r in ENGLISH + [("a b a b c", "b a b a c a"), ("x y z x y", "z x y x")]:
        ref = meteor_score.meteor_score([_toks(r)], _toks(h), stemmer=NoStem(), wordnet=NoWordNet(),
                                        alpha=0.9, beta=3, gamma=0.5)
        assert T.meteor(_toks(h), [_toks(r)]) == pytest.approx(ref, abs=1e-12), h


def test_t2t_metrics_on_chinese_identical_and_disjoint():
    text = "李白是唐代著名的浪漫主义诗人，被后人誉为诗仙。"
    same = T.item_t2t_scores(text, text)
    m = len(T.tokenize(text))
    assert m > 4
    assert same["bleu4"] == pytest.approx(1.0)
    assert same["rouge1"] == same["rouge2"] == same["rougeL"] == pytest.approx(1.0)
    # METEOR's fragmentation penalty: one chunk of m tokens gives 1 - 0.5/m³.
    assert same["meteor"] == pytest.approx(1 - 0.5 / m**3)
    other = T.item_t2t_scores("长江发源于青藏高原", "熊猫吃竹子")
    assert all(v == 0.0 for v in other.values()), other
    # The rouge-score package, used as is, scores Chinese as 0: the reason we tokenise ourselves.
    rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")
    assert rouge_scorer.RougeScorer(["rouge1"]).score(text, text)["rouge1"].fmeasure == 0.0
    corpus = T.corpus_t2t_scores([text, "长江是中国最长的河流"], [text, "长江是中国第一长河"])
    assert 0 < corpus["bleu4"] < 1 and 0 < corpus["rougeL"] < 1
