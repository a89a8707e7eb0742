"""Mentions the text gives to another event or another kind of thing.

The role check (transforms/roles.py) tells roles apart by the cue words that
bind a mention. Some mentions carry their other role in the words around
them instead, whatever the cues: a nomination is not a win, the place a film
opened in is not where it was made, a year that dates an award is not a
release year. Each check here is pure: it reads the text around a mention
and says whether (and why) the mention is not the value's. Each was found
on the labelled set (docs/alignment.md) and has a test sentence of our own.
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.align_forms import NATIONALITY_RELATIONS, PRODUCTION_REGION_RELATIONS
from transforms.role_cues import (
    ALMA_MATER, AWARD_RELATION, CREDIT_RELATIONS, FEMALE_KIN, MALE_KIN, OCCUPATION_RELATIONS, SINGER_RELATIONS,
)
from transforms.sight_roles import NEARBY_RELATIONS, sight_told_elsewhere
from transforms.text import clause_span, sentence_span


@lru_cache(maxsize=4096)
def is_award_relation(relation: str) -> bool:
    """A relation whose values are awards or honours (主要奖项, 主要成就);
    cached, as it is asked per cue on the role check's path."""
    return bool(AWARD_RELATION.search(relation))


# ------------------------------------------------------------------ awards

# The nomination word may stand before the edition and the body's place
# (`入围第21届“台湾金曲奖”最佳演唱组合奖`: the award's name starts after them).
_NOMINATED_BEFORE = re.compile(r"(?:入围|提名)(?:第[^，。；;届]{1,4}届)?[“\"「]?[^，。；;]{0,6}$")
_NOMINATED_AFTER = re.compile(r"^[^，。；;]{0,40}?(?:提名|入围)")


def nominated(text: str, s: int, e: int, relation: str, value: str) -> bool:
    """An award the text says the entity was only nominated for (`入围第19届…`,
    `…最佳改编剧本提名`) is not an award it won, unless the value says so."""
    if not is_award_relation(relation) or "提名" in value or "入围" in value:
        return False
    return nomination_said(text, s, e)


# `入围第21届金曲奖最佳乐团奖，其中《主人》获得最佳单曲制作人奖`: a clause
# inside the award's mention that says a win takes the category after it
# out of the nomination before it.
_WON_AFTER_BREAK = re.compile(r"[，,；;][^，,；;。]{0,20}?(?:获得|荣获|获|夺得|斩获|赢得|摘得)")


def nomination_said(text: str, s: int, e: int) -> bool:
    """The text says the award at text[s:e] was a nomination (`入围…`, `…提名`)."""
    before = _NOMINATED_BEFORE.search(text, max(0, s - 16), s) and not _WON_AFTER_BREAK.search(text, s, e)
    return bool(before or _NOMINATED_AFTER.match(text[e:e + 40]))


# ------------------------------------------------------------------- names

# Where a film opened (`这部片子在美国首映`, `于日本公映`) is not where it was made.
_RELEASED_BEFORE = re.compile(r"(?:[在于]|登陆)$")
_RELEASED_AFTER = re.compile(r"[^，。；;]{0,6}?(?:上映|公映|首映|发行|播出|首播|上线)")
# A school that gave an honorary degree (`拥有X大学荣誉博士学位`) is not one
# the person studied at.
_HONORARY = re.compile(r"[^，。；;]{0,16}?(?:荣誉|名誉)(?:博士|硕士|学位|教授|院士)")
# `执导了自己的导演处女作`: an occupation word before a work (`处女作`,
# `首作`, `作品`) names the work of one credit, and one credit is not the
# occupation (docs/alignment.md, conventions of round 10); `导演生涯` is a career.
_CREDITED_WORK_AFTER = re.compile(r"(?:处女作|首作|作品)")
# `1973年投考了…培训班`, `报考黄埔军校`: a school someone sat the entrance
# examination of is not yet one they studied at (`考入`, `被录取` say they got in).
_APPLIED_BEFORE = re.compile(r"(?:投考|报考|应考|报名参加|报名)了?$")
_ADMITTED = re.compile(r"录取|考入|考取|入读|就读|毕业")
# A nationality qualifies a person; a country word that opens the name of a
# school (`日本艺术专科学校…讲师`) or qualifies a work (`中国首部水墨
# 动画片。`) says nothing of the person's nationality. A work noun counts only
# where the phrase ends (`美国电影演员` is a person). Other institutions are
# left alone: DuIE reads `中国工程院院士`, or an honorary post in a national
# sports association, as stating 国籍 中国, and a member of a national body
# mostly is its national.
_NOT_A_PERSON = re.compile(r"[\u4e00-\u9fff]{0,8}?(学校)"
                           r"|[\u4e00-\u9fff]{0,8}?(片|电影|影片|动画|(?<!编)剧|作品|小说)(?=[，。；;、,]|$)")


# `美国漫画界元老级人物`, `香港乐坛天后`: a country before a field (`…界`,
# `…坛`) names that country's art or trade, which one may work in from
# anywhere; it is not the person's nationality (rule 4: a piece of a longer name).
_FIELD_AFTER = re.compile(r"(?!世界)[\u4e00-\u9fff]{1,3}?(?:界|坛)")  # not `英国世界级导演`
# A title's language (`（法语《Les Choristes》）`, `英语片名：“…”`) is not the language of its dialogue.
_TITLE_AFTER = re.compile(r"\s*(?:名|片名|原名|译名)?\s*[：:]?\s*[《“\"]")


# A place that qualifies a kind of person or company (`台湾著名流行女歌手`,
# `中国台湾男歌手周杰伦`) says where they are from: not where the
# entity was born, nor where its album was released, nor a company's seat
# (`香港唱片公司`, `一家台湾唱片公司`: where it is from, not where its head
# office is; the labels of every round read it so). DuIE reads a country
# before a kind of company (a foreign-owned firm of Singapore, a British car
# brand) as 总部地点: four of its triples are dropped for it.
KIND_QUALIFIED_PLACES = frozenset({"出生地", "出生地点", "发行地区", "总部地点"})
# `总部位于香港的唱片公司`: the seat's own word before the place says it is the seat.
_SEAT_BEFORE = re.compile(r"(?:总部|厂址|社址|会址|位于|设于|设在|坐落于|座落于|地处|落户)[^，。；;]{0,4}$")
# For a seat, only a kind word right after the place qualifies it (`香港唱片公司`);
# `位于深圳的高新技术企业` says where the company is.
_SEAT_KIND_AFTER = re.compile(r"(?:(?!的)[\u4e00-\u9fff]){0,8}?(?:公司|集团|企业|厂牌|品牌|机构)")
_KIND_AFTER = re.compile(r"[\u4e00-\u9fff]{0,8}?(?:歌手|演员|艺人|经纪人|导演|明星|音乐人|乐队|乐团|组合"
                         r"|机构|公司|集团|企业|厂牌|品牌)")
def released_in(text: str, s: int, e: int) -> bool:
    """The place at text[s:e] is where the work opened, not where it was made."""
    return bool(_RELEASED_BEFORE.search(text, max(0, s - 2), s) and _RELEASED_AFTER.match(text, e))


# A place before a box office or a market (`韩国本土票房冠军`) is
# where the film played, not where it was made.
_MARKET_AFTER = re.compile(r"(?:本土|国内|地区)?(?:电影)?(?:年度|全年)?(?:票房|市场)")
# A place that opens the name of an award or a festival of film
# (`香港电影金像奖选出…`, `东京国际电影节`) is a piece of that name (rule 4).
_FILM_AWARD_AFTER = re.compile(r"(?:电影|影视|国际)[\u4e00-\u9fff]{0,3}?(?:金像奖|金马奖|电影节|影展|影评人协会)")
# A place before a ranking (`日本百部电影第一名`, `全球第二大…企业`,
# `中国十大…`) is the field the ranking counts over: it says where the
# entity stands, not where it was made or whom it serves.
RANKED_AREA_RELATIONS = PRODUCTION_REGION_RELATIONS | {"服务区域", "服务范围"}
_RANKING_AFTER = re.compile(r"(?:[十百千]大|[一二三四五六七八九十百千0-9]+(?:部|首|张|位|名|强)"
                            r"|第[一二三四五六七八九十0-9]+(?:大|位|名))")
# A company the person founded (`周星驰创办星辉公司`) is theirs, not the agency
# that represents them.
AGENCY_RELATIONS = frozenset({"经纪公司"})
_FOUNDED_BEFORE = re.compile(r"(?:成立|创办|创立|创建|组建|开设|开办)了?$")


# A company credited with making a film (`由迪士尼影业出品的动画片`) is its
# producer, one credited with releasing it (`由焦点电影公司发行`) its
# distributor: the verb right after the name says which, unless the other
# verb follows too (`出品并发行`, `制作发行` state both).
_DISTRIBUTOR_RELATIONS = frozenset({"发行公司", "发行商"})
_PRODUCER_RELATIONS = frozenset({"出品公司", "出品方", "制作公司"})
_CREDIT_VERB_AFTER = re.compile(r"(?:联合|共同)?(出品|发行)(?![并和及、与/]?(?:出品|发行))")


def company_of_another_credit(text: str, e: int, relation: str) -> str | None:
    """Why the company named right before text[e:] is not the relation's
    value: the verb after it credits it with the other of producing and
    releasing the work. None otherwise."""
    if relation not in _DISTRIBUTOR_RELATIONS and relation not in _PRODUCER_RELATIONS:
        return None
    m = _CREDIT_VERB_AFTER.match(text, e)
    if m is None:
        return None
    if m.group(1) == "出品" and relation in _DISTRIBUTOR_RELATIONS:
        return "the producer: " + m.group()
    if m.group(1) == "发行" and relation in _PRODUCER_RELATIONS:
        return "the distributor: " + m.group()
    return None


# `该片翻拍于1974年…的电影《女人香》`: the title of the work the entity was
# remade or adapted from names that work, not the entity (no other name of it).
_REMADE_FROM_BEFORE = re.compile(r"(?:翻拍|重拍|改编|取材)(?:自|于)[^，。；;《》]{0,24}[《“\"]?$")


# The words that name a person as a woman or as a man right before the name
# (`与妻子李蕙仙之子`, `父亲宋嘉树，母亲倪桂珍`): no father of the one, no
# mother of the other (role_cues.MALE_KIN, FEMALE_KIN).
_AS_A_WOMAN = re.compile(r"(?:妻子|夫人|太太|老婆|之女|女儿|母亲|生母|妈妈|皇后|王后|公主|妃)$")
_AS_A_MAN = re.compile(r"(?:丈夫|老公|之子|儿子|父亲|生父|爸爸|皇帝|国王|王子|太子)$")


# An occupation before another person's name and the entity's kinship to
# them (`书画家米芾之婿`) is that person's.
_ANOTHERS_KIN_AFTER = re.compile(r"[\u4e00-\u9fff]{2,3}之(?:婿|子|女|孙|父|母|弟|兄|妻|侄|甥|门人|弟子)")


def name_told_elsewhere(text: str, s: int, e: int, relation: str) -> str | None:
    """Why the name-like mention text[s:e] is not the relation's value, by the
    words around it; None when they say nothing against it."""
    if relation in AGENCY_RELATIONS and _FOUNDED_BEFORE.search(text, max(0, s - 3), s):
        return "a company it founded"
    if (other := company_of_another_credit(text, e, relation)):
        return other
    if relation.endswith(("名", "名称")) and (source := _REMADE_FROM_BEFORE.search(text, max(0, s - 30), s)):
        return "the work it was remade or adapted from: " + source.group()
    if relation in MALE_KIN and (woman := _AS_A_WOMAN.search(text, max(0, s - 3), s)):
        return "named as a woman: " + text[woman.start():e]
    if relation in FEMALE_KIN and (man := _AS_A_MAN.search(text, max(0, s - 3), s)):
        return "named as a man: " + text[man.start():e]
    if relation in OCCUPATION_RELATIONS and (other := _ANOTHERS_KIN_AFTER.match(text, e)):
        return "the occupation of another: " + text[s:other.end()]
    if album_singer(text, s, e, relation):
        return "the singer whose album holds it"
    if (owner := album_of_singer(text, s, e, relation)):
        return "the singer whose album it is: " + owner
    if relation in MEANING_RELATIONS and nickname_of_praise(text, s, e):
        return "a name of praise, not a meaning"
    if relation in DISTRIBUTION_RELATIONS and _SPECIMEN_BEFORE.search(text, max(0, s - 10), s):
        return "where a type specimen was collected"
    if relation in PRODUCTION_REGION_RELATIONS and released_in(text, s, e):
        return "where it was released"
    if relation in PRODUCTION_REGION_RELATIONS and (market := _MARKET_AFTER.match(text, e)):
        return "a market it played in: " + text[s:market.end()]
    if relation in PRODUCTION_REGION_RELATIONS and (award := _FILM_AWARD_AFTER.match(text, e)):
        return "the name of an award: " + text[s:award.end()]
    if relation in RANKED_AREA_RELATIONS and (ranking := _RANKING_AFTER.match(text, e)):
        return "the scope of a ranking: " + text[s:ranking.end()]
    if relation in KIND_QUALIFIED_PLACES and not _SEAT_BEFORE.search(text, max(0, s - 8), s):
        kind = (_SEAT_KIND_AFTER if relation == "总部地点" else _KIND_AFTER).match(text, e)
        if kind:
            return "it qualifies a " + text[e:kind.end()]
    if relation in NEARBY_RELATIONS and (other := sight_told_elsewhere(text, s, e)):
        return other
    if ("语言" in relation or "语种" in relation) and _TITLE_AFTER.match(text, e):
        return "the language of a title"
    if relation in ALMA_MATER and _HONORARY.match(text, e):
        return "an honorary degree"
    if (relation in ALMA_MATER and (applied := _APPLIED_BEFORE.search(text, max(0, s - 4), s))
            and not _ADMITTED.search(text, e, sentence_span(text, s)[1])):
        return "a school it applied to: " + applied.group()
    if relation in OCCUPATION_RELATIONS and (work := _CREDITED_WORK_AFTER.match(text, e)):
        return "a work of one credit: " + text[s:work.end()]
    if relation in NATIONALITY_RELATIONS:
        thing = _NOT_A_PERSON.match(text, e)
        if thing:
            return "it qualifies a " + (thing.group(1) or thing.group(2))
        field = _FIELD_AFTER.match(text, e)
        if field:
            return "the country of a field: " + text[s:field.end()]
    return None


# ------------------------------------------------------------------- dates

# `其前身是1962年…创办的…`: a date told right after 前身 is of what the
# entity grew out of (`前身蚕学馆于1897年设立` dates the founding of both).
_PREDECESSOR = re.compile(r"前身[是为]?\s*$")
# The date of the album a song is on: `收录于…2014年6月推出的专辑《…》`,
# `收录在…1999年那张专辑《…》里`: the album is named after the date, before any title.
_ALBUM_AFTER = re.compile(r"^[^，。；;《》]{0,16}?专辑")
# Events a date of a work's own life (its release, its making) is not: an
# award (`影片捧得1954年威尼斯银狮奖`), a box office (`1988年的北美票房…`),
# a first sale before the release (`7月29日举行首卖会，7月31日正式发行`), or a new name
# (`于1997年3月29日改名“五月天”` is no founding date).
_OTHER_EVENT = re.compile(r"票房|获|奖|提名|入围|评为|评选|排名|榜|首卖|预售|签售|更名|改名")


# `(约 1231 年以前在世)`, `约1100年前后在世`, `1265年尚在世`: a year the
# person was alive in, neither a birth nor a death date, nor any other date
# of theirs. A bare `在世` must end its phrase: `1990年在世界杯上` is a
# date of the cup.
_ALIVE_AFTER = re.compile(r"(?:\s{0,2}年)?\s{0,2}(?:(?:以前|之前|以后|之后|前后|左右)\s{0,2}在世"
                          r"|(?:尚|仍|还)?在世(?=[，,。；;）)\s]|$))")


def alive_in(text: str, e: int) -> bool:
    """The date ending at text[e] is a year the person was alive in."""
    return bool(_ALIVE_AFTER.match(text, e))


def predecessor_date(text: str, s: int) -> bool:
    """The date at text[s:] is told of the entity's predecessor."""
    return bool(_PREDECESSOR.search(text, max(0, s - 4), s))


_IN_ALBUM_BEFORE = re.compile(r"收录(?:于|在|进)$")


def _named_before_album(text: str, s: int, e: int, album_after: re.Pattern) -> bool:
    """The name at text[s:e] stands right after 收录于/在/进, with the album it
    owns told after it (`album_after`)."""
    return bool(_IN_ALBUM_BEFORE.search(text, max(0, s - 3), s)) and bool(album_after.match(text[e:e + 24]))


def album_owner(text: str, s: int, e: int, relation: str) -> bool:
    """The name at text[s:e] is the singer whose album holds the song
    (`收录进张震岳那年推出的专辑`): it names the song's singer."""
    return relation in SINGER_RELATIONS and _named_before_album(text, s, e, _ALBUM_AFTER)


# A song's credits other than its singer.
SONG_CREDITS = frozenset({"作词", "填词", "作曲", "谱曲", "编曲"})
_DASH = r"\s*[-－—–]+\s*"
_DASH_TO_TITLE = re.compile(_DASH + "《?")
_TITLE_DASH = re.compile("》?" + _DASH + "$")


def singer_header(text: str, s: int, e: int, names: tuple[str, ...]) -> bool:
    """The name at text[s:e] heads a song as its singer, joined to the
    song's title by a dash (`王菲 - 红豆`, `《红豆》——王菲`): a track
    listing's or a lyrics sheet's header, which credits the singer only."""
    after = _DASH_TO_TITLE.match(text[e:e + 8])
    if after and any(len(n) >= 2 and text.startswith(n, e + after.end()) for n in names):
        return True
    before = _TITLE_DASH.search(text[max(0, s - 8):s])
    return bool(before) and any(len(n) >= 2 and text.endswith(n, 0, s - len(before.group())) for n in names)


# Relations whose value is the album a song is on.
ALBUM_RELATIONS = frozenset({"所属专辑"})
# `收录于刘若英2000年发行的专辑《我等你》`: whose album it is, told with
# 的 (`我等你专辑` without it names the album itself).
_OWNED_ALBUM_AFTER = re.compile(r"^[^，。；;《》]{0,14}?的[^，。；;《》的]{0,4}专辑")


def album_singer(text: str, s: int, e: int, relation: str) -> bool:
    """The name at text[s:e] is the singer whose album holds the song, not
    the album: `收录于刘若英2000年发行的专辑《我等你》`."""
    return relation in ALBUM_RELATIONS and _named_before_album(text, s, e, _OWNED_ALBUM_AFTER)


# `是徐佳莹第五张音乐专辑，由陈建骐担任制作人`: the name that owns the album
# (`X第N张…专辑`, `X的首张专辑`, `X的…专辑`) is the one who sings it. Its
# other credits (producer, lyricist, composer) are said by their own words.
_ALBUM_OF_AFTER = re.compile(r"的?(?:第[一二三四五六七八九十百0-9]{1,3}|首|新)张[^，。；;《》]{0,8}?专辑"
                             r"|的[^，。；;《》的]{0,6}专辑")
_NOT_SUNG_CREDITS = CREDIT_RELATIONS - SINGER_RELATIONS - {"原唱"}


def album_of_singer(text: str, s: int, e: int, relation: str) -> str | None:
    """The words that make the name at text[s:e] the owner of an album
    (`徐佳莹第五张音乐专辑`) when the relation is a credit other than
    singing; None otherwise. Owning the album says who sings it, not who
    produced it or wrote its songs."""
    if relation not in _NOT_SUNG_CREDITS:
        return None
    m = _ALBUM_OF_AFTER.match(text, e)
    return text[s:m.end()] if m else None


# Relations whose value is where a plant grows.
DISTRIBUTION_RELATIONS = frozenset({"地理分布", "分布", "分布区域", "产地"})
# `模式标本采自四川宝兴`: where a botanist collected the type, not where it grows.
_SPECIMEN_BEFORE = re.compile(r"标本采?[自于][^，。；;]{0,6}$")

# Relations whose value is what a plant or a thing stands for (花语, 象征).
MEANING_RELATIONS = frozenset({"文化寓意", "花语", "象征意义"})
# A nickname of praise (`素有“花中君子”的美誉`, `被誉为“国香”`) is what the
# plant is called, not what it stands for.
_PRAISE_BEFORE = re.compile(r"(?:被誉为|誉为|被称为|号称|美称为)[“\"「]?$")
_PRAISE_AFTER = re.compile(r"[”\"」]?(?:的|之)?(?:美誉|美称|雅称|誉称|称号)")


def nickname_of_praise(text: str, s: int, e: int) -> bool:
    """The mention text[s:e] is a name the text praises the entity with."""
    return bool(_PRAISE_BEFORE.search(text, max(0, s - 5), s) or _PRAISE_AFTER.match(text, e))


def album_date(text: str, sentence_start: int, s: int, e: int) -> bool:
    """The date text[s:e] is the release of the album the song is on (收录…)."""
    return "收录" in text[sentence_start:s] and bool(_ALBUM_AFTER.match(text[e:e + 24]))


# A work's release date, and the words that tell a performance of it
# (`2014年12月12日，A在一档节目中演唱了B的《宝贝》`): a date whose sentence
# has no release word but a performance is the date of that performance.
# (A film's cast `演出` it: a screening date is left alone.)
_RELEASE_RELATION = re.compile(r"^(?:发行|发布|首发|推出)(?:时间|日期)$")
_PERFORMED = re.compile(r"演唱了|翻唱|献唱|演绎了|表演了?|演出了?|合唱了?|唱了")


# A later performance by others is another event than the date's
# (`2006年1月1日，这首歌被收录于…，后来多位歌手翻唱了这首歌`).
_LATER_BEFORE = re.compile(r"(?:后来|此后|之后|其后|随后|多位|许多|不少|曾经?)[^，。；;]{0,6}$")


def performance_date(text: str, s: int, e: int, relation: str) -> str | None:
    """The performance word of the date text[s:e]'s own clause, or of the
    clause right after it when the date opens the sentence as a time
    (`2014年12月12日，A在节目中演唱了…`), for a release date no cue binds;
    None otherwise: singing a song on a show is not releasing it."""
    if not _RELEASE_RELATION.match(relation):
        return None
    lo, hi = clause_span(text, s)
    if hi < len(text) and text[hi] in "，," and not text[e:hi].strip():
        hi = clause_span(text, hi + 1)[1]  # the date alone in its clause: the clause it dates
    for m in _PERFORMED.finditer(text, lo, hi):
        if not _LATER_BEFORE.search(text, max(lo, m.start() - 10), m.start()):
            return m.group()
    return None


def another_event(text: str, s: int, e: int, relation: str, clause_start: int, clause_end: int):
    """The word of another event (an award, a box office) in the clause of the
    date text[s:e], or None; never for an award relation, whose own event it is."""
    if is_award_relation(relation):
        return None
    return _OTHER_EVENT.search(text, clause_start, s) or _OTHER_EVENT.search(text, e, clause_end)


# A courtesy name (字), an art name (号) or a posthumous name (谥号) is given right after its word
# (`字子高`, `自号赤城居士`, `号鹿门居士、襄阳漫士`): the same characters
# elsewhere are a place, a book or the head of a longer name (`具茨山下`,
# `《东堂词》`, `双溪` of `号双溪居士`), never the poet's name.
_COURTESY_WORD = {"字": re.compile(r"(?:初|一|又|原|本)?字$"),
                  "号": re.compile(r"(?:自|又|晚|别|亦|初|一|道|法)?号$"),
                  # a posthumous name: `卒谥文`, `追谥文忠`, `谥曰忠武`, `谥号文正`, `谥号为文正`
                  "谥号": re.compile(r"谥号?(?:曰|为|是)?$")}
_COURTESY_ITEMS = re.compile(r"(?:[^、，,。；;（）()\s字号]+、)*$")
_COURTESY_END = frozenset("，,。；;、（）() ”\"」』")


def _private_posthumous(text: str, e: int, relation: str) -> bool:
    """`卒谥庄靖先生`: a posthumous name given by the poet's pupils is said
    with 先生 after it, which is no longer name."""
    return relation == "谥号" and text.startswith("先生", e) and (e + 2 == len(text) or text[e + 2] in _COURTESY_END)


def courtesy_name_off(text: str, s: int, e: int, relation: str) -> str | None:
    """Why the mention text[s:e] is no `字`, `号` or `谥号` of the entity, or None: it
    must follow its word (or an item of the list after it) and end where
    the name ends."""
    word = _COURTESY_WORD.get(relation)
    if word is None:
        return None
    if e < len(text) and text[e] not in _COURTESY_END and not _private_posthumous(text, e, relation):
        return f"the head of a longer name {text[s:e + 2]}…"
    before = text[max(0, s - 24):s].rstrip("“\"「『：: ")  # `谥号“文正”`
    items = _COURTESY_ITEMS.search(before)
    if not word.search(before, 0, items.start()):
        return f"not after {relation}"
    return None


# Where a person lived or moved to, or another account of their origin, is
# no birthplace: `徙居襄阳`, `家宋城`, `后定居润州`, `一云临海人` (docs/alignment.md,
# Song poets: "a place the poet lived, served or died in is not a birthplace").
BIRTHPLACE_RELATIONS = frozenset({"出生地", "籍贯"})
_RESIDENCE_BEFORE = re.compile(r"(?:徙居|寓居|侨居|迁居|定居|移居|隐居|居于|家于|(?:^|[，,。；;、\s])家|一云|一说|一作)\s*$")


# Where the entity's forebears came from (`先世自安定徙居…`) is its 籍贯 as
# often as not, never its birthplace.
_FOREBEARS_BEFORE = re.compile(r"(?:先世|其先|先祖|祖上)(?:自|由|本|为|系)?\s*$")


# `家乡丰润`, `家族`, `家世`: 家 opening a word of home or lineage says no residence.
_HOME_WORDS = frozenset("乡族世")
# A place inside the note of today's name (`家泽州 (今山西晋城)`) is said of the
# place before the note: that place's words tell whether it was the birthplace.
_TODAYS_NOTE_BEFORE = re.compile(r"[\u4e00-\u9fff]{2,4}\s*[（(]\s*今[^（）()]{0,12}$")


def residence_not_birth(text: str, s: int, relation: str) -> str | None:
    """Why the place at text[s:] is where the entity lived, not where it was born, or None."""
    if relation not in BIRTHPLACE_RELATIONS:
        return None
    note = _TODAYS_NOTE_BEFORE.search(text, max(0, s - 24), s)
    heads = range(note.start(), note.start() + 3) if note else (s,)
    for h in heads:
        m = _RESIDENCE_BEFORE.search(text, max(0, h - 4), h)
        if m and not (m.group(0).endswith("家") and text[h] in _HOME_WORDS):
            return f"lived there: {m.group(0).strip('，,。；;、 ')}"
    f = _FOREBEARS_BEFORE.search(text, max(0, s - 4), s) if relation == "出生地" else None
    return f"the forebears' place: {f.group(0).strip()}" if f else None


# ------------------------------------------------------------ a poem to a tune

# Cells of a person's works. A 词牌 (transforms/resources/ci_tunes.txt) names
# hundreds of poems: the text names one of them by the tune and its first line
# in brackets (`临江仙（忆昔午桥桥上饮）`) or its title after a dot
# (`念奴娇·赤壁怀古`), which is no mention of a cell that gives the tune alone
# (docs/alignment.md, "Song poets": a 词牌 alone names hundreds of poems).
_WORKS_CELLS = frozenset({"代表作品", "主要作品", "代表作", "作品"})
# The relations courtesy_name_off, residence_not_birth or not_the_work can
# answer for at all: each returns None at its first test for any other
# (align_triple calls none of them then; speed only).
ELSEWHERE_RELATIONS = frozenset(_COURTESY_WORD) | BIRTHPLACE_RELATIONS | _WORKS_CELLS
_ONE_POEM_AFTER = re.compile(r"》?\s*(?:[（(][\u4e00-\u9fff，,、]{3,14}[）)]|[·・][\u4e00-\u9fff])")
# A bracket of credits or notes is no first line.
_NOT_A_FIRST_LINE = re.compile(r"主演|导演|执导|演唱|作词|作曲|电影|电视剧|歌曲|专辑|版|[、，,]")


@lru_cache(maxsize=1)
def ci_tunes() -> frozenset[str]:
    from transforms.word_lists import word_list

    return word_list("ci_tunes.txt")


# An anthology or a reference the poet's works are found in (`存词见《乐府补题》`,
# `载《全宋词》`) is no work of the poet's.
_FOUND_IN_BEFORE = re.compile(r"(?:见|见于|(?<![连刊转登记])载(?:于)?|收入|收于|录入|选入|散见)《?$")


def not_the_work(text: str, s: int, e: int, value: str, relation: str) -> str | None:
    """Why the mention text[s:e] of a works cell names something else, or None:
    one poem to the tune a tune-only cell gives (`《虞美人》` by
    `虞美人（春花秋月何时了）`), or the book the works are found in."""
    if relation not in _WORKS_CELLS:
        return None
    if _FOUND_IN_BEFORE.search(text, max(0, s - 3), s):
        return f"where the works are found: {text[max(0, s - 3):e + 1]}"
    if value.strip().strip("《》") not in ci_tunes():
        return None
    m = _ONE_POEM_AFTER.match(text, e)
    if m is None or _NOT_A_FIRST_LINE.search(m.group()):
        return None  # `《满江红》（沈腾、易烊千玺主演）` is a film with its cast
    return f"one poem to the tune: {text[s:m.end()]}"
