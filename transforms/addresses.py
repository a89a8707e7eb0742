"""Addresses (`地址`, role_cues.ADDRESS_RELATIONS): when a text gives one.

An address is a place with rules of its own (issue 10 §3, the `place`
level for address relations; docs/alignment.md, "Sights"): the text must
give its most specific part (a street and number, a village with its town),
told where the sight is rather than merely named; a landmark closing it
(`潭柘寺内`) is precise enough alone; a bracket note, a landmark after a
comma and the sight's own building after the house number are no parts
the text must give; an address that ends with the sight's own name is
placed by the part before it. An address told by two streets is an area
between them, stated by the same bounds, or their crossing, a point.
"""
from __future__ import annotations

import re
from typing import Sequence

from transforms.places import core_forms, core_spans, place_cores, place_parts, place_stem
from transforms.text import find_all
from transforms.value_variants import BRACKETS, chinese_numeral

# A direction after an address's last unit (`…挂甲峪村内`, `…曹家坊村北`)
# places the sight by it; the text names the unit alone.
_DIRECTION_AFTER = re.compile(r"(?<=[村路街镇乡号])(?:[内外东南西北]|附近|旁)$")


def _address_cores(value: str) -> tuple[str, ...]:
    """place_cores of an address: its most specific part, and that part's
    stem only for a district (a village's or a town's stem is often the
    sight's own name: `居庸关` of 居庸关村, `小汤山` of 小汤山镇; a district's
    is not: `北京延庆`). A village with its town's name glued before it
    (`小汤山讲礼村`) is also the village alone; a doubled unit (`东四北大街路`)
    is also the part without its last. A named street is the street whole."""
    cores = place_cores(value)
    if not cores:
        return cores
    whole = place_parts(value)[-1]
    if _STREET.match(whole) and cores[0] != whole:
        cores = (whole, *cores)  # `官菜园上街` is a street, though 上街 is a far place too
    last = cores[0]
    if last[-1] not in "市县区":
        cores = cores[:1]
    if len(last) > 4 and last.endswith("村"):
        cores += (last[-3:], last[-4:])
    elif len(last) >= 4 and last[-1] in "路街" and last[-2] in "街路道":
        cores += (last[:-1],)
    return cores


# What may follow the sight's own name closing its address (`…火村双龙峡景区`, `…挂甲峪村内`).
_AFTER_OWN_NAME = re.compile(r"(?:风景区|景区)?[内中]?")


def address_before_own_name(value: str, own_names: Sequence[str]) -> tuple[str, str | None]:
    """An address that closes with the sight's own name (`北京市门头沟区清水镇洪水口村`
    on the page of 洪水口村, `…斋堂镇火村双龙峡景区` on that of 双龙峡) without it:
    the sight names itself there, and what places it is the part before
    (`洪水口村地处北京市门头沟区清水镇`). The part before must be finer than
    a district: `北京市门头沟区琉璃渠村` is not stated by `琉璃渠村地处门头沟区`,
    which names only the much larger area. Returns (the address to find, the
    own name taken off or None); any other address is returned as it is."""
    v = BRACKETS.sub("", value).strip()
    for name in own_names:
        k = v.rfind(name) if len(name) >= 2 else -1
        if k >= 2 and _AFTER_OWN_NAME.fullmatch(v, k + len(name)):
            before = v[:k].rstrip(" ，,")
            if place_parts(before)[-1][-1] not in "市区县省":
                return before, name
    return value, None


def address_spans(value: str, text: str, subject: str | None = None) -> list[tuple[int, int]]:
    """The most specific part of an address (_address_cores) where the text
    says the sight is there (_address_located), or a landmark the address
    closes with (_landmark_spans). A bracket note, a landmark after a comma
    and a building named after the house number are handled first; an
    address closing with the sight's own name is taken without it
    (address_before_own_name, applied by the caller, who knows the name).
    A part the text gives right where it places the sight by its name
    (`subject`: `六渡河村地处渤海镇`, `金绿园坐落在窦店村以南`) is where the sight is,
    even without the unit above it."""
    # a bracket note (`(近庑殿路)`), a full stop or a direction closing
    # the cell is no part of the place
    value = BRACKETS.sub("", value).strip().rstrip("。．.；;，, ")
    value = _house_inside_area(value)
    two_roads = _two_roads_spans(value, text)
    if two_roads is not None:
        return two_roads
    # the sight's own building named after its house number
    # (`…正黄旗18号北京香麓园文化艺术中心`) is no part of the address
    value = _NAME_AFTER_NUMBER.sub(r"\1", value)
    # a landmark after a comma (`…京密路，西大桥南`, `…侯庄子村，019县道旁`)
    # is a part of the address the text must give too
    head, _, landmark = value.partition("，") if "，" in value else value.partition(",")
    landmark = _DIRECTION_AFTER.sub("", landmark.strip())
    if landmark and len(place_parts(head)) >= 2 and head[-1] in "路街道号村镇乡巷":
        if landmark not in text:
            return []
        value = head
    value = _DIRECTION_AFTER.sub("", value)
    landmark = _landmark_spans(value, text)
    if landmark:
        return landmark
    cores = _address_cores(value)
    out: list[tuple[int, int]] = []
    for core in core_forms(value, cores):
        if _road_left_out(value, core, text):
            continue
        out = core_spans(core, text)
        if not out and _HAS_NUMBER.search(core):
            out = _number_written_otherwise_spans(core, text)
        if not out:
            out = _area_head_spans(core, text)
        out = [(j, k) for j, k in out if (_address_located(value, core, text, j) or _self_located(subject, text, j))
               and not _on_the_way(text, j)]
        if core not in place_cores(value) and _STREET.match(core):
            # a street whole (`官菜园上街`): where the sight is only after an address word
            out = [(j, k) for j, k in out if _ADDRESS_WORD.search(text, max(0, j - 6), j)]
        if out:
            break
    return out


# A street or a river that bounds a place (`新街口南大街`, `护国寺西巷`, `温北路`).
_WAY = r"[\u4e00-\u9fff0-9]{2,10}?(?:大街|街|路|胡同|巷|河)"
# `新街口南大街与护国寺西巷之间`: an area between two ways; `温北路与白家瞳路交叉口西南角`:
# their crossing (and the corner of it the sight takes).
_BETWEEN = re.compile(rf"({_WAY})[与和及]({_WAY})之间")
_CROSSING_WORDS = "(?:交叉口|交汇处|交口|路口|十字路口)"
_CROSSING = re.compile(rf"({_WAY})[与和、]({_WAY}){_CROSSING_WORDS}([东南西北]{{1,2}}[角侧])?")
# How a text bounds an area by two ways: `A与B之间`, or from one to the other
# with 起 opening the first (`东起A，西至B`, `南起A，北至B`). Two ways joined
# alone (`附近有A和B两条老街`, `A与B交叉口`) bound nothing, nor does a walk from
# one to the other (`沿A向北步行至B`).
_JOINED_BETWEEN = re.compile(r"[与和及]")
_BETWEEN_AFTER = re.compile(r"之间")
_BOUNDS_BETWEEN = re.compile(r"[，,、]?[东南西北]?[至到]")
_BOUND_OPENS = re.compile(r"[东南西北]?起$")
# A crossing where a walk starts or goes on (`从A与B交叉口向东步行约300米`) is on
# the way there, not where the sight is.
_WALK_FROM = re.compile(r"(?:从|由|自)$")
_WALK_ON = re.compile(r"[^，。；;！？!?]{0,4}?(?:步行|行走|走|前行|直行|下车)")


def _after_units(way: str) -> str:
    """The first of two ways without the units the cell gives before it
    (`北京市顺义区府前街` -> 府前街)."""
    return place_parts(way)[-1]


def _house_inside_area(value: str) -> str:
    """A house inside the area between two ways
    (`北京市东城区东四北大街与朝阳门北小街之间的史家胡同24号`) is placed by the
    house (`北京市东城区史家胡同24号`): the area is no part the text must
    give, and the bounds alone state less than the cell."""
    m = _BETWEEN.search(value)
    if not m or not value.startswith("的", m.end()) or len(value) == m.end() + 1:
        return value
    first = m.group(1)
    return value[:m.start(1)] + first[:len(first) - len(_after_units(first))] + value[m.end() + 1:]


def _two_roads_spans(value: str, text: str) -> list[tuple[int, int]] | None:
    """An address told by two ways, or None for any other address. An area
    between two ways (`新街口南大街与护国寺西巷之间`) is stated by the text's
    bounds, in either order (`东起护国寺西巷，西至新街口南大街`, docs/alignment.md:
    an area is stated by the same bounds); a crossing of two ways
    (`温北路与白家瞳路交叉口西南角`) is a point, the finest part an address
    can give: the text names both ways at their crossing, and the corner
    the cell gives. What follows a crossing after a comma (`，温泉镇政府东西两侧`)
    describes the same point again.

    Only when the two ways are the cell's finest part: the cell closes with
    them (or a comma goes on), and gives no number. `A与B之间的史家胡同24号`
    is a house inside the area and `A与B交叉口往东100米路南` a point away from
    the crossing: the bounds or the crossing alone state less than the cell,
    so the area is taken off and the rest tried as any address (None)."""
    m = _BETWEEN.search(value)
    if m:
        rest = value[m.end():]
        if (rest and rest[0] not in "，,") or _HAS_NUMBER.search(value):
            return None
        a, b = _after_units(m.group(1)), m.group(2)
        out = []
        for first, second in ((a, b), (b, a)):
            for j in find_all(text, first):
                e = j + len(first)
                if _on_the_way(text, j):
                    continue
                joined = _JOINED_BETWEEN.match(text, e)
                if joined and text.startswith(second, e + 1) and _BETWEEN_AFTER.match(text, e + 1 + len(second)):
                    out.append((j, e + 1 + len(second) + 2))
                    continue
                if not _BOUND_OPENS.search(text, max(0, j - 2), j):
                    continue
                bound = _BOUNDS_BETWEEN.match(text, e)
                if bound and text.startswith(second, bound.end()):
                    out.append((j, bound.end() + len(second)))
        return sorted(out)
    m = _CROSSING.search(value)
    if m:
        if _HAS_NUMBER.search(value) or (value[m.end():] and value[m.end()] not in "，,"):
            return None
        a, b, corner = _after_units(m.group(1)), m.group(2), m.group(3)
        rx = re.compile(rf"(?:{re.escape(a)}[与和、]{re.escape(b)}|{re.escape(b)}[与和、]{re.escape(a)})"
                        + _CROSSING_WORDS + (rf"的?{re.escape(corner)}" if corner else ""))
        return [x.span() for x in rx.finditer(text)
                if not _on_the_way(text, x.start()) and not _WALK_FROM.search(text, max(0, x.start() - 1), x.start())
                and not _WALK_ON.match(text, x.end())]
    return None


_HAS_NUMBER = re.compile(r"[0-9０-９]")
_NAME_AFTER_NUMBER = re.compile(r"([0-9０-９]+号)(?![院楼])[\u4e00-\u9fff]{3,}$")
_DIGITS_RUN = re.compile(r"[0-9]+")


def _number_written_otherwise_spans(core: str, text: str) -> list[tuple[int, int]]:
    """An address part whose number the text spaces off (`地安门东大街47 号`)
    or writes in Chinese numerals (`正黄旗十八号`); the side of the street
    told between the street and its number (`文津街北侧七号` for 文津街7号:
    the number is the same house)."""
    pieces, pos = [], 0
    for m in _DIGITS_RUN.finditer(core):
        n = int(m.group())
        forms = [m.group()] + ([chinese_numeral(n)] if 0 < n < 100 else [])
        before = re.escape(core[pos:m.start()])
        if _WAY_END.search(core, pos, m.start()):
            before += _STREET_SIDE
        pieces += [before, r"\s*(?:" + "|".join(forms) + r")\s*"]
        pos = m.end()
    rx = "".join(pieces) + re.escape(core[pos:])
    return [m.span() for m in re.finditer(rx, text)]


# A street closing before a house number, and the side of it a text may give there.
_WAY_END = re.compile(r"(?:街|路|巷|胡同)$")
_STREET_SIDE = r"(?:[东西南北](?:侧|边)?)?"
# The generic head of a scenic area, which an address and a text write
# differently for one area (`十渡风景区`, `十渡风景名胜区`, `十渡景区`).
_AREA_HEADS = "(?:风景名胜区|旅游风景区|风景区|旅游区|景区)"
_AREA_HEAD = re.compile(rf"^(.{{2,}}?){_AREA_HEADS}$")


def _area_head_spans(core: str, text: str) -> list[tuple[int, int]]:
    """A scenic area closing an address (`房山区十渡风景区`) named with
    another of the generic heads of an area (`房山区十渡风景名胜区`): the
    same area; its stem alone is the place (`十渡` is a town too)."""
    m = _AREA_HEAD.match(core)
    if not m:
        return []
    rx = re.escape(m.group(1)) + _AREA_HEADS
    # the stem opening the text's name: `八达岭—十三陵风景名胜区` is an area of
    # two (a compound), more than `十三陵景区`; `黑龙潭景区` another area than 龙潭景区
    return [x.span() for x in re.finditer(rx, text) if _starts_a_name(text, x.start())]


# A character that goes on with a name before it (`北京大学` before 大学校园内,
# `地坛` before 坛公园, `八达岭—` before 十三陵风景名胜区); a unit, a locating word
# or a joiner of a list closes what comes before a name (`海淀区`, `位于`, `、`).
# Not 村: `中关村软件园` is another park than 东软软件园.
_NAME_GOES_ON = re.compile(r"(?![省市区县镇乡于在是的和与及])[\u4e00-\u9fff]|[—–－\-~～]")


# What closes a place before a landmark's name in the cell (`潭柘山麓潭柘寺内`,
# `东南部…`, `海淀区…`): a tail after it is a name of its own, whatever the text
# says before it (`京西古刹潭柘寺内`).
_CELL_NAME_BEFORE = re.compile(r"[麓部边侧旁内处的省市区县镇乡村]")


def _starts_a_name(text: str, j: int) -> bool:
    """The text's name at text[j:] starts there: what stands before is no part of a longer name."""
    return j == 0 or not _NAME_GOES_ON.match(text, j - 1)


# Words that say where the sight is (a street named elsewhere is only named).
_ADDRESS_WORD = re.compile(r"位于|[坐座]落|地处|地址|在")
# A landmark closing an address, with where the sight is by it (`青龙湖公园内`,
# `潭柘寺内`, `故宫西侧`, `颐和园西侧`: a garden too; `天安门广场中央`: its centre).
_LANDMARK = re.compile(r"((?!寺庙|宫观)[\u4e00-\u9fff]+?(?:公园|寺|庙|宫|观|祠|博物馆|纪念馆|度假村|山庄|景区|乐园|广场|园))"
                       r"([内里中]|[东南西北]侧|中央|中心|正中)$")
# The centre of a landmark, said either way (`天安门广场中央`, `…广场中心`).
_CENTRE = ("中央", "中心", "正中")


_ROUTE = re.compile(r"[路街道桥角村巷环]")


# The longest landmark name tried (`东南部潭柘山麓潭柘寺` is ten): the tails of a
# longer cell are bounded, so a long cell costs no more than a short one.
_LONGEST_LANDMARK = 24


def _landmark_spans(value: str, text: str) -> list[tuple[int, int]]:
    """An address whose finest part is a landmark and the sight's place by
    it, right after the district or the town, with no number: the text gives
    the landmark with the same place (`内`, `里` and `中` alike), which is
    precise enough alone. The longest tail of the cell's last part the text
    gives wins (`潭柘寺内` of `东南部潭柘山麓潭柘寺内`). A village, a road
    or a second landmark before it is a part the text must give too.

    A tail shorter than the cell's landmark is a name only where the cell
    or the text starts a name with it (`…山麓潭柘寺内`): `北京大学校园内`
    gives 大学校园内, a tail of 清华大学校园内, inside another university's
    name, and `地坛公园中央` the tail 坛公园中央 of 天坛公园中央 (_starts_a_name)."""
    parts = place_parts(value)
    if _HAS_NUMBER.search(value) or len(parts) < 2 or parts[-2][-1] not in "市区县镇乡":
        return []
    last = parts[-1]
    sides = None
    for k in range(max(0, len(last) - _LONGEST_LANDMARK), len(last) - 3):
        m = _LANDMARK.fullmatch(last, k)
        if not m:
            continue
        if _ROUTE.search(last, 0, k):
            return []  # a road or a bridge before the landmark is a finer part the text must give
        name, where = m.groups()
        own = k == 0 or _CELL_NAME_BEFORE.match(last, k - 1) is not None  # a name in the cell too
        if where[-1] == "侧":
            if sides is None:
                # the sides the text gives, found once for every tail
                sides = [x.span() for x in re.finditer(_side(where[0]), text)]
            out = [(j - len(name), e) for j, e in sides if j >= len(name) and text.startswith(name, j - len(name))
                   and (own or _starts_a_name(text, j - len(name)))]
            if out:
                return out
            continue
        places = list(_CENTRE) if where in _CENTRE else ["内", "里", "中"]
        out = sorted(j for w in places for j in find_all(text, name + w) if own or _starts_a_name(text, j))
        if out:
            return [(j, j + len(name) + len(where)) for j in out]
    return []


# How far a text may place a sight from a landmark (`以东约1公里处`, `西侧500米`):
# away from it, not on its side.
_DISTANCE = (r"(?:约|大约|不到|不足)?[0-9０-９.一二三四五六七八九十百千几两半]+[多余]?"
             r"(?:公里|千米|米|里|华里|km)")


def _side(direction: str) -> str:
    """A side of a landmark as a text says it: `西侧`, `西面`, `西边`, `以西`,
    or `西` alone closing the phrase (`位于颐和园西，…`); not `西门`, a gate,
    nor a distance on that side (`香山公园以东约1公里处` is a kilometre away)."""
    return rf"(?:以?{direction}[侧面边]|以{direction}|{direction}(?![\u4e00-\u9fff]))(?!{_DISTANCE})"


_ROAD_BEFORE = re.compile(r"[\u4e00-\u9fff]{2,}?(?:大街|街|路|道|胡同|巷)")


def _road_left_out(value: str, core: str, text: str) -> bool:
    """The cell's last part names a road before its finest part
    (`西长安街天安门广场西侧`): the road is a part the text must give too, as
    before a landmark (round 11: a landmark is precise enough alone only
    right after the district or the town). True when the text leaves it out."""
    last = place_parts(value)[-1]
    if core == last or not last.endswith(core):
        return False
    road = _ROAD_BEFORE.match(last[:-len(core)])
    return bool(road) and road.end() == len(last) - len(core) and road.group() not in text


# `进入水峪嘴村后不久就会到…`, `穿过…胡同`: a place a visitor passes on the way
_ON_THE_WAY_BEFORE = re.compile(r"(?:进入|进了|来到|到达|抵达|走到|走进|经过|途经|穿过|前往|出了)$")


def _on_the_way(text: str, j: int) -> bool:
    """The address part at text[j:] is told in walking directions, a place
    the visitor goes through or reaches on the way (round 17: a street told
    only in walking directions is not the address)."""
    return _ON_THE_WAY_BEFORE.search(text, max(0, j - 2), j) is not None


# A named street of a cell with no number (`东四北大街`) is its finest part.
_STREET = re.compile(r"^[\u4e00-\u9fff]{2,}(?:大街|街|路|胡同|巷)$")


def _self_located(subject: str | None, text: str, j: int) -> bool:
    """The sight, by its name, is the subject that a locating word in the
    clause before text[j] places (`老甲艺术馆地处昌平的霍营一带`): what
    follows is where the sight is, not a place the text merely names."""
    if not subject:
        return False
    lo = max((text.rfind(ch, 0, j) for ch in "，。；;！？!?,"), default=-1) + 1
    return re.search(re.escape(subject) + r"(?:位于|[坐座]落[于在]?|地处)", text[lo:j]) is not None


def _address_located(value: str, core: str, text: str, j: int) -> bool:
    """An address's most specific part below a district (a town, a village,
    a place with no number: `涧沟村`) is told with the unit just above it
    (`…妙峰山镇涧沟村`) or with its district earlier in the sentence
    (`门头沟区…涧沟村`): alone it is a place the text names, not where the
    sight is. A street and number (`景山前街4号`) or a district
    (`延庆`) is precise enough alone."""
    parts = place_parts(value)
    if (len(parts) < 2 or _HAS_NUMBER.search(core) or core[-1] in "市县区" or core == place_stem(parts[-2])
            or _STREET.search(core)):
        return True
    lo = max((text.rfind(ch, 0, j) for ch in "。；;！？!?"), default=-1) + 1
    before = text[lo:j]
    units = [parts[-2]] + [p for p in parts[:-2] if p[-1] in "县区"]
    if core[-1] in "镇乡":
        units.append(parts[0])  # a town or township told with its city (`北京喇叭沟门满族乡`)
    return any(u in before or (len(place_stem(u)) >= 2 and place_stem(u) in before) for u in units)
