"""Trivial triples: facts a question would give away (issue 8 §2, issue 10 §5).

`(上海大学, 中文名, 上海大学)` or `(上海大学, 简称, 上大)` state the entity's own
name back. Asking "上海大学的中文名是什么？" tests nothing, and a T2KG gold
triple of that kind rewards copying the title. So such triples are marked, and
later stages leave them out of questions; they stay in the pairs (they are
true, and the text states them).

A triple is trivial when it restates the entity's name:
- `name`: the tail equals the head, whatever the relation (`这般发生 所属专辑
  这般发生`: the question holds its answer); or a name relation's tail is
  contained in the head (中文名 反式菊酸 of (±)反式菊酸, 号 雪芹 of 曹雪芹);
- `abbreviation`: a name relation's tail is made of the head's characters
  in their order (简称 上大 of 上海大学), for tails of two characters or more;
- `full_name`: a name relation's tail holds the head's whole name
  (`深圳 中文名 深圳市`, `清华 全称 清华大学`): among options that may not
  contain the gold, the one option holding the asked name is the answer;
- `foreign_name`: a romanisation or foreign-language name of the head
  (外文名, 英文名, 拼音 ...), which restates the name in another script.

Only a name relation (NAME_RELATIONS: 中文名, 简称, 别名, 号 ...) restates the
name by a part of it. Another relation whose value is a part of the name
states a fact: (中国科学院大学, 主管部门, 中国科学院), (顾颉刚全集, 作者,
顾颉刚), (新疆桃, 地理分布, 新疆). Such a triple is not trivial: T2T and
T2KG keep it (a model that extracts it is right). A question still gives
its answer away by the name it shows; templates.skip_tail_reason leaves it
out of QA and KGC as `answer_in_name`.
"""
from __future__ import annotations

from transforms.text import normalise

# Relations whose value is the head's own name in another script.
FOREIGN_NAME_RELATIONS = frozenset({
    "外文名", "外文名称", "英文名", "英文名称", "英文", "外文", "拼音", "汉语拼音", "英文全称", "外语名称",
    "英文简称", "外文简称", "日文名", "日文名称", "韩文名", "拉丁学名", "罗马音",
})
# Relations that name the head itself (their value is checked, not assumed):
# its names (中文名, 全称), other names (别名, 又称, 俗名, 学名) and a person's
# 字 and 号 (曹雪芹 号 雪芹); items/exclusion.ALIAS_RELATIONS holds the same.
NAME_RELATIONS = frozenset({"中文名", "中文名称", "名称", "全称", "中文全称", "简称", "别称", "别名", "又名", "本名",
                            "原名", "又称", "昵称", "俗名", "学名", "中文学名", "其他名称", "外号", "字", "号"})


def _is_subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def trivial_reason(head: str, relation: str, tail: str) -> str | None:
    """Why (head, relation, tail) restates the head's name, or None.

    Pure and cheap: normalised strings (width, case, spaces, punctuation)."""
    h, t = normalise(head or ""), normalise(tail or "")
    if not t:
        return None
    if relation in FOREIGN_NAME_RELATIONS:
        return "foreign_name"
    if t == h:
        return "name"
    if relation not in NAME_RELATIONS:
        return None  # a part of the name as another relation's value is a fact (the module doc)
    if t in h:
        return "name"
    if len(t) >= 2 and _is_subsequence(t, h):
        return "abbreviation"
    if len(h) >= 2 and h in t:
        return "full_name"
    return None
