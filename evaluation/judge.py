"""SuperCLUE-style open-ended QA: free answers compared by a judge model.

The QA items are asked without options. A candidate model and a reference
model answer freely; a judge model sees the question, the gold answer and the
two answers, and says which is better (or a tie).

Position bias: LLM judges prefer whichever answer comes first (or second)
more often than chance. So every comparison is judged twice, with the order
swapped, and only a verdict that survives the swap counts:

    first order (candidate as 1, reference as 2)   second order (reference as 1, candidate as 2)
    1 better                                        2 better                 -> win
    2 better                                        1 better                 -> loss
    anything else (a tie, or the same position both times)                   -> tie

A judge that always prefers the first answer therefore yields ties only.
An unparseable verdict is counted apart (`unparsed`) and scored as a tie.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from evaluation.significance import bootstrap_ci

# The one template the judge sees. {question} {gold} {answer_1} {answer_2}.
JUDGE_TEMPLATE = """你是一位严谨的评审。请根据问题和标准答案，判断两个回答中哪一个更准确、更完整。
只看事实是否与标准答案一致，不看篇幅和文风。

问题：{question}
标准答案：{gold}

回答1：{answer_1}

回答2：{answer_2}

请只输出一行结论：“结论：1”表示回答1更好，“结论：2”表示回答2更好，“结论：平局”表示两者一样好或一样差。"""

# The free-answer prompt for the candidate and the reference model.
OPEN_QA_TEMPLATE = "请用一句话回答下面的问题。\n问题：{question}\n回答："

WIN, TIE, LOSS = "win", "tie", "loss"

# Tie words come before the digits: "一样好" and "二者相同" are ties, not answer 一 / 二.
_TIE_WORDS = r"平局|平手|打平|持平|相同|一样|同样|相当|不分|二者|两者|都|tie|draw|equal|same|both|neither"
# A verdict is a keyword, then the first verdict word after it. 结论/verdict/判断 are
# explicit on their own; "answer" only with a colon or "is" ("Answer: 2", "the
# better answer is 1"), since an explanation names answers ("answer 1 is shorter").
_VERDICT = re.compile(
    r"(?:(?:结论|判断|verdict)\s*(?:[:：]|是|为|is)?|answer\s*(?:[:：]|is))\s*(?:回答|answer)?\s*"
    rf"(?P<v>{_TIE_WORDS}|1|2|一|二)", re.I)


def parse_verdict(text: str | None) -> str | None:
    """'1', '2', 'tie', or None when the judge's output names no verdict.

    Each verdict is the first verdict word after its keyword; of several, the
    last stated one wins (judges often restate the template's "结论：1 …
    结论：2 … 结论：平局" before giving their own)."""
    if not text:
        return None
    found = [m.group("v") for m in _VERDICT.finditer(text)]
    if not found:
        bare = text.strip().strip("。.!！ ")
        found = [bare] if bare in {"1", "2", "平局", "tie"} else []
    if not found:
        return None
    v = found[-1].lower()
    return {"1": "1", "一": "1", "2": "2", "二": "2"}.get(v, "tie")


def combine(first: str | None, swapped: str | None) -> str:
    """The candidate's outcome from the two verdicts (see the module docstring)."""
    if first == "1" and swapped == "2":
        return WIN
    if first == "2" and swapped == "1":
        return LOSS
    return TIE


@dataclass
class JudgedItem:
    item_id: str
    question: str
    gold: str
    candidate: str
    reference: str
    verdict_first: str | None
    verdict_swapped: str | None
    outcome: str
    raw_first: str
    raw_swapped: str


def judge_prompts(question: str, gold: str, candidate: str, reference: str) -> tuple[str, str]:
    """The two prompts of one comparison: candidate first, then reference first."""
    first = JUDGE_TEMPLATE.format(question=question, gold=gold, answer_1=candidate, answer_2=reference)
    swapped = JUDGE_TEMPLATE.format(question=question, gold=gold, answer_1=reference, answer_2=candidate)
    return first, swapped


def judge_items(items: Sequence[dict], candidate_answers: Sequence[str], reference_answers: Sequence[str],
                judge: Callable[[list[str]], list[str]]) -> list[JudgedItem]:
    """Judge every item twice (order swapped) with one batched call to `judge`.

    `items` carry item_id, question and answer (the gold); `judge` maps prompts
    to completions in order (a backend's `generate`)."""
    prompts: list[str] = []
    for item, cand, ref in zip(items, candidate_answers, reference_answers, strict=True):
        prompts.extend(judge_prompts(item["question"], item["answer"], cand, ref))
    outputs = judge(prompts)
    if len(outputs) != len(prompts):
        raise ValueError(f"judge returned {len(outputs)} outputs for {len(prompts)} prompts")
    out = []
    for i, (item, cand, ref) in enumerate(zip(items, candidate_answers, reference_answers)):
        raw1, raw2 = outputs[2 * i] or "", outputs[2 * i + 1] or ""
        v1, v2 = parse_verdict(raw1), parse_verdict(raw2)
        out.append(JudgedItem(item["item_id"], item["question"], item["answer"], cand, ref, v1, v2,
                              combine(v1, v2), raw1, raw2))
    return out


def outcome_rates(judged: Sequence[JudgedItem], *, n_resamples: int = 1000, seed: int = 0) -> dict:
    """Win/tie/loss rates with 95% bootstrap intervals, and unparsed verdicts."""
    n = len(judged)
    report: dict = {"n": n, "unparsed": sum((j.verdict_first is None) + (j.verdict_swapped is None) for j in judged)}
    for outcome in (WIN, TIE, LOSS):
        flags = [1.0 if j.outcome == outcome else 0.0 for j in judged]
        point, low, high = bootstrap_ci(flags, n_resamples=n_resamples, seed=seed)
        report[outcome] = {"rate": point, "ci95": [low, high]}
    # One number per model for the closed/open comparison: wins count 1, ties 0.5.
    scores = [1.0 if j.outcome == WIN else 0.5 if j.outcome == TIE else 0.0 for j in judged]
    point, low, high = bootstrap_ci(scores, n_resamples=n_resamples, seed=seed)
    report["score"] = {"rate": point, "ci95": [low, high]}
    return report
