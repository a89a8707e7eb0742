"""What kind of value a relation takes, and when a value is the entry's for
several relations (split out of transforms/align.py; issue 10 §2).

A date never fills a person's role, a person never a date's; a title in 《》
names a work. When the entry itself gives one value for two relations that
exclude each other (父亲 and 母亲, 歌手 and 所属专辑), only a cue binding the
mention tells which one the text states.
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.other_roles import NEARBY_RELATIONS
from transforms.quantities import parse_date, parse_quantity
from transforms.role_cues import KIN_RELATIONS, PERSON_RELATIONS
from transforms.text import normalise

_MONTH_DAY = re.compile(r"^\s*\d{1,2}\s*月\s*\d{1,2}\s*[日号]?\s*$")


@lru_cache(maxsize=16384)
def _is_dated(value: str) -> bool:
    """A date (also a yearless one: 校庆日 5月27日) or a quantity: its cues
    bind to the nearest date or number of their sentence."""
    return (parse_date(value) is not None or parse_quantity(value) is not None
            or _MONTH_DAY.match(value) is not None)


@lru_cache(maxsize=16384)
def dated_kind(value: str) -> str | None:
    """The kind of a dated value, "date" (also a yearless one) or "quantity",
    None for any other: what a cue of its relation binds to (one cached call
    per value, where the cue index asked three)."""
    if not _is_dated(value):
        return None
    return "date" if parse_date(value) is not None or _MONTH_DAY.match(value) is not None else "quantity"


_WORK_RELATIONS = re.compile(r"作品|专辑|代表作|中文名|名称|简称|别名|译名|曲目|歌曲|单曲|主题曲|系列|前作|续作|改编|原著|书|剧")


def titled(text: str, s: int, e: int) -> bool:
    """The mention is the whole of a 《title》."""
    return s > 0 and e < len(text) and text[s - 1] == "《" and text[e] == "》"


def work_value(value: str, relation: str | None) -> bool:
    return "《" in value or bool(relation and _WORK_RELATIONS.search(relation))


# What a value of a relation must be, read from the relation's name: a date
# never fills a person's role, a person never a date's. A value of the wrong kind is in another role wherever the
# text names it.
# not 年代 (奥陶纪) nor 日 (节日 春节); a timetable (开放时间, 营业时间) may say
# `不对外开放` or `全天开放`
_DATE_RELATION = re.compile(r"(?:日期|(?<!开放)(?<!营业)时间|年份)$")
_HAS_DIGIT = re.compile(r"[0-9０-９〇一二三四五六七八九十]")


# Dynasties and eras (东晋, 隋末唐初, 唐朝) are never persons.
_D1 = "夏商周秦汉晋隋唐宋元明清辽金"
_DYNASTY = re.compile(rf"^(?:[东西南北][{_D1}]|[{_D1}](?:朝|末|初)|[{_D1}]末[{_D1}]初|[{_D1}])$"
                      r"|^(?:春秋|战国|三国|五代十国|南北朝|民国)(?:时期)?$")
# Titles that give a person's sex: a 父亲 is never a 皇后, a 母亲 never an emperor.
_FEMALE_TITLE = re.compile(r"(?:皇后|太后|妃|夫人|公主|娘娘|女士)$")
_MALE_TITLE = re.compile(r"(?:皇帝|[帝宗祖]|国王|先生)$")
_MALE_ROLES = frozenset({"父亲", "丈夫", "儿子"})
_FEMALE_ROLES = frozenset({"母亲", "妻子", "女儿"})
_ASCII_DIGIT = re.compile(r"[0-9]")


NAME_RELATIONS = frozenset({"中文名", "中文名称", "名称", "外文名", "外文名称", "英文名", "英文名称", "别名", "简称",
                             "全称", "本名", "原名", "又名", "其它译名", "歌曲名称", "专辑名称"})


def shared_value(value: str, relation: str | None, ctx, titled: bool) -> bool:
    """The entry gives this value for another relation that excludes this one:
    two kinship roles, or a person and a non-person relation (a name outside
    《》 reads as the person, inside 《》 as the work). Then only a cue of this
    relation binding the mention tells which one the text states."""
    if ctx is None or not relation or relation in NAME_RELATIONS:
        return False
    others = ctx.value_relations.get(normalise(value), set()) - {relation} - NAME_RELATIONS
    if not others:
        return False
    if relation in KIN_RELATIONS and others & KIN_RELATIONS:
        return True  # one person is never both the father and the mother, or the husband
    if relation in PERSON_RELATIONS:
        return titled and any(r not in PERSON_RELATIONS for r in others)
    # A person may direct and star, write and sing; but a person is never an
    # album, a dynasty or a company: the non-person reading needs its cue.
    return any(r in PERSON_RELATIONS for r in others) and not titled


def is_name_relation(relation: str) -> bool:
    """A relation whose values are names of the entity itself (中文名, 公司名称)."""
    return relation in NAME_RELATIONS or relation.endswith(("名", "名称"))


def subject_name(value: str, relation: str | None, text: str, entity: str, s: int) -> bool:
    """The mention at text[s:] is the entity's own name as the subject of its
    text (`《日光倾城》这首歌由…` on the page of the song 日光倾城), and the value
    is that name for another relation (所属专辑 《日光倾城》, its album of the
    same name): only a cue of the relation binding a mention tells that the
    text states the album, not the song."""
    if (not entity or not text.startswith(entity, s) or not relation or is_name_relation(relation)
            or normalise(value) != normalise(entity)):
        return False
    first = text.find(entity)
    return (first == s and not any(ch in text[:s] for ch in "，,。；;\n")
            and text.find(entity, s + len(entity)) == -1)


def inside_own_name(text: str, s: int, e: int, entity: str) -> bool:
    """The mention text[s:e] shares characters with the entity's own name as
    the text gives it: a piece of it (`拉维尼` in `艾薇儿·拉维尼`) names the
    entity, nothing else; one across its edge (`榆属` in `垂榆属榆科`, the name
    垂榆 and the verb 属) is cut out of it."""
    n = len(entity)
    if not n:
        return False
    j = text.find(entity, max(0, s - n + 1))
    while j != -1 and j < e:
        if (j <= s and e <= j + n and e - s < n) or j < s < j + n < e or s < j < e < j + n:
            return True
        j = text.find(entity, j + 1)
    return False


def after_own_name(text: str, s: int, entity: str, relation: str) -> str | None:
    """The head of the entity's name (its first half at least, short of the
    whole), glued to the mention at text[s:]: `华纳兄弟游戏` on the page of
    华纳兄弟娱乐公司 names one of its companies, and does not state 经营范围
    游戏. The name's head, or None. Not for a person: after the whole name a
    person is listed with the entity (`汪峰章子怡`), after its head too."""
    n = len(entity)
    if s < 2 or n < 3 or text[s - 1] not in entity or relation in PERSON_RELATIONS:
        return None
    for k in range(n - 1, max(2, (n + 1) // 2) - 1, -1):
        if k <= s and text.startswith(entity[:k], s - k):
            return entity[:k]
    return None


def before_own_name(text: str, e: int, names: tuple[str, ...], relation: str) -> str | None:
    """The entity's own name glued after the mention at text[:e]: `故宫书画馆`
    on the page of 武英殿（书画馆） names the hall, so its `故宫` is a piece of
    that name, not a sight beside it. The name, or None. Only for a sight:
    before a person's or a company's name the same words are its attributes
    (DuIE: `南宋李南金` states 朝代, `杭州海康威视` 总部地点, `北京龙泉寺` 所在城市)."""
    if relation not in NEARBY_RELATIONS:
        return None
    return next((n for n in names if len(n) >= 2 and text.startswith(n, e)), None)


@lru_cache(maxsize=4096)
def _relation_kind(relation: str) -> tuple[bool, bool]:
    return bool(_DATE_RELATION.search(relation)), relation in PERSON_RELATIONS


def kind_mismatch(value: str, relation: str | None, head: str = "") -> str | None:
    """Why the value cannot be the relation's, from its form alone, or None.

    The kind a relation wants is read from its name; only clear cases count:
    a date relation without a digit, a person relation given a date, a
    number, a title, a dynasty, or a title of the other sex."""
    if not relation:
        return None
    date_rel, person_rel = _relation_kind(relation)
    if not (date_rel or person_rel):
        return None
    v = value.strip()
    if date_rel and not _HAS_DIGIT.search(v):
        return "not a date"
    if person_rel:
        if parse_date(v) is not None or (parse_quantity(v) is not None and _ASCII_DIGIT.search(v)) or "《" in v:
            return "not a person"
        if _DYNASTY.match(v):
            return "a dynasty, not a person"
        if relation in _MALE_ROLES and _FEMALE_TITLE.search(v):
            return "a woman's title"
        if relation in _FEMALE_ROLES and _MALE_TITLE.search(v):
            return "a man's title"
    return None
