"""The kind a name has as an option, finer than its entity type.

First the types that lump kinds together (`option_type`): a dynasty is an
era, a family or a genus a taxon, a school a school. Then the kinds inside a
type. Entity typing gives every work one type, `work` (a film or series, a
song or album, a book or poem, a play of the opera stage), and so did the options:
`下列哪一项是蔡依林的代表作品？` offered films (七武士, 西部世界) beside her
song 舞娘, and a director's 代表作品 offered the album 《陈奕迅》, which a
reader strikes out without knowing the answer. A work's kind comes from its
own page where it has one (the relations it states, 导演 or 所属专辑, then
the head noun of its defining phrase, `…的一首歌曲`), and for a value of
`代表作品` from the field of the person it belongs to (their 职业 and their
defining phrase: 歌手 is music, 导演 the screen, 诗人 literature, 京剧 the
stage: 梅兰芳's 《贵妃醉酒》 stood among poems). Evidence
of two kinds, or none, leaves the kind unknown: the work stays a plain `work`.

A person's field is the kind of their works, and is told the same way: by
their page, or by the credit they are the value of (歌手 and 作曲 are
musicians, 导演 and 主演 people of the screen, 作者 a writer).

A place is a country, a site (a structure, a line, a reserve, a sight:
长城, 京沪高速铁路, 卧龙国家级自然保护区) or a place people live in, a town
or a region (`伦敦` among 韩国 and 德国 was found unread, and so were 长城 and
京沪高速铁路 among the answers to `梅兰芳出生在哪里？`). A country is told by its
name or by its page (a capital, an anthem: a state no list holds, 纽埃, a
state of the past, 大理国); a work's kind, last, by the relation only a book
states (作者) when nothing else on its page tells.

Another name of a thing (the value of 别名, 简称, 号…) is of the kind
`alias`: it is asked among other aliases (诗仙 among 诗圣 and 青莲居士), and
never offered as a thing of its own (京剧's 京戏 as 梅兰芳's 代表作品,
深圳's 鹏城 as a birthplace).

Where a species lives (the value of 地理分布, 分布区域, 原产地: `云南南部和西南`,
`朝鲜北部`) is of the kind `range`: it is asked among ranges and offered
for no other relation (28 of a build's 35 birthplace questions offered a
plant's range), unless the graph also uses it as a place (云南, a birthplace
too) or it is a country.

An option's type is `work:<kind>`, `person:<field>`, `place:<kind>` or
`<type>:alias` when the kind is known (`option_kind`); a gold of a known kind
takes options of that kind only, a gold of unknown kind any of its type but
an alias (`compatible`).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from transforms.align_kinds import SCHOOL_NAME
from transforms.defining_clause import defining_phrases, opening_sentence
from transforms.eras import is_dynasty
from transforms.items.exclusion import ALIAS_RELATIONS
from transforms.role_cues import ALMA_MATER
from transforms.sight_roles import NEARBY_RELATIONS
from transforms.word_lists import word_list

# The ranks a taxon's name ends with (胡颓子科, 溲疏属).
_TAXON = re.compile(r"(?:科|属|目|纲|门|界)$")
# A taxon's kind is its rank: a plant has one family and one genus, so a
# family is asked among families (`碧桃属于下列哪一项？` with the gold 蔷薇科
# offers no genus).
_RANKS = {"科": "family", "属": "genus", "目": "order", "纲": "class", "门": "phylum", "界": "kingdom"}


def taxon_rank(name: str) -> str | None:
    """`胡颓子科` -> family, `溲疏属` -> genus; None for any other name."""
    return _RANKS.get(name.strip()[-1:]) if len(name.strip()) >= 2 else None




def option_type(name: str, typed: str, relation: str | None = None) -> str:
    """The kind a name has as an option, finer than its type where the type
    lumps kinds a reader tells apart at once: a dynasty's page, typed a place
    (a polity), is an era (transforms/eras.py), `唐朝` being no one's
    birthplace; a family or a genus, typed `species` like a plant, is a taxon,
    `漆树科` being no plant's other name; a school, typed `organisation` like a
    company, is a school, `河南省淮阳中学` producing no film and a cartoon
    company being no one's 毕业院校. The value of 毕业院校 (`relation`, a
    tail's) is a school whatever its name ends with: `科斯基尔军校` and
    `汉城大学戏剧电影系`, typed companies, were offered as 出品公司 and 唱片公司.
    option_kind then adds a work's, a person's and a place's kind."""
    if is_dynasty(name):
        return "date"
    if typed == "species" and len(name) >= 2 and _TAXON.search(name):
        return "taxon"
    if typed == "organisation" and (SCHOOL_NAME.search(name) or relation in ALMA_MATER):
        return "school"
    return typed


SCREEN, MUSIC, LITERATURE, STAGE = "screen", "music", "literature", "stage"
# A person who holds an office of a body (a company's 董事长, a school's 校长, the
# founder of either): `武汉卓尔的董事长是谁？` offered 蒋欣, 炎亚纶 and the
# lyricist 黄伟文, people the graph knows only by their credits; no page says
# OFFICE, only the relation the person is the value of.
OFFICE = "office"
# Relations a work's own page states, by its kind. 制作人 and 发行时间 are
# left out: records and films have both.
_OWN_RELATIONS = {
    SCREEN: frozenset({"导演", "主演", "编剧", "上映时间", "上映日期", "首播时间", "集数", "片长", "出品公司",
                       "制片地区", "制片国家", "拍摄地点", "出品时间", "每集长度", "首播平台", "对白语言"}),
    MUSIC: frozenset({"歌曲原唱", "原唱", "作词", "作曲", "填词", "谱曲", "编曲", "所属专辑", "专辑歌手", "唱片公司",
                      "歌手", "演唱", "曲目数", "音乐风格", "歌曲语言", "歌曲时长"}),
    LITERATURE: frozenset({"出版社", "出版时间", "字数", "连载网站", "连载状态", "ISBN", "页数", "开本", "装帧", "定价"}),
}
# The head noun a work's defining phrase ends with (`…的一首歌曲`, `…动画电影`).
_KIND_NOUNS = {
    SCREEN: ("电影", "影片", "电视剧", "剧集", "动画片", "纪录片", "网络剧", "网剧", "连续剧", "系列剧"),
    MUSIC: ("歌曲", "单曲", "专辑", "音乐作品", "民歌", "主题曲", "插曲", "片尾曲", "EP"),
    LITERATURE: ("小说", "图书", "书籍", "著作", "散文集", "诗集", "漫画", "绘本", "丛书", "诗", "诗歌", "绝句", "散文",
                 "文集"),
    STAGE: ("剧目", "京剧", "昆曲", "戏曲", "折子戏", "越剧", "豫剧", "黄梅戏", "评剧", "粤剧", "川剧"),
}
# What a person's 职业 or defining phrase names them as, by the kind of their works.
_FIELD_WORDS = {
    SCREEN: ("演员", "导演", "编剧", "制片人", "监制"),
    MUSIC: ("歌手", "音乐人", "作曲家", "词作者", "作词人", "唱作", "歌唱家", "乐队", "组合", "说唱", "声乐"),
    LITERATURE: ("作家", "小说家", "诗人", "散文家", "文学家"),
    # an opera performer's works are plays (梅兰芳's 《贵妃醉酒》 among poems was struck out unread)
    STAGE: ("京剧", "昆曲", "戏曲", "越剧", "豫剧", "黄梅戏", "评剧", "粤剧", "川剧", "秦腔"),
}
_OCCUPATION_RELATIONS = frozenset({"职业", "身份"})
# Relations whose value is a work of the head person (their field's kind).
WORKS_OF_PERSON = frozenset({"代表作品", "主要作品", "代表作"})
# Relations whose value is a work of one kind, whoever the head.
_TAIL_KIND = {"所属专辑": MUSIC, "代表专辑": MUSIC, "主题曲": MUSIC, "片尾曲": MUSIC, "插曲": MUSIC}
# Relations whose value is a person of one field: the credits of a record, of
# a film, of a book (`再见的演唱者是谁？` among singers, not 曹操 or a director).
_PERSON_TAIL_FIELD = {
    **dict.fromkeys(("歌手", "演唱", "歌曲原唱", "原唱", "作曲", "作词", "谱曲", "填词", "编曲", "专辑歌手"), MUSIC),
    **dict.fromkeys(("导演", "编剧", "主演", "出品人"), SCREEN),
    "作者": LITERATURE,
    **dict.fromkeys(("董事长", "总经理", "总裁", "首席执行官", "法定代表人", "创始人", "创办人", "校长", "现任校长",
                     "院长"), OFFICE),
}


def _one(kinds: set[str]) -> str | None:
    return next(iter(kinds)) if len(kinds) == 1 else None


def _phrases(pair: dict[str, Any]) -> list[str]:
    return defining_phrases(pair.get("text") or "", pair.get("entity") or "")[1]


def _relations_kind(pair: dict[str, Any], own_relations: dict[str, frozenset]) -> str | None:
    """The one kind the relations a page states tell, or None."""
    relations = {t.get("relation") for t in pair.get("triples") or ()}
    return _one({k for k, rels in own_relations.items() if rels & relations})


def _page_kind(pair: dict[str, Any], own_relations: dict[str, frozenset], nouns: dict[str, tuple]) -> str | None:
    """The one kind a page tells: by the relations it states, else by the
    head noun its defining phrase ends with; None when unknown or mixed."""
    by_relation = _relations_kind(pair, own_relations)
    if by_relation:
        return by_relation
    return _one({k for phrase in _phrases(pair) for part in phrase.split("、")
                 for k, ends in nouns.items() if part.strip().endswith(ends)})


# Relations a written work is the head of, but weaker than _OWN_RELATIONS:
# a film's page may credit the novel's 作者 beside its 导演, and a painting's
# states its 作者 too (it is then read as a written work), so they tell the
# kind only where the page's other relations and its defining phrase do not.
# DuIE's book pages state nothing but 作者 (`图书作品 作者 人物`), so a web
# novel asked back (`下列哪部作品的作者是海飞？`) took any work: films among its options.
_WEAK_RELATIONS = {LITERATURE: frozenset({"作者"})}


def work_kind(pair: dict[str, Any]) -> str | None:
    """The kind of the work a pair is about (a film, a song, a book, a play), or None:
    by its page (_page_kind), else by the relations only one kind states (_WEAK_RELATIONS)."""
    return _page_kind(pair, _OWN_RELATIONS, _KIND_NOUNS) or _relations_kind(pair, _WEAK_RELATIONS)


# The opening's segments a biography names its subject's calling in
# (`姜文，1963年1月5日出生于河北省唐山市，中国大陆演员、导演、编剧。`): short,
# and not about someone else (`其父为演员`, `演员王某的儿子`).
_OPENING_SEGMENT = re.compile(r"[^，,。；;！？!?\n]{1,24}")
_ABOUT_ANOTHER = re.compile(r"[父母兄弟姐妹妻夫]|儿子|女儿|之子|之女|的")


def person_field(pair: dict[str, Any]) -> str | None:
    """The kind of a person's works: by their 职业 values, their defining
    phrase and the short segments of their summary's first sentence
    (`流行乐男歌手` -> music; `演员、导演、编剧` -> screen; `京剧表演艺术家` -> the
    stage); None when several
    fields or none."""
    said = [t.get("tail") or "" for t in pair.get("triples") or () if t.get("relation") in _OCCUPATION_RELATIONS]
    said += _phrases(pair)
    said += [m.group() for m in _OPENING_SEGMENT.finditer(opening_sentence(pair.get("text") or ""))
             if not _ABOUT_ANOTHER.search(m.group())]
    return _one({k for text in said for k in _fields_named(text)})


def _fields_named(text: str) -> set[str]:
    """The fields a phrase names; an actor of an opera (`京剧演员`) is of the stage, not the screen."""
    fields = {k for k, words in _FIELD_WORDS.items() if any(w in text for w in words)}
    return fields - {SCREEN} if STAGE in fields else fields


# Relations whose value is a country, whatever its name.
_COUNTRY_RELATIONS = frozenset({"国籍", "国家", "所属国家", "制片国家"})
COUNTRY, LOCAL, SITE = "country", "local", "site"
ALIAS = "alias"
RANGE = "range"
# Relations whose value is where a species lives (the module doc).
RANGE_RELATIONS = frozenset({"地理分布", "分布区域", "分布范围", "分布", "原产地", "产地"})
# Types whose names have aliases worth a kind: a date, a number or a name
# typed `other` has no pool of its own (generate.UNTYPED), its aliases neither.
_ALIASED = frozenset({"person", "organisation", "place", "work", "species", "event", "taxon", "school"})
# How a site's name ends: a structure, a line, a reserve, a sight. Endings a
# town's name also has (山 in 佛山, 江 in 黑龙江, 陵 in 金陵) are left out.
_SITE_NAME = re.compile(r"(?:保护区|风景区|名胜区|景区|公园|长城|铁路|高铁|公路|大桥|隧道|机场|火车站|寺|庙|宫|博物馆|纪念馆|"
                        r"故居|遗址|广场)$")
# Relations whose value is a site, whatever its name (`圆明园` near 未名湖).
_SITE_TAIL_RELATIONS = NEARBY_RELATIONS | {"景点", "著名景点", "主要景点", "旅游景点"}
# What a place's own page states, by its kind: a town has districts, codes
# and a seat; a site has tickets, opening hours, a grade, a route, and the
# city it is in (DuIE's 所在城市 is a sight's: 维多利亚港 所在城市 香港).
_PLACE_RELATIONS = {
    # a state names its capital, its anthem, its head of state: 纽埃, 大理国 and
    # 以色列联合王国, in no list of today's sovereign states, state a 首都
    COUNTRY: frozenset({"首都", "国歌", "国旗", "国徽", "国家代码", "国际域名缩写", "国际电话区号", "国家领袖",
                        "政治体制", "国庆日", "官方语言"}),
    LOCAL: frozenset({"下辖地区", "行政区类别", "行政区划代码", "政府驻地", "电话区号", "邮政区码", "邮政编码", "车牌代码",
                      "车牌号码", "方言", "市长", "市委书记"}),
    SITE: frozenset({"门票价格", "门票", "开放时间", "景区级别", "景点级别", "途经省市", "途经线路", "设计速度", "设计时速",
                     "保护对象", "主要保护对象", "建筑风格", "建筑面积", "所在城市"}),
}
# The head noun a place's defining phrase ends with (`…的副省级市`, `…的自然保护区`).
_PLACE_NOUNS = {
    COUNTRY: ("国家", "王国", "帝国", "共和国", "岛国", "公国", "酋长国", "城邦"),
    LOCAL: ("城市", "省会", "直辖市", "地级市", "县级市", "副省级市", "首都", "市辖区", "自治县", "自治州", "自治区",
            "经济特区", "县", "镇", "乡", "村"),
    SITE: ("工程", "建筑", "建筑群", "保护区", "景区", "风景区", "景点", "公园", "铁路", "线路", "遗址", "寺庙", "宫殿",
           "古迹", "博物馆", "运河", "河流", "山脉", "湖泊", "铁路系统"),
}


# What a mountain's or a lake's page states and a town's seldom does; a
# village gives its altitude too, so a settlement's name (永青乡) outweighs it.
_NATURAL_RELATIONS = frozenset({"海拔", "主峰", "最高峰", "最高海拔", "湖泊面积", "水域面积", "湖面面积", "蓄水量",
                                "最大水深", "平均水深", "流域面积"})
_SETTLEMENT_NAME = re.compile(r"[省市县区乡镇村州旗盟]$")


def place_kind(pair: dict[str, Any]) -> str | None:
    """Whether a place's page is about a country, a site or a town or region: by the
    relations it states, else by the head noun of its defining phrase, else
    by how its name ends, else by a natural feature's relations (a peak's
    海拔); None when unknown or mixed."""
    told = _page_kind(pair, _PLACE_RELATIONS, _PLACE_NOUNS)
    if told:
        return told
    name = pair.get("entity") or ""
    if _SITE_NAME.search(name):
        return SITE
    natural = _NATURAL_RELATIONS & {t.get("relation") for t in pair.get("triples") or ()}
    return SITE if natural and not _SETTLEMENT_NAME.search(name) else None


@lru_cache(maxsize=1)
def countries() -> frozenset[str]:
    """Sovereign states by their Chinese names (resources/countries.txt)."""
    return word_list("countries.txt")


def option_kind(typed: str, relation: str | None = None, head_type: str | None = None,
                head_kind: str | None = None, name: str = "") -> str:
    """`work:<kind>` for a work whose kind is known, `person:<field>` for a
    person whose field is, `taxon:<rank>` for a family or a genus,
    `place:country`, `place:site` or `place:local` for a place (a
    birthplace among countries, `伦敦` beside 韩国 and 德国, was the one
    town), `<type>:alias` for the value of an alias relation;
    the type unchanged otherwise. A head's kind is its page's (`head_kind`:
    a work's kind, a person's field, a place's); a tail's is its relation's
    (所属专辑 is a record, 作曲 a musician) or, for 代表作品, the head
    person's field. A place is a country by its name (`name`), by its page
    or as the value of 国籍, a site by its page, as the value of 周边景点 or by
    how its name ends."""
    if relation in ALIAS_RELATIONS and typed in _ALIASED:
        kind = ALIAS
    elif typed == "place":
        kind = _place_option_kind(relation, head_kind, name.strip())
    elif relation is None:
        kind = head_kind if typed in ("work", "person") else None
    elif typed == "work":
        kind = _TAIL_KIND.get(relation) or (head_kind if head_type == "person" and relation in WORKS_OF_PERSON
                                            else None)
    elif typed == "person":
        kind = _PERSON_TAIL_FIELD.get(relation)
    elif typed == "taxon":
        kind = taxon_rank(name)
    else:
        kind = None
    return f"{typed}:{kind}" if kind else typed


def _place_option_kind(relation: str | None, head_kind: str | None, name: str) -> str:
    """A country by its name, by its page (a head: place_kind) or as the value of
    国籍; a site by its page, as the value of 周边景点 or by how its name ends;
    else a town or region. A country's page (纽埃 首都 阿洛菲) read as a
    town's put 纽埃 among the towns offered for a capital, and towns among
    the options of `阿洛菲是哪个国家的首都？`."""
    if relation in _COUNTRY_RELATIONS or name in countries() or (relation is None and head_kind == COUNTRY):
        return COUNTRY
    if relation in RANGE_RELATIONS:
        return RANGE
    if relation in _SITE_TAIL_RELATIONS or (relation is None and head_kind == SITE) or _SITE_NAME.search(name):
        return SITE
    return LOCAL


def pair_kind(pair: dict[str, Any], typed: str) -> str | None:
    """What a pair tells about kinds: a work's own kind, a person's field, a place's kind."""
    if typed == "work":
        return work_kind(pair)
    if typed == "person":
        return person_field(pair)
    if typed == "place":
        return place_kind(pair)
    return None


def coarse(typed: str) -> str:
    """A type without its kind: `work:music` -> work."""
    return typed.split(":", 1)[0]


def is_alias(typed: str | None) -> bool:
    return bool(typed) and typed.endswith(":" + ALIAS)


def is_range(typed: str | None) -> bool:
    return bool(typed) and typed.endswith(":" + RANGE)


def compatible(candidate: str | None, gold: str | None) -> bool:
    """A candidate's type may stand beside the gold's: the same type and kind,
    or any kind of the gold's type but an alias or a range when the gold's
    kind is unknown (another name of a thing is no thing of its own, and
    where a plant grows is no town)."""
    if candidate == gold:
        return True
    return bool(candidate and gold and ":" not in gold and coarse(candidate) == gold and not is_alias(candidate)
                and not is_range(candidate))

