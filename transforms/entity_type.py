"""Coarse entity typing for pairs (the entity) and triples (each tail value).

Types: person, organisation, place, work, species, event, date, number,
quantity, other. Splitting stratifies by the entity type and distractor
generation draws same-type distractors, so a person or a work typed `other`
gives distractors from the wrong pool; the type must be cheap, stable and
explainable. Labelling rules and measured accuracy: docs/entity_types.md.

Entity type: weighted votes from the infobox relation signature (出生日期 /
国籍 -> person, 注册资本 -> organisation, 导演 -> work; exact names and name
parts such as 出生地点), tags, the head noun of the disambiguation subtitle
and of the summary's defining clause (transforms/defining_clause.py, shared
with the domain classifier: "《冰雪奇缘》是……动画电影" -> work), the title's
ending (…公司, …锦标赛), 《》 titles and weak name evidence. The words live
in resources/entity_type_lexicon.json.
Tail type: the value's own shape first (dates like 1994年5月27日, numbers,
quantities with units like 200万平方米 / 12首 / 6人; a dynasty, 唐朝, is a
date: transforms/eras.py; a bare number under a relation that names a work
is its title, 《2046》), then what the relation
says its object is (导演 -> person, 出品公司 -> organisation, 国籍 -> place),
then the value's ending like a title's (…出版社, 紫荆属, 上海市, 《…》);
type_pair gives an alias tail (别名, 简称, 号) the entity's own type.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from transforms.defining_clause import (
    SuffixIndex,
    defining_phrases,
    head_nouns,
    names_entry,
    norm_relation,
    segments_before_copula,
    split_title,
)
from transforms.eras import is_dynasty

TYPES = ("person", "organisation", "place", "work", "species", "event", "date", "number", "quantity", "other")
# What an entry (a pair's entity) can be; date/number/quantity are shapes of tail values only.
ENTITY_TYPES = ("person", "organisation", "place", "work", "species", "event", "other")


@dataclass
class TypingConfig:
    """Typed config of the entity-typing stage (BuildConfig.typing)."""

    enabled: bool = True


# ---------------------------------------------------------------- value shapes
_NUM = r"[-+]?(?:\d+(?:[.,]\d+)*|[零〇一二两三四五六七八九十百千万亿]+)(?:\.\d+)?"
# (form, a date only under a temporal relation?)
_DATE_RES = [
    (re.compile(r"^(?:公元前?)?\d{1,4}年(?:\d{1,2}月(?:\d{1,2}日)?)?(?:[至—\-~－]+(?:\d{1,4}年)?(?:\d{1,2}月)?(?:\d{1,2}日)?)?(?:[（(].*[)）])?$"), False),
    (re.compile(r"^\d{1,2}月(?:\d{1,2}日)?$"), False),
    (re.compile(r"^\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?$"), False),
    (re.compile(r"^\d{4}$"), True),  # a bare year: "1994" under 人口 is a number
    (re.compile(r"^(?:\d+世纪|\d+年代)(?:初|中|末|中期|后期|初期)?$"), False),
    # an approximate date (`约1763年`, `约公元前551年`): a date when the relation is
    # temporal, else an amount of years (`历史 约300年` is a quantity)
    (re.compile(r"^(?:约|大约)(?:公元前?)?\d{1,4}年(?:\d{1,2}月(?:\d{1,2}日)?)?$"), True),
]
_NUMBER_RE = re.compile(rf"^{_NUM}(?:%|[万亿]+)?$")  # 8.905亿 (a box office) is a number too
_UNIT = (
    r"(?:平方公里|平方千米|平方米|平方英里|公顷|亩|立方米|千米|公里|厘米|毫米|米|英尺|英寸|吨|千克|公斤|克|kg|g|km|m|cm|mm|ml|L|升|毫升|"
    r"元|美元|人民币|港元|欧元|日元|亿元|万元|円|"
    r"人|名|位|户|个|首|部|集|章|卷|册|页|本|张|枚|座|所|家|辆|种|项|次|场|届|岁|年|天|小时|分钟|分|秒|"
    r"℃|°C|度|%|‰|MB|GB|KB|K|M|mAh|W|kW|千瓦|万千瓦|MW|Hz|GHz|m³/s|立方米每秒)"
)
_QUANTITY_RE = re.compile(
    rf"^(?:约|近|超过|共|逾|达)?{_NUM}(?:\s*[-~～—至]\s*{_NUM})?\s*(?:多|余)?\s*[万亿千百]*\s*{_UNIT}(?:[^\d]{{0,6}})?$",
    re.I,
)
# What a relation may name for its object: a bare number under it is a name, not an amount.
_NAMED_TYPES = frozenset({"person", "organisation", "place", "work", "species", "event"})
_TEMPORAL_RELATIONS = ("时间", "日期", "年份", "年代", "生日", "诞辰", "出生", "逝世", "成立", "创办", "上映", "首播", "发行", "出版", "竣工", "始建", "建于")


def value_shape(value: str, relation: str = "") -> str | None:
    """date / number / quantity from the value's form, else None."""
    v = (value or "").strip().replace("，", ",")
    if not v or len(v) > 40:
        return None
    for rx, temporal_only in _DATE_RES:
        if rx.match(v):
            if temporal_only and not any(k in relation for k in _TEMPORAL_RELATIONS):
                break  # "1994" under 人口 is a number, not a year
            return "date"
    if _NUMBER_RE.match(v):
        return "number"
    if _QUANTITY_RE.match(v):
        return "quantity"
    return None


# -------------------------------------------------------------- the lexicon
@lru_cache(maxsize=1)
def load_type_lexicon() -> dict[str, Any]:
    """transforms/resources/entity_type_lexicon.json, relation names lower-cased
    (infobox names mix cases: ISBN / isbn, CPU主频 / cpu主频)."""
    lex = json.loads(resources.files("transforms").joinpath("resources/entity_type_lexicon.json").read_text("utf-8"))
    lex["relations"] = {t: frozenset(r.lower() for r in rels) for t, rels in lex["relations"].items()}
    lex["tail_index"] = {rel: t for t, rels in lex["tail_relations"].items() for rel in rels}
    # Title endings: the title-only suffixes, then the head nouns (a title is a
    # noun phrase too: 上海大学学报, 伯根航空301号班机空难). Person heads are left
    # out: a name ending in 王 or 人 is as often a work's title. Title-only
    # suffixes win over heads: a title ending in 唱片 is a label.
    lex["title_index"] = SuffixIndex(
        [(t, w) for t, w in lex["title_suffixes"].items()] + [(t, w) for t, w in lex["heads"].items() if t != "person"]
    )
    lex["head_index"] = SuffixIndex(lex["heads"])
    lex["alias_set"] = frozenset(lex["alias_relations"])
    lex["tail_index_head"] = {v: t for t, vals in lex["tail_signals"].items() for v in vals}
    lex["translit_set"] = frozenset(lex["transliteration_chars"])
    lex["dotted_title_tunes"] = frozenset(lex["dotted_title_tunes"])
    lex["genre_re"] = re.compile("(?:" + "|".join(map(re.escape, lex["genre_tails"])) + ")+(?:片|剧|电影|小说|游戏)?")
    return lex


# What a summary's opening says the entity is ("…是蔷薇科落叶灌木", "…，男，汉族").
_TEXT_HINTS: dict[str, re.Pattern] = {
    "species": re.compile(r"[科属]的?(?:植物|动物|物种)|(?:落叶|常绿)?(?:乔木|灌木|草本|藤本)|多年生|一年生|(?:鸟|鱼|昆虫)类"),
    "person": re.compile(r"[，,]\s*[男女]\s*[，,]|(?:\d{3,4}年\d{1,2}月(?:\d{1,2}日)?)?出生于|生于\d{3,4}年|[（(]\d{3,4}年\s*[—\-－–至]"),
}
# A plant page talks about the plant's parts right after its name
# ("香樟花绿白色", "枇杷叶长椭圆形", "马蔺分布于…").
_PLANT_PART_RE = re.compile(r"(?:的)?(?:树皮|树干|叶片?|花(?:梗|序|冠|瓣|期|语)?|果实?|种子|枝条?|幼枝|块茎|根系?|茎)|(?:原产|分布于|分布在)")
# Taxon ranks a tail value may end in (紫荆属, 蔷薇科).
_TAXON_ENDS = ("属", "科", "亚科", "总科", "亚属")
# Relations whose tails are identifiers, not quantities (电话 15652000852).
_IDENTIFIER_RELATIONS = ("电话", "代码", "编码", "编号", "号码", "邮编", "区号", "书号", "ISBN", "ISSN", "CN", "IMDb", "imdb")


@dataclass
class TypeDecision:
    type: str
    reason: str  # which signal decided, e.g. "relations:出生日期,国籍"


# Signal weights. The summary's defining clause and the subtitle's head noun
# are the page's own statement of what the entry IS, so they outweigh a tag
# or two; the title's ending and a plant-like name are hints only.
W_HEAD, W_SUBTITLE_HEAD, W_SUBTITLE_HINT, W_TITLE_MARKS, W_TEXT, W_SPECIES_NAME = 3.0, 3.0, 2.5, 2.0, 1.5, 0.75
# A title's ending is weaker than one infobox relation when it is one character
# (毁灭都市 is a game, 今日说法 a programme), stronger when it is a word (锦标赛).
W_TITLE_END, W_TITLE_END_LONG = 0.9, 1.5
# Transliterated names are written with a middle dot: 阿尔弗雷德·冯·提尔皮茨.
_FOREIGN_NAME_RE = re.compile(r"^[\u4e00-\u9fff]{1,8}(?:[·•‧・][\u4e00-\u9fffA-Z.]{1,8}){1,3}$")
# A ·-joined title of Chinese words (贺新郎·别友, a 词牌 and its title; 周易略例·明彖) is a
# work's title, not a transliterated name, when few of its characters are transliteration
# characters AND its first part is a listed 词牌/曲牌 or ends in a word naming a text
# (dotted_title_tunes / dotted_title_heads): 拿破仑·波拿巴, 吐尔逊·买买提 are people.
_DOTTED_TITLE_RE = re.compile(r"^([\u4e00-\u9fff]{2,8})(?:[·•‧・][\u4e00-\u9fff]{1,12}){1,3}$")
# A department of a university or college (…学院财经系, …大学物理研究所) is a body of people;
# 大学生人际关系 and 大学英语课程体系 are not (…关系, …体系 are no departments).
_DEPARTMENT_RE = re.compile(r"(?:大学|学院)[^，,]{0,8}(?:(?<![关体联派谱水星语直旁世嫡维母父])系|研究所)$")
# A museum piece named the catalogue way: [era][kiln or glaze][decoration][vessel]
# (…窑…执壶, 青花…纹…瓶): an artefact, a work.
_ARTEFACT_RE = re.compile(r"^.{2,}(?:窑|釉|青花|粉彩|五彩|斗彩|纹|铜|玉).{0,10}[壶瓶罐碗盘杯盏炉鼎尊洗盒觚爵]$")
# A Latin binomial (Ginkgo biloba, Rosa chinensis var. …): a species. The genus ends the way
# Latin nouns end (not in -d, -t, -k, -ss: Hello world, Miss you) and every epithet has a
# Latin ending (-us, -a, -um, -is, -ii, -ae, -ensis, -oides, -ata, -ana, -ia…), so sentence-case
# English titles (See you again, Love yourself) are not read as species.
_LATIN_EPITHET = r"[a-z]{2,}(?:us|um|a|ae|i|is|ensis|ense|oides|ides|ix|ex|ax|yx|ens|ans|os|as|ale|are|ile|or|er)"
_LATIN_BINOMIAL_RE = re.compile(r"^[A-Z][a-z]*(?:a|e|o|us|um|is|es|os|as|on|an|ex|ix|ax|yx|nx|er|or|ps|ys|ns)\s" + _LATIN_EPITHET
                                + r"(?:\s(?:(?:var|subsp|f)\.\s)?" + _LATIN_EPITHET + r")?$")
# An English firm's name (Reprise Records, Sony Music Entertainment, X Inc.). A legal form or
# Records/Bank/University/College/Airlines/Holdings follows one name word; the suffixes that are
# ordinary words too (Pictures, Entertainment, Studios, Group, Company) need two words before
# them, none a participle or a contraction: Moving Pictures (an album) and That's Entertainment
# (a song) are no firms, Sony Music Entertainment and Walt Disney Pictures are.
_ENGLISH_ORG_RE = re.compile(r"^[A-Z][\w&.'-]*(?:\s[\w&.'-]+)*\s(?:Records|Inc\.?|Ltd\.?|Limited|Corporation|Corp\.?|Co\.|"
                             r"Bank|University|College|Airlines|Holdings|F\.?C\.?)$"
                             r"|^(?![^ ]*(?:ing|'s?)\s)[A-Z][\w&.-]*(?:\s(?![\w&.-]*(?:ing|'s?)\s)[\w&.-]+)+\s"
                             r"(?:Company|Group|Entertainment|Studios?|Pictures)$")
# Botanical names that start with the leaf's shape (卵叶连翘, 披针叶茴香, 阔叶十大功劳).
_LEAF_PREFIX_RE = re.compile(r"^(?:卵|披针|心|圆|尖|阔|狭|长|宽|细|柳|线|掌|羽|齿|裂|光|毛|短|大|小|异|全缘|倒卵)叶[\u4e00-\u9fff]{2,5}$")
# Bus and metro routes are services, not places: 温州公交41路, 地铁2号线.
_ROUTE_RE = re.compile(r"(?:公交|巴士|地铁).*\d+(?:路|号线|线)$|^\d+路(?:公交|车)?$")
# Numbered celestial bodies: 小行星3753, 彗星C/2020.
_NUMBERED_BODY_RE = re.compile(r"^(?:(?:小行星|彗星|星系|星云)\s*[\dA-Z]|[土木天海火]卫[一二三四五六七八九十\d]+$)")
# A season of a programme: 奔跑吧兄弟第三季.
_SEASON_RE = re.compile(r"第[一二三四五六七八九十\d]+季$")
# Shapes of a title that tell its type, in the order they vote: (test, type, weight, signal).
_NAME_SHAPES = (
    (_DEPARTMENT_RE.search, "organisation", W_TITLE_END_LONG, "name:department"),
    (_ARTEFACT_RE.match, "work", W_TITLE_END_LONG, "name:artefact"),
    (_LATIN_BINOMIAL_RE.match, "species", W_TITLE_END_LONG, "name:latin_binomial"),
    (_ENGLISH_ORG_RE.match, "organisation", W_TITLE_END_LONG, "name:english_firm"),
    (_LEAF_PREFIX_RE.match, "species", W_TITLE_END, "name:leaf_prefix"),
    (_ROUTE_RE.search, "other", W_TITLE_END_LONG, "name:route"),
    (_NUMBERED_BODY_RE.match, "place", W_TITLE_END_LONG, "name:numbered_body"),
    (_SEASON_RE.search, "work", W_TITLE_END, "suffix:季"),
)


def _looks_like_a_chinese_name(title: str, surnames: list[str]) -> bool:
    """Two or three Han characters after a family name (王伟, 钱玥, 欧阳修); asked
    only when nothing else fired, since many surnames are common words too."""
    for sur in surnames:
        if title.startswith(sur):
            given = title[len(sur):]
            return 1 <= len(given) <= 2 and all("\u4e00" <= c <= "\u9fff" for c in given)
    return False


@lru_cache(maxsize=65536)
def _relation_types(rel: str) -> tuple[str, ...]:
    """Types whose relation signature holds `rel` (exact name or a part of it);
    cached, since a corpus repeats a few thousand relation names."""
    lex = load_type_lexicon()
    return tuple(t for t, names in lex["relations"].items()
                 if rel in names or any(p in rel for p in lex["relation_patterns"].get(t, ())))


@lru_cache(maxsize=65536)
def _tag_types(tag: str) -> tuple[str, ...]:
    return tuple(t for t, words in load_type_lexicon()["tags"].items() if any(w in tag for w in words))


_PRONOUNS = ("他", "她", "它", "其", "该", "本", "此", "这")


def _subject_is_entry(sent: str, phrase: str, title: str) -> bool:
    """The clause holding the copula must be about the entry: its subject (what
    precedes 是 after the last comma) is empty, the title, an alias or a pronoun."""
    k = sent.find(phrase)
    if k <= 0:
        return True
    clauses = re.split(r"[，,：:]", sent[:k].rstrip("指").rstrip("是"))
    clause = clauses[-1]
    if not clause.strip():  # "成都，简称蓉，…，是…": the subject is elided; the topic is the clause naming the entry
        clause = next((c for c in clauses if title in c), "")
    clause = re.sub(r"[（(][^）)]*[）)]", "", clause).strip("《》“”\"' 　")
    if not clause or clause.endswith(title) or clause.startswith(_PRONOUNS) or (len(clause) >= 2 and title.startswith(clause)):
        return True
    # a short alias ("杨玉环是…" for 杨贵妃) or the name without its ending ("某牌X200是…"
    # for 某牌X200手机); "沙棘的虫害是…" is about a part, not the entry
    return len(clause) <= 4 and names_entry(clause, title) and title not in clause


def _defining_heads(text: str, title: str, heads: SuffixIndex) -> list[tuple[str, str]]:
    """(type, head) of the summary's defining clause ("X是……的<head>")."""
    shape, phrases = defining_phrases(text, title)
    sent = re.split(r"[。；;！？!?\n]", text.strip(), maxsplit=1)[0]
    for phrase in phrases:
        if shape == "short" and title in phrase:
            continue  # "赵亮毕业于某学院。" is a sentence about the entry, not a noun phrase naming it
        if shape == "strict" and sent[sent.find(phrase) + len(phrase):].lstrip().startswith(("：", ":")):
            continue  # "作者：某某" is a field label, not what the entry is
        if shape == "copula" and not _subject_is_entry(sent, phrase, title):
            continue  # "从《某书》中可以看出，某人是……美人": the subject of 是 is someone else
        # A biography opening without 是 ("某某，字某，思想家、教育家") counts only
        # person nouns: "…又名次山" or "…以及腐烂病" name no kind of entry.
        hits = head_nouns(phrase, heads, strict=shape == "strict", person=True)
        if hits and (shape != "strict" or all(t == "person" for t, _ in hits)):
            return hits
    if shape == "copula":
        for seg in segments_before_copula(text):
            hits = head_nouns(seg, heads, strict=True, person=False)
            if hits:
                return hits
    return []


def _translit_share(title: str, chars: frozenset) -> float:
    han = [c for c in title if "\u4e00" <= c <= "\u9fff"]
    return sum(c in chars for c in han) / len(han) if han else 0.0


def _polysemy_subtitle(title: str, tails: Iterable[tuple[str, str]]) -> str:
    """The subtitle a 多义词 tail gives the head itself: 燃情岁月 ||| 多义词 ||| 燃情岁月（…电影）."""
    for rel, tail in tails:
        if "多义" in (rel or ""):
            m = re.match(r"^(.+?)[（(]([^（）()]+)[）)]$", (tail or "").strip())
            if m and m.group(1).strip("《》 ") == title:
                return m.group(2)
    return ""


def _japanese_name(title: str, surnames: list[str], species_ends: Iterable[str] = ()) -> bool:
    """A listed Japanese family name and a one- or two-character given name (佐藤健, 田中将大);
    not when a plant or animal ending covers the whole given name (中山杉, 千叶兰, 黑木耳:
    the "surname" is part of a species' name), though 田中一树 is still a name."""
    for sur in surnames:
        if title.startswith(sur):
            given = title[len(sur):]
            if any(title.endswith(e) and len(e) >= len(given) for e in species_ends):
                return False
            return 1 <= len(given) <= 2 and all("\u4e00" <= c <= "\u9fff" for c in given)
    return False


def _is_genre_list(tail: str, genre_re: re.Pattern) -> bool:
    """A 类型 value listing a genre (剧情、犯罪; 悬疑/惊悚; 都市　喜剧; 爱情片): one of its parts is a
    genre, or genres run together (都市言情), with at most 片/剧/电影/小说/游戏 after it; 动画制作公司,
    恐怖袭击, 国际大都市 and 世界纪录 hold a genre word but no part is one."""
    return any(genre_re.fullmatch(p) for p in re.split(r"[、，,/／;；|\s\u3000]+", tail) if p)


def entity_type(entity: str, tags: Iterable[str] = (), relations: Iterable[str] = (), subtitle: str | None = None,
                text: str = "", tails: Iterable[tuple[str, str]] = ()) -> TypeDecision:
    """Coarse type of a pair's entity, with the signals that decided it.

    `tails` are (relation, tail) pairs of the infobox: a few values say what the
    head is whatever the relation (前锋, 连载中, a 多义词 value with the head's subtitle)."""
    lex = load_type_lexicon()
    heads = lex["head_index"]
    title, sub = split_title(entity or "", subtitle)
    bare = title.strip("《》 ")
    tails = [(norm_relation(r or ""), str(v or "").strip()) for r, v in tails]
    sub_kind = "subtitle"
    if not sub:
        sub = _polysemy_subtitle(bare, tails)
        sub_kind = "polysemy" if sub else sub_kind
    rels = {norm_relation(r).lower() for r in relations if r}
    tags = [t for t in tags if t]
    votes: dict[str, float] = {}
    why: dict[str, list[str]] = {}

    def vote(t: str, w: float, what: str) -> None:
        votes[t] = votes.get(t, 0.0) + w
        why.setdefault(t, []).append(what)

    rel_hits: dict[str, list[str]] = {}
    for r in sorted(rels):
        for t in _relation_types(r):
            rel_hits.setdefault(t, []).append(r)
    for t in lex["relations"]:
        hit = rel_hits.get(t)
        if hit:
            vote(t, min(len(hit), 4) * 1.0, "relations:" + ",".join(hit[:4]))
    tag_hits: dict[str, list[str]] = {}
    for tag in tags:
        for t in _tag_types(tag):
            tag_hits.setdefault(t, []).append(tag)
    for t in lex["tags"]:
        hit = tag_hits.get(t)
        if hit:
            vote(t, 1.5 * min(len(hit), 2), "tags:" + ",".join(hit[:3]))
    if sub:
        sub = sub.split("——")[0]  # "（河南卫视栏目——汉字英雄）": what follows the dash repeats the name
        # "（东汉名臣，字某某）": each comma part is a noun phrase; the first with a head decides
        hits = next((h for h in (head_nouns(part, heads) for part in re.split(r"[，,；;]", sub)) if h), [])
        for t, w in hits[-1:]:  # the last coordinated head: "（华语男歌手、演员）"
            vote(t, W_SUBTITLE_HEAD, f"{sub_kind}_head:" + w)
        if not hits:
            # "（小说《西游记》中的人物）" names the work the entry belongs
            # to; only words after the last 中 / 里 describe the entry itself.
            sub_self = re.split(r"[中里](?:的|设定)", sub)[-1] if re.search(r"[中里](?:的|设定)", sub) else sub
            for t, words in lex["subtitle_hints"].items():
                hit = [w for w in words if (sub_self.endswith(w) if len(w) == 1 else w in sub_self)]
                if hit:
                    vote(t, W_SUBTITLE_HINT, f"{sub_kind}:" + hit[0])
    t, suffix = lex["title_index"].longest(bare, min_rest=1)
    if suffix:  # a one-character ending (市, 法) is a weaker hint than 锦标赛
        vote(t, W_TITLE_END if len(suffix) == 1 else W_TITLE_END_LONG, "suffix:" + suffix)
    end = next((w for w in lex["title_person"] if len(bare) > len(w) and bare.endswith(w)), "")
    if end:
        vote("person", W_TITLE_END, "suffix:" + end)  # 太古最强大帝 is a novel: weaker than one relation
    if _FOREIGN_NAME_RE.match(bare) and _translit_share(bare, lex["translit_set"]) >= 0.4:
        vote("person", W_TITLE_END, "name:transliterated")
    elif (m := _DOTTED_TITLE_RE.match(bare)) and (m.group(1) in lex["dotted_title_tunes"] or
                                                  m.group(1).endswith(tuple(lex["dotted_title_heads"]))):
        vote("work", W_TITLE_END, "name:dotted_title")
    for rel, tail in tails:  # one vote per type: 前锋 under any relation, 连载中, a genre under 类型
        t = lex["tail_index_head"].get(tail)
        if not t and rel == "类型" and _is_genre_list(tail, lex["genre_re"]):
            t, tail = "work", "genre"
        if t and not any(w.startswith("tail:") for w in why.get(t, [])):
            vote(t, 1.0, "tail:" + tail)
    for found, t, w, what in _NAME_SHAPES:
        if found(bare):
            vote(t, w, what)
    if title.startswith("《") and title.endswith("》"):
        vote("work", W_TITLE_MARKS, "book_title_marks")
    elif bare and f"《{bare}》" in (text or "")[:200]:
        vote("work", W_TEXT, "text_title_marks")  # weaker than a 《》 title: a text may quote a place's name
    for t, w in _defining_heads(text or "", bare, heads)[-1:]:
        vote(t, W_HEAD, "head:" + w)
    opening = (text or "")[:80]
    for t, rx in _TEXT_HINTS.items():
        m = rx.search(opening)
        if m:
            vote(t, W_TEXT, "text:" + m.group(0))
    if bare and opening.startswith(bare) and _PLANT_PART_RE.match(opening, len(bare)):
        vote("species", W_TEXT, "text:" + opening[len(bare) : len(bare) + 3])
    if len(bare) >= 2 and not any(bare.endswith(w) for w in lex["title_species_not"]):
        end = next((w for w in lex["title_species"] if bare.endswith(w)), "")
        if end:
            vote("species", W_SPECIES_NAME, "species_name:" + end)
    # a listed Japanese family name outweighs a plant-like ending only (田中一树 is no tree)
    if set(votes) <= {"species"} and votes.get("species", 0.0) <= W_SPECIES_NAME and \
            _japanese_name(bare, lex["japanese_surnames"], lex["title_species"]):
        vote("person", W_TITLE_END, "name:japanese")
    if not votes and _looks_like_a_chinese_name(bare, lex["surnames"]):
        vote("person", W_TITLE_END, "name:surname")
    if not votes:
        return TypeDecision("other", "no_signal")
    best = max(votes, key=lambda t: (votes[t], -TYPES.index(t)))
    return TypeDecision(best, ";".join(why[best]))


def tail_type(value: str, relation: str = "") -> TypeDecision:
    """Coarse type of a triple's tail value."""
    lex = load_type_lexicon()
    rel = norm_relation(relation)
    if any(k in rel for k in _IDENTIFIER_RELATIONS):
        return TypeDecision("other", f"identifier:{rel}")
    shape = value_shape(value, rel)
    named = lex["tail_index"].get(rel)
    if shape == "number" and named in _NAMED_TYPES:
        # a title that is a number (王家卫's 《2046》, 李志's album 《8》): a work
        # perturbed as a number gave options 1, 2, 3 … 10
        return TypeDecision(named, f"relation:{rel}")
    if shape:
        return TypeDecision(shape, "value_pattern")
    if is_dynasty(value, rel):
        return TypeDecision("date", "dynasty")  # transforms/eras.py: an era, not a place
    if named:
        return TypeDecision(named, f"relation:{rel}")
    v = (value or "").strip()
    if v.startswith("《") and v.endswith("》"):
        return TypeDecision("work", "book_title_marks")
    if len(v) <= 20 and not re.search(r"[，。；,;]", v) and "奖" not in v:  # …最佳专辑奖 is an award
        # A short name is typed by its ending like a title (…出版社, …战役, …日报,
        # 紫荆属); not by `other` endings nor by species words other than taxa
        # (…植物 in a 生长习性 value describes, it does not name).
        t, suf = lex["title_index"].longest(v)
        if suf and len(v) > len(suf) and t != "other" and (
            suf in _TAXON_ENDS or (t != "species" and len(suf) > 1) or (t == "place" and len(v) <= 8)
        ):
            return TypeDecision(t, f"suffix:{suf}")
    return TypeDecision("other", "no_signal")


def type_pair(pair: dict[str, Any]) -> dict[str, Any]:
    """Copy of a pair dict with entity_type and triples[].tail_type set."""
    new = dict(pair)
    triples = [dict(t) for t in (pair.get("triples") or [])]
    new["entity_type"] = entity_type(
        pair.get("entity") or "", pair.get("tags") or [], [t.get("relation") or "" for t in triples], pair.get("subtitle"),
        pair.get("text") or "", [(t.get("relation") or "", str(t.get("tail") or "")) for t in triples],
    ).type
    aliases = load_type_lexicon()["alias_set"]
    for t in triples:
        if norm_relation(t.get("relation") or "") in aliases:
            t["tail_type"] = new["entity_type"]  # another name of the entity itself (别名, 简称, 号)
        else:
            t["tail_type"] = tail_type(str(t.get("tail") or ""), t.get("relation") or "").type
    new["triples"] = triples
    return new
