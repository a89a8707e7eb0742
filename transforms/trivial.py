"""Trivial triples: facts a question would give away (issue 8 §2, issue 10 §5).

`(上海大学, 中文名, 上海大学)` or `(上海大学, 简称, 上大)` state the entity's own
name back. Asking "上海大学的中文名是什么？" tests nothing, and a T2KG gold
triple of that kind rewards copying the title. So such triples are marked, and
later stages leave them out of questions; they stay in the pairs (they are
true, and the text states them).

A triple is trivial when its tail is the entity's own name, or is made of it:
- `name`: the tail equals the head, or is contained in it (中文名 = entity);
- `abbreviation`: the tail's characters are a subsequence of the head's
  (简称 上大 of 上海大学), for tails of two or more CJK characters;
- `full_name`: a name relation's tail holds the head's whole name
  (`深圳 中文名 深圳市`, `清华 全称 清华大学`): among options that may not
  contain the gold, the one option holding the asked name is the answer;
- `foreign_name`: a romanisation or foreign-language name of the head
  (外文名, 英文名, 拼音 ...), which restates the name in another script.
"""
from __future__ import annotations

from transforms.text import normalise

# Relations whose value is the head's own name in another script.
FOREIGN_NAME_RELATIONS = frozenset({
    "外文名", "外文名称", "英文名", "英文名称", "英文", "外文", "拼音", "汉语拼音", "英文全称", "外语名称",
    "英文简称", "外文简称", "日文名", "日文名称", "韩文名", "拉丁学名", "罗马音",
})
# Relations that name the head itself (their value is checked, not assumed).
NAME_RELATIONS = frozenset({"中文名", "中文名称", "名称", "全称", "中文全称", "简称", "别称", "别名", "又名", "本名"})


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
    if t == h or (len(t) >= 1 and t in h):
        return "name"
    if relation in NAME_RELATIONS and len(t) >= 2 and _is_subsequence(t, h):
        return "abbreviation"
    if relation in NAME_RELATIONS and len(h) >= 2 and h in t:
        return "full_name"
    return None
