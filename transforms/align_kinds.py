"""What kind of value a relation takes, and when a value is the entry's for
several relations (split out of transforms/align.py; issue 10 §2).

A date never fills a person's role, a person never a date's; a title in 《》
names a work; a school is no one's nationality, a year no company's seat
nor its capital, a country no school (_not_of_kind). When the entry itself
gives one value for two relations that exclude each other (父亲 and 母亲,
歌手 and 所属专辑), only a cue binding the mention tells which one the text
states.
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.align_forms import DEMONYM_RELATIONS, DYNASTY_RELATIONS, NATIONALITY_RELATIONS, PLACE_RELATIONS
from transforms.places import COUNTRIES
from transforms.quantities import parse_date, parse_quantity
from transforms.role_cues import ALMA_MATER, FEMALE_KIN, KIN_RELATIONS, MALE_KIN, PERSON_RELATIONS
from transforms.sight_roles import NEARBY_RELATIONS
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
# An organisation is no one's director, actor or parent; a producer, an
# author or a founder may be a company or a body (`制片人 吉卜力工作室`).
_BODY = re.compile(r"(?:公司|集团|制片厂|电影厂|电视台|影业|传媒|影视|出版社|委员会|协会|学会|大学|学院)$")
_MAY_BE_A_BODY = frozenset({"制片人", "作者", "创始人", "出品人"})
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
    return next((n for n in names if len(n) >= 2 and text.startswith(n, e)), None) or _own_name_told_short(text, e, names)


def _own_name_told_short(text: str, e: int, names: tuple[str, ...]) -> str | None:
    """`云佛山溶洞` on the page of 云佛山大溶洞: a sight's name that opens the
    entity's own name, followed by that name's last characters (its kind,
    `溶洞`) with a word between left out, is the entity told short (rule 6),
    not the sight it is named after. The rest of the name as the text gives it, or None."""
    for n in names:
        for k in range(2, len(n) - 2):
            if e - k >= 0 and text.startswith(n[:k], e - k):
                rest = n[k:]
                # one or two characters of the rest left out, two or more given
                told = next((rest[j:] for j in (1, 2) if len(rest) - j >= 2 and text.startswith(rest[j:], e)), None)
                if told:
                    return told
    return None


# The kinds a relation's value may have beside a date and a person, by the
# relation's name: a person's place (国籍, 出生地, 祖籍), any other place
# (总部地点, 所在城市), an amount, a school, an award, a person's style name,
# a company, a dynasty, a name of the entity itself.
_PERSON_PLACES = DEMONYM_RELATIONS | NATIONALITY_RELATIONS
_AMOUNT_RELATIONS = frozenset({"注册资本", "注册资金", "票房", "总票房", "占地面积", "面积", "人口数量", "海拔"})
_STYLE_NAMES = frozenset({"号", "字", "笔名", "艺名"})
_COMPANY_RELATIONS = frozenset({"出品公司", "发行公司", "制作公司", "经纪公司", "唱片公司", "出版社", "出版公司"})
# A person's style name (`东坡居士`, `铁冠道人`) is no dynasty.
_STYLE_END = re.compile(r"(?:居士|道人|山人|先生)$")
_DATE_UNIT = re.compile(r"[年月日]")
# How a school's name ends (四川省委党校, 北京电影学院); the items stage types its options by it too.
SCHOOL_NAME = re.compile(r"(?:大学|学院|中学|小学|学校|学堂|党校|研究生院|分校|附中|高中|职中|技校)$")
_AWARD = re.compile(r"奖项?$")
_NUMBER = re.compile(r"[0-9０-９〇一二三四五六七八九十两百千万亿]")


def _date_form(v: str) -> bool:
    """A date written with digits (`2009年`, `2014年3月6日`, `2月19日`)."""
    return _ASCII_DIGIT.search(v) is not None and (parse_date(v) is not None or _MONTH_DAY.match(v) is not None)


def _amount_form(v: str) -> bool:
    """A sum of money or a count (`1亿元`, `500万`), not a date or a duration."""
    q = parse_quantity(v)
    return (q is not None and q[1] != "time" and parse_date(v) is None
            and (q[1] in ("cny", "usd") or "万" in v or "亿" in v))


@lru_cache(maxsize=4096)
def _relation_kind(relation: str) -> str | None:
    if _DATE_RELATION.search(relation):
        return "date"
    if relation in PERSON_RELATIONS:
        return "person"
    if relation in _PERSON_PLACES:
        return "person_place"
    if relation in PLACE_RELATIONS:
        return "place"
    if relation in _AMOUNT_RELATIONS:
        return "amount"
    if relation in ALMA_MATER:
        return "school"
    if "奖" in relation:
        return "award"
    if relation in _STYLE_NAMES:
        return "style_name"
    if relation in _COMPANY_RELATIONS:
        return "company"
    if relation in DYNASTY_RELATIONS:
        return "dynasty"
    if is_name_relation(relation):
        return "name"
    return None


def _not_of_kind(v: str, kind: str) -> str | None:
    """Why `v` is plainly not a value of `kind` (_relation_kind), or None.
    `国籍 中央戏剧学院`, `注册资本 2009年`, `毕业院校 中国`, `获奖 北京大学`,
    `号 北宋`: DuIE's tails swapped between relations are of these; a Baike
    cell of them is a wrong cell."""
    if kind in ("person_place", "place") and (_date_form(v) or _amount_form(v)):
        return "a date or an amount, not a place"
    # (a dynasty is a historical person's 国籍 in DuIE: `多尔衮 国籍 清朝`)
    if kind == "person_place" and (SCHOOL_NAME.search(v) or _AWARD.search(v)):
        return "a school or an award, not a place"
    if kind == "amount" and (_date_form(v) or not _NUMBER.search(v)):
        return "no amount"
    if kind == "school" and (v in COUNTRIES or _AWARD.search(v) or _date_form(v)):
        return "a country, an award or a date, not a school"
    if kind == "award" and (SCHOOL_NAME.search(v) or v in COUNTRIES):
        return "a school or a country, not an award"
    if kind == "style_name" and (_DYNASTY.match(v) or _date_form(v)):
        return "a dynasty or a date, not a name"
    if kind in ("name", "company") and _date_form(v) and _DATE_UNIT.search(v):
        return "a date, not a name"
    if kind == "dynasty" and (_STYLE_END.search(v) or _date_form(v)):
        return "a style name or a date, not a dynasty"
    return None


def kind_mismatch(value: str, relation: str | None, head: str = "") -> str | None:
    """Why the value cannot be the relation's, from its form alone, or None.

    The kind a relation wants is read from its name; only clear cases count:
    a date relation without a digit or given an amount, a person relation
    given a date, a number, a title, a dynasty, or a title of the other sex,
    and the plain cases of _not_of_kind. (`head` is not read.)"""
    if not relation:
        return None
    return _kind_mismatch(value, relation)


@lru_cache(maxsize=16384)
def _kind_mismatch(value: str, relation: str) -> str | None:
    """kind_mismatch, memoised: asked for every triple (and again by the cue
    index for a dated one), and (value, relation) pairs repeat across entries."""
    kind = _relation_kind(relation)
    if kind is None:
        return None
    v = value.strip()
    if kind == "date":
        if not _HAS_DIGIT.search(v):
            return "not a date"
        return "an amount, not a date" if _amount_form(v) else None
    if kind != "person":
        return _not_of_kind(v, kind)
    if parse_date(v) is not None or (parse_quantity(v) is not None and _ASCII_DIGIT.search(v)) or "《" in v:
        return "not a person"
    if _DYNASTY.match(v):
        return "a dynasty, not a person"
    if relation not in _MAY_BE_A_BODY and _BODY.search(v):
        return "an organisation, not a person"
    if relation in MALE_KIN and _FEMALE_TITLE.search(v):
        return "a woman's title"
    if relation in FEMALE_KIN and _MALE_TITLE.search(v):
        return "a man's title"
    return None
