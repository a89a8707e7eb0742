"""Chinese dynasties: an era is a coarse date, not a place.

`唐朝` was typed a place (by its ending 朝 and by the relation 朝代), so it was
offered as somebody's birthplace and an era question drew districts as its
distractors. A dynasty is the value of `所处时代` the way a year is the value
of `出生日期`: it is typed `date` (transforms/entity_type.py) and perturbed
into the dynasties before and after it (transforms/items/numeric.py).
"""
from __future__ import annotations

# In time order.
DYNASTIES = ("夏", "商", "西周", "东周", "秦", "西汉", "东汉", "三国", "西晋", "东晋", "南北朝", "隋", "唐",
             "五代十国", "北宋", "南宋", "元", "明", "清")
# The one-character names, which also take 朝 or 代 (`唐朝`, `唐代`).
ONE_CHARACTER = ("夏", "商", "周", "秦", "汉", "晋", "隋", "唐", "宋", "元", "明", "清")
# Regimes beside that chain (the Three Kingdoms, the Northern and Southern and
# the Five Dynasties, the Liao and Xi Xia): eras too, though no ladder runs
# through them. Names that are also places today (大理) are left out.
OTHER_REGIMES = frozenset({"蜀汉", "曹魏", "东吴", "孙吴", "北魏", "东魏", "西魏", "北齐", "北周", "后梁", "后唐",
                           "后晋", "后汉", "后周", "南唐", "西辽", "西夏", "北元", "南明"})
# Relations whose value is an era; a bare `明` or `清` elsewhere is a name (a 字, a 号).
ERA_RELATIONS = frozenset({"朝代", "所处时代", "时代", "所属朝代", "年代"})


def dynasty_names(value: str, relation: str = "") -> list[str] | None:
    """The dynasties written as `value` is, in time order, when `value` is one
    of them; else None. `唐朝` and `唐代` are eras whatever the relation; a
    bare `唐` or `北宋` only under ERA_RELATIONS."""
    v = value.strip()
    if len(v) == 2 and v[1] in "朝代" and v[0] in ONE_CHARACTER:
        return [d + v[1] for d in ONE_CHARACTER]
    if relation in ERA_RELATIONS and v in ONE_CHARACTER:
        return list(ONE_CHARACTER)
    if relation in ERA_RELATIONS and v in DYNASTIES:
        return list(DYNASTIES)
    return None


def is_dynasty(value: str, relation: str = "") -> bool:
    """A dynasty of the chain (dynasty_names) or another regime (蜀汉, 西辽)."""
    return dynasty_names(value, relation) is not None or value.strip() in OTHER_REGIMES
