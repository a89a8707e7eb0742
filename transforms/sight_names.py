"""A sight by another form of its name (issue 10 §3, the `sight` level).

KdConv's travel sights name the sights around them (`周边景点`) as a visitor's
guide does, and a text names the same sight its own way: without the
generic head (`八大处` for 八大处公园), by an older or a common name (`紫禁城`
for 故宫, `北大` for 北京大学), without the places before it (`金海湖` for
北京平谷金海湖), a Great Wall section the other way round (`长城八达岭`) or
by its pass (`居庸关`), a sight inside the entity without the entity's name
(`双清别墅` for 香山双清别墅 on the page of 香山公园). A
form that is a place or an everyday word itself is no name of the sight
(`石景山` of 石景山游乐园, `世界` of 世界公园), and a `周边景点` cell that
names the entity itself is none of its neighbours (`names_the_entity`).
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.mentions import common_nouns, jieba_place_names
from transforms.text import clause_span, find_all
from transforms.value_variants import BRACKETS

# The generic head of a sight's name: `八大处` names 八大处公园, `香山` 香山公园.
_HEADS = "国家森林公园|国家地质公园|国家湿地公园|森林公园|地质公园|湿地公园|遗址公园|风景名胜区|旅游风景区|风景区|旅游区|度假区|艺术区|中心区|景区|公园"
_SIGHT_HEAD = re.compile(rf"^(.{{2,}}?)(?:{_HEADS})$")
_HEAD_AFTER = re.compile(_HEADS)
# Other names of a few sights a text uses as often as the cell's.
SIGHT_OTHER_NAMES = {"故宫": ("紫禁城", "故宫博物院"), "鸟巢": ("国家体育场",), "国家体育场": ("鸟巢",),
                     "水立方": ("国家游泳中心",), "国家游泳中心": ("水立方",),
                     "北京大学": ("北大", "燕园"), "清华大学": ("清华",), "中国人民大学": ("人大", "人民大学"),
                     "北京师范大学": ("北师大",), "北京航空航天大学": ("北航",), "北京外国语大学": ("北外",),
                     "798艺术区": ("798",)}


# A short name followed by 人 or 学 names its people or a school (`清华人`,
# `清华学堂`), not the sight.
_PEOPLE_OR_SCHOOL = re.compile("[人学]")


# A sight inside a larger one is named after it (`北京植物园樱桃沟`): the
# text names the smaller one alone (`沿溪而上便是樱桃沟`).
_INNER_SIGHT = re.compile(r"^.{2,}?(?:植物园|动物园|公园|风景区|景区|度假区|寺)(.{3,})$")
# An honour before a temple's name (`敕赐瑞云禅寺`), or the dynasty before a
# tomb's (`明定陵`), that the text leaves out.
_HONOUR = re.compile(r"^(?:敕赐|敕建|御赐|御制)(.{2,})$|^[明清](.{1,3}陵)$")


@lru_cache(maxsize=8192)
def _sight_names(v: str) -> tuple[str, ...]:
    """`八大处公园` -> 八大处; `大觉寺` -> 大觉禅寺 (and back); 故宫 -> 紫禁城;
    `八达岭长城` -> 长城八达岭; `卧虎山长城` -> 卧虎长城;
    `房山百花山景区` -> 百花山 (a district before it); `北京植物园樱桃沟` ->
    樱桃沟; `敕赐瑞云禅寺` -> 瑞云禅寺, 瑞云寺 (`v`: the cell's name without
    its bracket note)."""
    names = [v]
    if "·" in v:  # two joined names (`云居寺·石经山`): written together, or the first alone
        names += ["".join(v.split("·")), v.split("·")[0]]
    for rx in (_HONOUR, _INNER_SIGHT):
        m = rx.match(v)
        if m:
            names.append(next(g for g in m.groups() if g))
    m = _SIGHT_HEAD.match(names[-1])
    if m:
        names.append(m.group(1))
    if m or _NATURAL.search(names[-1]):
        # the places before a name (`房山百花山`, `北京平谷金海湖`): the name
        # alone; not before a kind of building (`北京海洋馆` is no 海洋馆)
        names += _without_places(names[-1])
    for n in list(names):
        names += _wall_names(n)
        if n.endswith("禅寺"):
            names.append(n[:-2] + "寺")
        elif n.endswith("寺") and len(n) >= 3:
            names.append(n[:-1] + "禅寺")
    return tuple(dict.fromkeys(names[1:])) + SIGHT_OTHER_NAMES.get(v, ())


_NATURAL = re.compile(r"(?:湖|山|河|水库|峡|谷|沟|洞|泉|岛|寨)$")


def _without_places(name: str) -> list[str]:
    """`北京平谷金海湖` -> [平谷金海湖, 金海湖]: known places of two or three
    characters (or a district's or county's name without its unit: 平谷 of
    平谷县) taken off the front while three characters are left."""
    places = jieba_place_names()
    out = []
    while True:
        name = next((name[k:] for k in (2, 3) if len(name) - k >= 3
                     and (name[:k] in places or name[k:] in places
                          or any(name[:k] + unit in places for unit in "区县市"))), "")
        if not name:
            return out
        out.append(name)


def _wall_names(name: str) -> list[str]:
    """A section of the Great Wall the other way round: `八达岭长城` ->
    长城八达岭; `卧虎山长城` -> 卧虎长城 too. The pass alone only when it is
    named a pass (`居庸关` of 居庸关长城, `将军关`): `古北口` and `八达岭`
    are towns and mountains as often as walls."""
    if not name.endswith("长城") or len(name) < 4:
        return []
    stem = name[:-2]
    out = ["长城" + stem] + ([stem] if stem.endswith("关") and len(stem) >= 3 else [])
    if stem.endswith("山") and len(stem) >= 3:
        out.append(stem[:-1] + "长城")
    return out


# What is built inside an area named after it (`冶仙塔` of 冶仙塔旅游风景区),
# where a valley or a mountain (`白羊沟` of 白羊沟风景区) is the area itself.
_BUILT = re.compile(r"[塔寺庙殿阁楼桥亭观宫院祠堂碑门]$")


def names_the_entity(value: str, own_names: tuple[str, ...]) -> bool:
    """The sight of a `周边景点` cell is the entity itself under another form
    of its name: `云龙涧风景区` on the page of 云龙涧, `延庆三里河湿地公园`
    on the page of 三里河湿地生态公园 (a park of the same kind whose name
    holds the stem), `白羊沟` on the page of 白羊沟风景区 (the valley the
    area is named after), `三峪风景区` on the page of 云蒙三峪景区."""
    v = BRACKETS.sub("", value).strip()
    # forms without the value's head: `冶仙塔` on the page of 冶仙塔旅游风景区
    # is the tower the area is named after, not the area; a wall's pass is
    # no name of an area named after it either
    names = set(_sight_names(v)) - set(SIGHT_OTHER_NAMES.get(v, ())) - set(_wall_names(v))
    stem = _SIGHT_HEAD.match(v)
    for own in own_names:
        if own == v or own in names:
            return True
        head = _SIGHT_HEAD.match(own)
        if not head:
            continue
        v_head, own_head = v[len(stem.group(1)):] if stem else "", own[len(head.group(1)):]
        if (any(len(n) >= 3 and n in own for n in names)
                and not (stem and not (v_head.endswith(own_head) or own_head.endswith(v_head)))):
            return True  # a park of the same kind (湿地公园 is a 公园) whose name holds the stem
        if (head.group(1) == v and not _BUILT.search(v)) or (
                stem and len(stem.group(1)) >= 2 and head.group(1).endswith(stem.group(1))):
            # `白羊沟` of 白羊沟风景区; `三峪风景区` of 云蒙三峪景区
            return True
    return False


# A name followed by a unit of the administration (`十渡镇`, `顺义城区`) is a
# place: a sight's stem the text uses so (顺义 of 顺义公园) names the place.
_ADMIN_AFTER = r"(?:[镇乡村区县市]|城区|地区|境内)"


def sight_spans(value: str, text: str, own_names: tuple[str, ...] = ()) -> list[tuple[int, int]]:
    """A sight by another form of its name (_sight_names), or by the cell's
    name with a generic head the text adds (`圆明园遗址公园` for 圆明园). A
    form that is a place or a common word itself (_place_or_word) is no name
    of the sight, nor is one the text uses as a place name anywhere, unless
    a generic head follows it (`金海湖镇金海湖风景区`: the town, then the
    sight)."""
    v = BRACKETS.sub("", value).strip()
    out = []
    for n in _sight_names(v):
        if _place_or_word(n):
            continue
        a_place = re.search(re.escape(n) + _ADMIN_AFTER, text) is not None
        for j in find_all(text, n):
            head = _HEAD_AFTER.match(text, j + len(n))
            if (a_place and not head) or (len(n) == 2 and _PEOPLE_OR_SCHOOL.match(text, j + 2)):
                continue
            # with the generic head the text gives it, the mention is the sight's whole name
            out.append((j, head.end() if head else j + len(n)))
    for j in find_all(text, v):
        head = _HEAD_AFTER.match(text, j + len(v))
        if head:
            out.append((j, head.end()))
    if not out:
        out = _with_another_head(v, text)
    if not out:
        out = _inside_the_entity_spans(v, text, own_names)
    return sorted(set(out))


def _inside_the_entity_spans(v: str, text: str, own_names: tuple[str, ...]) -> list[tuple[int, int]]:
    """A sight inside the entity, named after it (`野鸭湖湿地博物馆` on the
    page of 野鸭湖国家湿地公园, its stem 野鸭湖 opening the name): on the
    entity's own page the text names it without the entity's name
    (`景区内的湿地博物馆`), as a guide inside the park does. What is left
    must be a name of three characters or more, not a generic head alone
    (`森林公园` of 白水寺森林公园 is the entity's kind, not a sight in it).
    The text names what is left as a name of its own (not inside another:
    `民俗博物馆`, `北京植物园`, `一座小型游乐园`) and inside the entity
    (`园内`, `景区内的`, `公园里` earlier in its clause)."""
    for own in own_names:
        head = _SIGHT_HEAD.match(own)
        for stem in dict.fromkeys((own, head.group(1) if head else own)):
            rest = v[len(stem):]
            if len(stem) >= 2 and v.startswith(stem) and len(rest) >= 3 and not _HEADS_ONLY.fullmatch(rest):
                return [(j, j + len(rest)) for j in find_all(text, rest)
                        if (j == 0 or not _NAME_GOES_ON.match(text, j - 1))
                        and _INSIDE_BEFORE.search(text, clause_span(text, j)[0], j)]
    return []


# A character that goes on with a name before it (`民俗` of 民俗博物馆); a joiner,
# a locating word or a verb of having closes what comes before a name.
_NAME_GOES_ON = re.compile(r"(?![的有是、和与及在着])[\u4e00-\u9fff]")
# The entity holding what follows in its clause (`园内有`, `景区内的`, `公园里`, `园中`).
_INSIDE_BEFORE = re.compile(r"[内里]|[园区馆寺宫]中")


_HEADS_ONLY = re.compile(rf"(?:{_HEADS}|自然风景区)")


# The heads a stem is told with in `_with_another_head`: the generic heads,
# and those too common to take off a name alone (`亲子` of 亲子游乐园 is a
# kind of restaurant as often), which a head the text gives makes safe.
_WIDER_HEAD = re.compile(rf"^(.{{2,}}?)(?:自然风景区|游乐园|乐园|景园|{_HEADS})$")


def _with_another_head(v: str, text: str) -> list[tuple[int, int]]:
    """The sight's stem told with another generic head (`原始部落景区` for
    原始部落游乐园), or the end of its name of three characters or more,
    the places before it left out (`孤山寨景区` for 十渡孤山寨; round 16 and 18:
    a place before a sight's name only locates it): the head the text gives
    makes it a sight's name, not a place or a word."""
    m = _WIDER_HEAD.match(v)
    stem = m.group(1) if m else v
    for k in range(0, len(stem) - 2):
        tail = stem[k:]
        if _place_or_word(tail):
            continue
        # with the places before it left out, the mention must start a name:
        # `八达岭野生动物园` is another park than 北京野生动物园
        out = [(j, head.end()) for j in find_all(text, tail)
               if (head := _HEAD_AFTER.match(text, j + len(tail)))
               and (k == 0 or j == 0 or not _CJK.match(text[j - 1]) or text[j - 1] in _BEFORE_A_NAME)]
        if out:
            return out
    return []


_CJK = re.compile(r"[\u4e00-\u9fff]")
# Words a sight's name follows (`著名的原始部落景区`, `有孤山寨景区`).
_BEFORE_A_NAME = frozenset("的在有是和与及为到往至从")


@lru_cache(maxsize=4096)
def _place_or_word(form: str) -> bool:
    """A sight's stem that is a district's or a town's name (`石景山` of
    石景山游乐园 is 石景山区, `南口` of 南口公园 is 南口镇), or one of the
    language's most common nouns (`世界` of 世界公园), names the place or
    the thing, not the sight."""
    places = jieba_place_names()
    return any(form + unit in places for unit in "区镇乡") or form in common_nouns()
