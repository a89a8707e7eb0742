"""A mention the words around it turn into another value (issue 10 §2).

`耐阴` inside `较耐阴` is a milder habit, `红色` inside `深红色` another
colour, `球形` inside `近球形` another shape, `灌木` inside `亚灌木` another
kind of plant (a `小乔木` is still a tree: a narrower kind states the
broader), and `陕西汉水流域` followed by `以南` a region beyond it: the
text names the value's words, but not the value (docs/alignment.md, rules 2
and 4; "Plants"). The kind of value is read from the value itself (a colour
ends in 色, a shape in 形, a habit starts with 耐, 喜 or 抗), not from the
relation's name, so the check holds for any source that has such values.
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.role_cues import ADDRESS_RELATIONS
from transforms.sight_roles import NEARBY_RELATIONS

# A degree before a habit (`稍耐阴`, `较耐寒`, `不耐寒`), a hedge (`有一定的耐旱性`:
# some tolerance), or a life stage (`幼苗耐荫` says it of the young plant only).
_HABIT = re.compile(r"^(?:耐|喜|抗|怕|忌)")
_DEGREE_BEFORE = re.compile(r"(?:稍|较|略|颇|极|尚|微|很|甚|不|比较|最|非常|十分|相当|一定的?|幼苗|幼树|小苗|苗期)$")
# `也有一定的抗旱性、耐寒性和抗风性`: a hedge before a list of habits said
# as nouns (…性) holds for every item of it, not the first alone.
_HEDGED_HABIT_LIST = re.compile(r"一定的?(?:(?:耐|喜|抗)[\u4e00-\u9fff]{1,4}性[、和及与])+$")
# A shade or a second colour before a colour (`深红色`, `桔红色`, `灰绿色`).
_COLOUR = re.compile(r"^[\u4e00-\u9fff]{1,3}色$")
_SHADE_BEFORE = re.compile(r"[深浅淡暗亮鲜嫩粉桔橘橙紫黄绿蓝青灰褐白黑红金银棕赭乳墨翠]$")
# An approximation or another outline before a shape (`近球形`, `宽卵形`, `倒卵形`).
_SHAPE = re.compile(r"^[\u4e00-\u9fff]{1,6}[形状]$")
_OUTLINE_BEFORE = re.compile(r"(?:近|宽|阔|狭|长|短|倒|半|扁|卵|椭圆|椭|圆|披针|心|肾|线|三角|状)$")
# A sub-kind before a kind of plant (`亚灌木`, `半灌木`: neither is a shrub),
# and 状 after it (`乔木状`: shaped like a tree, which a palm is not); a
# thicket or a wood after it is where the plant grows (`生于灌木丛中`, `乔木林下`).
_PLANT_KIND = re.compile(r"^(?:乔木|灌木|草本|藤本)")
_SUB_KIND_BEFORE = re.compile(r"[亚半]$")
# (kind of value, what before its mention makes it another value)
_KINDS = ((_HABIT, _DEGREE_BEFORE), (_COLOUR, _SHADE_BEFORE), (_SHAPE, _OUTLINE_BEFORE),
          (_PLANT_KIND, _SUB_KIND_BEFORE))
# A region beyond a place (`陕西汉水流域以南`); for a sight or an address
# the same words say where the entity is by it (`位于故宫以北`).
_BEYOND_AFTER = re.compile(r"以[东南西北外]")
_BY_A_PLACE = NEARBY_RELATIONS | ADDRESS_RELATIONS


@lru_cache(maxsize=8192)
def _modifier_before(value: str) -> re.Pattern | None:
    """What may stand before a mention of `value` to make it another value."""
    return next((modifier for kind, modifier in _KINDS if kind.search(value)), None)


def modified_mention(value: str, text: str, s: int, e: int, relation: str | None = None) -> str | None:
    """The words that make the mention text[s:e] of `value` another value,
    or None."""
    modifier = _modifier_before(value)
    if modifier is not None:
        m = modifier.search(text, max(0, s - 3), s)
        if m:
            return m.group() + text[s:e]
        if modifier is _DEGREE_BEFORE:
            m = _HEDGED_HABIT_LIST.search(text, max(0, s - 30), s)
            if m:
                return m.group() + text[s:e]
        if modifier is _SUB_KIND_BEFORE and text[e:e + 1] in ("状", "丛", "林"):
            return text[s:e + 1]
    if text.startswith("以", e) and relation not in _BY_A_PLACE:
        after = _BEYOND_AFTER.match(text, e)
        if after:
            return text[s:e] + after.group()
    return None
