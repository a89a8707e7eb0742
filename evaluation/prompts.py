"""Every Chinese prompt template of the evaluation, in one readable place.

Multiple choice (QA, KGC) without log-likelihoods asks for the full ranking
of the ten option letters, as the CDTP authors' code does; with
log-likelihoods the prompt ends at "答案：" and each option is scored as its
continuation. T2T asks for a description of the triples; T2KG follows
Text2KGBench (ontology concepts and relations, then the sentence, answers as
`关系(主体, 客体)` one per line). k-shot demonstrations come first, each one a
complete prompt body followed by its gold answer.
"""
from __future__ import annotations

from typing import Any, Sequence

LETTERS = "ABCDEFGHIJ"

INSTRUCTION = {
    "qa": "请回答下面的问题。",
    "kgc": "请补全下面知识图谱三元组中缺失的实体。",
}

RANKING_INSTRUCTION = (
    "下面有十个候选答案。请按它们是正确答案的可能性从高到低，给出全部十个选项字母的排序，"
    "只输出字母，用“>”分隔，例如：C > A > B > D > E > F > G > H > I > J。"
)

MC_BODY = "问题：{question}\n选项：\n{options}\n"
MC_RANK_CUE = "排序："
MC_LL_BODY = "问题：{question}\n"
MC_LL_CUE = "答案："

T2T_INSTRUCTION = "请根据下面的三元组写一段通顺的中文描述，涵盖全部三元组，不要添加三元组以外的信息。"
T2T_BODY = "三元组：\n{triples}\n"
T2T_CUE = "描述："

T2KG_INSTRUCTION = (
    "请根据给定的本体关系，从句子中抽取所有三元组。每行输出一个三元组，格式为：关系(主体, 客体)。"
    "只使用给定的关系，不要输出其他内容。"
)
T2KG_BODY = "{concepts}本体关系：{relations}\n句子：{text}\n"
T2KG_CONCEPTS = "本体概念：{concepts}\n"
T2KG_CUE = "三元组：\n"

DEMO_HEADER = "示例{n}：\n"
TEST_HEADER = "现在请完成：\n"


def option_block(options: Sequence[str]) -> str:
    return "\n".join(f"{LETTERS[i]}. {opt}" for i, opt in enumerate(options))


def triples_block(triples: Sequence[dict] | None) -> str:
    return "\n".join(f"({t['head']}, {t['relation']}, {t['tail']})" for t in (triples or []))


def gold_ranking_text(answer_index: int, n: int = 10) -> str:
    """A demonstration's answer: the gold letter first, the others in order."""
    order = [answer_index] + [i for i in range(n) if i != answer_index]
    return " > ".join(LETTERS[i] for i in order)


def gold_triples_text(triples: Sequence[dict] | None) -> str:
    return "\n".join(f"{t['relation']}({t['head']}, {t['tail']})" for t in (triples or []))


def ontology_lines(ontology: dict | None) -> tuple[str, str]:
    """(concepts line, relation list) as Text2KGBench shows them: `关系(定义域, 值域)`."""
    if not ontology:
        return "", "（未给定）"
    labels = {c.get("qid"): c.get("label") for c in ontology.get("concepts") or []}
    concepts = "、".join(c["label"] for c in ontology.get("concepts") or [] if c.get("label"))
    rels = []
    for r in ontology.get("relations") or []:
        dom, rng = labels.get(r.get("domain")), labels.get(r.get("range"))
        rels.append(f"{r['label']}({dom}, {rng})" if dom and rng else r["label"])
    return (T2KG_CONCEPTS.format(concepts=concepts) if concepts else ""), ("、".join(rels) or "（未给定）")


def body_and_answer(item: dict[str, Any], *, loglik: bool, ontology: dict | None = None) -> tuple[str, str, str]:
    """(body, cue, gold answer text) of one item; the answer is used for demonstrations."""
    task = item["task"]
    if task in ("qa", "kgc"):
        if loglik:
            return MC_LL_BODY.format(question=item["question"]), MC_LL_CUE, item.get("answer") or ""
        body = MC_BODY.format(question=item["question"], options=option_block(item["options"]))
        return body, MC_RANK_CUE, gold_ranking_text(int(item["answer_index"]), len(item["options"]))
    if task == "t2t":
        return T2T_BODY.format(triples=triples_block(item.get("triples"))), T2T_CUE, item.get("reference") or ""
    if task == "t2kg":
        concepts, rels = ontology_lines(ontology)
        body = T2KG_BODY.format(concepts=concepts, relations=rels, text=item.get("text") or "")
        return body, T2KG_CUE, gold_triples_text(item.get("gold_triples"))
    raise ValueError(f"unknown task {task!r}")


def instruction(task: str, *, loglik: bool) -> str:
    if task in ("qa", "kgc"):
        return INSTRUCTION[task] + ("" if loglik else RANKING_INSTRUCTION)
    return T2T_INSTRUCTION if task == "t2t" else T2KG_INSTRUCTION


def build_prompt(item: dict[str, Any], demos: Sequence[dict[str, Any]] = (), *, loglik: bool = False,
                 ontology: dict | None = None) -> str:
    """The full prompt: instruction, demonstrations (body + answer), then the item's body and cue."""
    parts = [instruction(item["task"], loglik=loglik), "\n\n"]
    for n, demo in enumerate(demos, 1):
        body, cue, answer = body_and_answer(demo, loglik=loglik, ontology=ontology)
        parts += [DEMO_HEADER.format(n=n), body, cue, answer, "\n\n"]
    body, cue, _ = body_and_answer(item, loglik=loglik, ontology=ontology)
    if demos:
        parts.append(TEST_HEADER)
    parts += [body, cue]
    return "".join(parts)
