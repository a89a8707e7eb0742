"""Mentions of a sight or an address the text gives to another place.

A sight beside the entity (`周边景点`) must be said to be near it, and an
address must locate the entity, not another subject of its clause. Pure
checks like those of transforms/other_roles.py (which asks these for the
nearby relations), each found on the KdConv travel rounds of the labelled
set (docs/alignment.md, "Sights") and tested in tests/test_align_sights.py.
"""
from __future__ import annotations

import re

# A sight beside the entity (`周边景点`) is said to be near it: `景山公园位于故宫北面`,
# `东边不远就是北海`, `位于颐和园内`. A sight the text names in another
# role (`与颐和园相比`, `英法联军焚毁圆明园`) is not one beside it.
NEARBY_RELATIONS = frozenset({"周边景点", "附近景点", "周边", "邻近景点"})
# `建于1959年`, `建于明代`: 建于 before a time says when, not where (`建于山顶`).
_A_TIME = (r"\s*(?:公元|上世纪|民国|[0-9０-９一二三四五六七八九十〇零]{2,4}年"
           r"|[0-9０-９一二三四五六七八九十]{1,2}世纪|[明清元宋唐辽金汉隋](?:代|朝|初|末|中期|时期))")
_NEAR = re.compile(r"附近|旁|畔|对面|隔壁|紧邻|紧临|毗邻|比邻|相邻|邻近|靠近|临近|紧挨|[东南西北][邻临靠接]|背靠|依傍|相望|呼应"
                   r"|之隔|步行|脚下|距(?!今)|(?:很|较|非常)近"
                   r"|周边|周围|[东南西北](?:侧|面|边|端|部|起|至|岸)|之间|之内|境内|沿途|一带|就是|相连|连成|组成"
                   r"|包括|不远|公里|米处|对岸|门前|位于|[坐座]落|地处|进入|[东南西北山]麓|[建设]于(?!" + _A_TIME + ")"
                   r"|[东南西北]{2}(?:方|侧|面|的|角)|[东南西北]濒|沿|[设建内还]有|连为一体"
                   # what holds the entity, or what it holds (`景区内有长陵、定陵`, `公园分为五个园区`,
                   # `景区中有座古寺`, `…古戏台和石碾等景点`)
                   r"|[区园院寺馆宫殿校]内|[区园院寺]中(?![心国])|主体建筑|主要建筑|组成部分|一部分|分为|分别是|园区"
                   r"|景点有|等景点|主要有"
                   # a sight at the centre of the entity's area (`以天池为中心分布的两座古庙`),
                   # what an area has open (`如今开放的有定陵、长陵`), what stands there (`…东侧，耸立着一座白塔`),
                   # what is seen from it (`从山顶能看到整个颐和园`), what it takes up (`颐和园大半面积被它占据`)
                   r"|为(?:核心|中心)|开放(?:的)?有|(?:耸|矗|屹)立着|看到|望见|眺望|占据")
# `乾清宫是故宫的主要建筑`, `午门是紫禁城的正门`, `大悲寺为八大处的第四处`: the sight holds the entity.
# `清华第一座女生宿舍`: an ordinal counts the entity among the sight's own, with or without 的.
_PART_OF_AFTER = re.compile(r"的(?:主体|主要|核心|中心|标志性|一部分|组成部分|[东南西北正城大]门|一座|一处)"
                            r"|的?第[一二三四五六七八九十0-9]+[处座个所栋]")
# `宝珠洞为八大处地势最高的一处`, `工字厅是清华园的古建筑之一`: the entity is
# said to be one of the sight's parts; `…在天坛西南角`: it is in the sight.
_IS_OF_BEFORE = re.compile(r"(?<!成)(?:是|为)$")
_IS_OF_AFTER = re.compile(r"[^，。；;！？!?、]{0,8}?(?:的|之一)")
# A town, a street, a station, an area, a farm or a reservoir named after a
# sight (`潭柘寺镇`, `天坛路`, `三里屯东五街`, `三里屯酒吧街`, `妙峰山地区`, `南口农场`) is not
# the sight; `古北水镇镇子里` is the water town itself.
# A resort, a hospital or a hotel named after it (`云佛山度假村`, `天坛医院`) is
# a longer name (rule 4), not the sight; nor is the range a mountain names
# (`百花山脉`: round 16, a shared mountain range is no nearness).
_NAMED_AFTER = re.compile(r"镇(?!子)|乡|[东南西北中]?[一二三四五六七八九十0-9]*(?:路|街|大街|胡同)|站|地区"
                          r"|(?:酒吧|美食|小吃|商业|步行)街|农场|林场|水库|度假村|医院|宾馆|酒店|饭店|山?脉")
# `…景区内`, `园中`; not `、吴冠中` (a list goes on to other names), nor the
# `中` that opens a word (`故宫博物院堪称中国最大的…`: 中国, 中心, 中华).
_INSIDE_AFTER = re.compile(r"[^，。；;！？!?、]{0,3}?(?:[内里]|中(?![国心华]))")
# A town the sight lies in is a unit of its address (`昌平区小汤山镇讲礼村`),
# a much larger area than a sight beside it.
_TOWN = re.compile(r"(?:镇|乡|街道)$")
_ADDRESS_CHAIN_AFTER = re.compile(r"[\u4e00-\u9fff]{1,5}?[村路街号]")
_CLAUSE_STOP = re.compile(r"[，。；;！？!?]")


def _clause_start(text: str, s: int, window: int) -> int:
    """Where the clause holding text[s] starts, looking back `window` characters at most."""
    floor = max(0, s - window)
    return max((m.end() for m in _CLAUSE_STOP.finditer(text, floor, s)), default=floor)


# `在十三陵中属中等规模`, `是八大处中最高的一处`: the entity ranked or compared
# within a group (docs/alignment.md, round 17), not set beside it.
# `是八大处中面积最大的一座寺院` still puts the temple inside the park.
_RANKED_WITHIN_AFTER = re.compile(r"(?:之)?中(?:属于?|排[名行第]?|居(?!住|民|室)于?|位列|位居|算是?)")  # not `胡同中居住`
# `故宫外八庙之一`: one of a group named after the sight and lying outside it
# (round 14: a group the entity belongs to is no nearness).
_GROUP_OUTSIDE_AFTER = re.compile(r"外[一二三四五六七八九十百]+[\u4e00-\u9fff]{1,2}之一")
# `…与这两个景区混淆`, `与颐和园齐名`: the text compares the sights or warns
# they are confused, whatever else its clause says (round 16: a namesake or a
# shared mountain range is no nearness).
_COMPARED_AFTER = re.compile(r"[^，。；;！？!?而并但又]{0,20}?(混淆|混为一谈|搞混|弄混|分不清|齐名|相比|媲美|相提并论)")
# `保存在故宫博物院内`, `现藏于国家博物馆`: where things of the entity are
# kept, a museum as a collection (rounds 15-16), not the entity's place
# (a bare 藏 before a name is 西藏's: `西藏布达拉宫`).
_KEPT_BEFORE = re.compile(r"(?:(?:保存|收藏|珍藏|存放|陈列)[在于至到]?|藏[在于]|移[至到入交])$")
# `在清朝是圆明园附属的…`, `曾属于`, `原为…的一部分`: a tie of the past
# (round 16: a garden that once belonged to 圆明园 is no nearness).
_PAST_TIE_BEFORE = re.compile(r"(?:[在于]?[明清元宋唐辽金](?:朝|代)(?:时|时期)?|曾经?|(?<![草平高荒中])原先?|旧时|昔日|当年|历史上)"
                              r"(?:是|为|属于?|归)?[^，。；;！？!?]{0,4}$")
_TIE_AFTER = re.compile(r"的?(?:附属|所属|属地|赐园|一部分)")


def sight_in_another_role(text: str, s: int, e: int) -> str | None:
    """Why the sight at text[s:e] is told in a role other than a neighbour of
    the entity, by the words right around it, or None: ranked within a group
    (`在十三陵中属中等规模`), a group outside it (`故宫外八庙之一`), the place
    where things of the entity are kept (`保存在故宫博物院内`), or a tie of the past (`在清朝是圆明园附属的…`)."""
    if ranked := _RANKED_WITHIN_AFTER.match(text, e):
        return "a group it is ranked within: " + text[s:ranked.end()]
    if group := _GROUP_OUTSIDE_AFTER.match(text, e):
        return "a group named after it: " + text[s:group.end()]
    if _KEPT_BEFORE.search(text, max(0, s - 4), s):
        return "where a collection is kept"
    if _TIE_AFTER.match(text, e) and _PAST_TIE_BEFORE.search(text, _clause_start(text, s, 60), s):
        return "a tie of the past"
    return None


def compared_after(text: str, s: int, e: int) -> str | None:
    """The comparison word right after the sight at text[s:e] (`与颐和园齐名`,
    `和百花山景区混淆`), or None: a sight the text compares with the entity,
    or warns is confused with it, is told no nearness, whatever other word
    its clause has."""
    # the sight itself is compared: the word follows it in its predicate, which
    # may list other sights (`将A和B与这两个景区混淆`), not in another one
    # (`紧邻颐和园而与故宫齐名` compares 故宫)
    m = _COMPARED_AFTER.match(text, e)
    return m.group(1) if m else None


def near_said(text: str, s: int, e: int) -> bool:
    """The clause of the sight at text[s:e] says it is near the entity, or
    holds it (`…景区内`)."""
    lo = _clause_start(text, s, 60)
    stop = _CLAUSE_STOP.search(text, e)
    hi = stop.start() if stop else len(text)
    if (_IS_OF_BEFORE.search(text, lo, s) and _IS_OF_AFTER.match(text, e)) or text[s - 1:s] == "在":
        return True
    return bool(_NEAR.search(text, lo, hi) or _INSIDE_AFTER.match(text, e) or _PART_OF_AFTER.match(text, e)
                or _CORNERS_AFTER.match(text, e) or _examples_of_near(text, lo))


# On the sight's corners (`紫禁城城墙的四个角上`): the corners the sight's own,
# right after it; not any 角上 of the clause (`古城四个角上的角楼仿照故宫的角楼建造`
# is another town's corners, `视角上` a point of view).
_CORNERS_AFTER = re.compile(r"[^，。；;！？!?、]{0,6}?(?<!视)角上")


# `两侧还有很多文化设施，如国家博物馆、故宫博物院…`: examples of what the clause before names.
_EXAMPLES_OPEN = re.compile(r"(?:(例如|比如|诸如|包括)|如)[：:]?")
# `像颐和园一样`, `如…一般`: a likeness, not examples.
_LIKENESS = re.compile(r"一样|似的|一般|相似|类似")


def _examples_of_near(text: str, lo: int) -> bool:
    """The clause at text[lo:] lists examples (`如A、B`) of what the clause
    right before it says is near the entity or inside it (`两侧还有很多文化设施`):
    they are told near as that clause's words say. A bare 如 must open a list
    (`如A、B`) and tell no likeness (`如颐和园一样`)."""
    m = _EXAMPLES_OPEN.match(text, lo)
    if not m or lo < 1 or text[lo - 1] not in "，,":
        return False
    stop = _CLAUSE_STOP.search(text, lo)
    hi = stop.start() if stop else len(text)
    if not m.group(1) and ("、" not in text[lo:hi] or _LIKENESS.search(text, lo, hi)):
        return False
    before = _clause_start(text, lo - 1, 60)
    return bool(_NEAR.search(text, before, lo - 1))


def sight_told_elsewhere(text: str, s: int, e: int) -> str | None:
    """Why the sight at text[s:e] is no sight beside the entity (`周边景点`),
    or None: told in another role, a place named after it, a town of the
    address, no nearness said in its clause, or a comparison."""
    other = sight_in_another_role(text, s, e)
    if other:
        return other
    if named := _NAMED_AFTER.match(text, e):
        return "a place named after it: " + text[s:named.end()]
    if _TOWN.search(text, s, e) and ((s and text[s - 1] in "区县市") or _ADDRESS_CHAIN_AFTER.match(text, e)):
        return "a town of its address"
    if not near_said(text, s, e):
        return "no nearness said"
    compared = compared_after(text, s, e)
    return "a comparison: " + compared if compared else None


# ------------------------------------------------------------------ addresses

# `南顶坐落在丰台区…`: the clause locates a part of the entity or another place,
# named as its subject, not the entity.
_LOCATING = re.compile(r"(?:位于|[坐座]落于|[坐座]落在|地处|在|于)$")
_LOCATING_WORD = re.compile(r"位于|[坐座]落[于在]?|地处")
_SUBJECT = re.compile(r"[\u4e00-\u9fff]{2,8}")
# The entity said by a pronoun or a generic word.
_SELF_WORDS = re.compile(r"[该本此这其它全整]|景区|园区|公园|故居|旧址|遗址|地址|位置|地点")


def address_of_another(text: str, s: int, own_names: tuple[str, ...]) -> str | None:
    """The subject of the clause that locates the address at text[s:], when
    it is a name sharing at most one character with each of the entity's
    names (`南顶` of 五顶庙): that clause is the address of something else.
    None otherwise."""
    head = text[_clause_start(text, s, 30):s]
    if not _LOCATING_WORD.match(text, s):
        # the locating word right before the mention, or a strong one earlier
        # in the clause (`南顶坐落在丰台区南顶村`: the mention is the village)
        m = _LOCATING.search(head) or next(reversed(list(_LOCATING_WORD.finditer(head))), None)
        if not m:
            return None
        head = head[:m.start()]
    if not _SUBJECT.fullmatch(head) or _SELF_WORDS.search(head):
        return None
    if any(len(set(head) & set(n)) >= 2 for n in own_names):
        return None  # `普渡寺大殿` of 普度寺: a part of the entity, named after it
    return head


