"""The ranking parser reads the answers models really give, and says when it cannot."""
from __future__ import annotations

import pytest

from evaluation.ranking import FULL, PARTIAL, UNPARSEABLE, parse_ranking, ranking_from_scores

OPTS = ["唐朝", "宋朝", "明朝", "清朝", "汉朝", "元朝", "秦朝", "晋朝", "隋朝", "长江三角洲"]
ORDER = [2, 0, 1, 3, 4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("text", [
    "C > A > B > D > E > F > G > H > I > J",
    "排序：C,A,B,D,E,F,G,H,I,J",
    "CABDEFGHIJ",
    "答案：Ｃ、Ａ、Ｂ、Ｄ、Ｅ、Ｆ、Ｇ、Ｈ、Ｉ、Ｊ",  # full-width letters
    "1. C\n2. A\n3. B\n4. D\n5. E\n6. F\n7. G\n8. H\n9. I\n10. J",
    "Answer: C A B D E F G H I J",  # "Answer" is a word, not letters
    "c>a>b>d>e>f>g>h>i>j",  # lowercase only when nothing uppercase is there
])
def test_letter_rankings(text):
    p = parse_ranking(text, OPTS)
    assert (p.ranking, p.status) == (ORDER, FULL)


def test_partial_ranking_is_completed_in_presented_order():
    p = parse_ranking("我认为答案是 C，其次是 A。", OPTS)
    assert p.status == PARTIAL and p.found == 2
    assert p.ranking == [2, 0, 1, 3, 4, 5, 6, 7, 8, 9]


def test_option_texts_instead_of_letters():
    p = parse_ranking("最可能是明朝，然后是长江三角洲，再然后是唐朝", OPTS)
    assert p.ranking[:3] == [2, 9, 0] and p.status == PARTIAL
    # "长江三角洲" is matched as one option; its span cannot also match a shorter option.
    opts = OPTS[:8] + ["长江", "长江三角洲"]
    assert parse_ranking("长江三角洲", opts).ranking[0] == 9
    assert parse_ranking("长江三角洲", opts).found == 1


def test_unparseable_and_scores():
    p = parse_ranking("对不起，我无法回答这个问题。", OPTS)
    assert (p.ranking, p.status) == (None, UNPARSEABLE)
    assert parse_ranking("", OPTS).status == UNPARSEABLE
    assert ranking_from_scores([0.1, 0.5, 0.5, -1.0]) == [1, 2, 0, 3]  # ties keep presented order


@pytest.mark.parametrize("text, first", [
    ("I think the answer is C.", 2),  # "I" is the pronoun, not option I
    ("A good answer would be C.", 2),  # "A" is the article
    ("J'ai choisi C", 2),  # "J'" is French
    ("I'd say B", 1),
    ("The answer is A because it fits", 0),  # after "answer is", A is the answer
    ("A and B are both wrong; C is right", 2),
    ("C is correct", 2),
    ("C.", 2), ("(C)", 2), ("答案是C", 2), ("选C", 2), ("Option D.", 3), ("I", 8),
    ("I would rank them: C > A > I > B", 2),
])
def test_english_words_are_not_option_letters(text, first):
    p = parse_ranking(text, OPTS)
    assert p.ranking[0] == first, text


def test_only_answer_letters_are_placed():
    assert parse_ranking("I would rank them: C > A > I > B", OPTS).found == 4  # the pronoun is not placed
    assert parse_ranking("I think the answer is C.", OPTS).found == 1
    assert parse_ranking("A good answer would be C.", OPTS).found == 1


@pytest.mark.parametrize("text", [
    "I think so.",  # a pronoun alone is no answer
    "A good question, hard to say.",
    "J'ai oublié",
    "I would choose a different one",
    "公元前221年（221 BC）",  # an era, not options B and C
    "if i had to",  # lowercase English words
])
def test_words_without_an_answer_stay_unparseable(text):
    p = parse_ranking(text, OPTS)
    assert (p.ranking, p.status, p.found) == (None, UNPARSEABLE, 0), text
