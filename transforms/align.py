"""Triple–text alignment: where, if anywhere, does the text state a value?

The redundant-triple filter (paper §3.2) keeps a triple only when the pair's
text supports it. `align_value` looks for that support in levels, cheapest
first, and stops at the first hit:

1. exact: `str.find` on the raw strings, then on normalised forms (width,
   case, spaces, punctuation; see transforms/text.py). Latin/digit edges
   must fall on a word boundary so `6亿` is not found inside `7.61亿`.
2. date: the value parses as a date (`1994年5月27日`, `1994-05-27`,
   `1994.5.27`, `一九九四年`) and the text holds a compatible date in any
   surface form. A value less precise than the text (`1994年` against
   `1994年5月27日`) matches; a text less precise than the value only with
   `date_allow_partial` (off: the text does not state the day).
3. number: the value parses as a number with an optional multiplier and unit
   (`2900万美元`, `1.75米`, `12首`) and the text holds the same quantity in
   another form (`2,900万美元`, `175厘米`, `十二首`). Units of another
   dimension never match (`5月` is not `5首`).
4. alias: another name of the value: anchor titles from value_links, the
   linked page's title, the parts inside/outside brackets of the value.
5. fuzzy: rapidfuzz partial_ratio on normalised strings locates a candidate,
   then an edit script verifies it: at most (100 - `fuzzy_threshold`)% of
   the value's characters inserted or omitted (`美国纽约曼哈顿` /
   `美国纽约市曼哈顿`), no replaced character in values shorter than
   `fuzzy_substitution_min_length` (山东/山西电影制片厂 are two studios), and
   the same digit runs. Only values of at least `fuzzy_min_length`
   characters. It is the slowest level (10-20x str.find), so it runs only on
   what every exact level missed.

Offsets in the returned Alignment always refer to the ORIGINAL text. The
levels live in their own modules: exact, date, number and alias in
transforms/align_levels.py, fuzzy in align_fuzzy.py, the other forms in
align_forms.py (with places.py, addresses.py, sight_names.py and awards.py);
what every candidate span must then pass (word boundaries, longer names,
modifiers, roles) in mentions.py, longer_names.py, modifiers.py, roles.py
and align_kinds.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import NamedTuple, Sequence

from transforms.quantities import find_dates, find_quantities, parse_date, parse_duration_range, parse_quantity
from transforms import align_forms as _forms
from transforms.addresses import address_before_own_name
from transforms import awards as _awards
from transforms import roles as _roles
from transforms.cue_index import CueIndex, is_cued
from transforms.align_fuzzy import fuzzy_edits, fuzzy_score, fuzzy_span
from transforms.align_levels import (
    alias_spans, date_spans, exact_spans, not_range_bounds, number_spans, text_date_spans, text_quantity_spans,
)
from transforms.align_kinds import (
    after_own_name, before_own_name, dated_kind, inside_own_name, is_name_relation, kind_mismatch, shared_value,
    subject_name, titled, work_value,
)
from transforms.longer_names import inside_longer_name
from transforms.modifiers import modified_mention
from transforms.sight_names import names_the_entity, sight_spans
from transforms.mentions import entry_lexicon, word_fit
from transforms.given_names import GIVEN_NAME_RELATIONS, given_name_spans
from transforms.other_roles import (
    ELSEWHERE_RELATIONS, SONG_CREDITS, courtesy_name_off, is_award_relation, nominated, not_the_work,
    residence_not_birth, singer_header,
)
from transforms.sight_roles import NEARBY_RELATIONS, address_of_another
from transforms.text import boundary_ok, normalise
from transforms.value_variants import BRACKETS, OPENERS, value_variants, variants


@dataclass
class AlignConfig:
    """Which alignment levels run, and how strict they are."""

    exact: bool = True
    dates: bool = True
    numbers: bool = True
    aliases: bool = True
    fuzzy: bool = True
    # rapidfuzz partial_ratio score (0-100) at or above which a fuzzy match counts.
    fuzzy_threshold: float = 85.0
    # Shorter values are never fuzzed: one changed character in a 3-character
    # name is another name.
    fuzzy_min_length: int = 5
    # Values shorter than this must match without replaced characters (only
    # inserted/omitted ones): 山东电影制片厂 is not 山西电影制片厂.
    fuzzy_substitution_min_length: int = 12
    # A text date less precise than the value (`1994年` for `1994年5月27日`)
    # still supports it. Off by default: the text then does not state the day,
    # and on DuIE this was the main source of false support. A value less
    # precise than the text (`1994年` vs `1994年5月27日`) always matches.
    date_allow_partial: bool = False
    # A bare number in the text (no unit) may support a value with a unit.
    number_allow_unitless_text: bool = True
    # Relative tolerance when comparing quantities after unit conversion.
    number_rel_tol: float = 1e-9
    # Issue 10. A CJK value matches only as a whole word or name of the text
    # (jieba segmentation + the entry's names; transforms/mentions.py).
    word_boundaries: bool = True
    # A mention that heads or ends a common-noun compound (`国语专辑`, `彩色动画`)
    # is a word of it; a name (`中国科学院`) still cuts it.
    compounds: bool = True
    # Nor a piece of a title in 《》, an edition-numbered award (第57届德国电影奖)
    # or a quoted institution name (transforms/longer_names.py).
    longer_names: bool = True
    # Nor inside words that make it another value: a degree, a shade, an
    # outline, a sub-kind or a region beyond (`较耐阴`, `深红色`, `近球形`,
    # `亚灌木`, `…以南`; transforms/modifiers.py).
    modifiers: bool = True
    # Choose the span by the cues of the relation near each mention, and
    # reject a value whose only mentions are in another role (transforms/roles.py).
    roles: bool = True
    # Other forms (transforms/align_forms.py), each named in `match`.
    demonyms: bool = True      # 上海人 = 上海市
    places: bool = True        # 出生于孟买 = 印度马哈拉施特拉邦孟买市
    list_items: bool = True    # A、B、C成员 = B成员
    paraphrases: bool = True   # 教育部与浙江省人民政府共建 = 省部共建
    lifespans: bool = True     # 曹渊（1902—1926） = 出生日期 1902年
    short_names: bool = True   # 华纳兄弟公司 = 华纳兄弟娱乐公司
    nationalities: bool = True  # 希腊籍 = 国籍 希腊
    eras: bool = True          # 唐太宗 = 朝代 唐
    awards: bool = True        # 第23届凯撒奖最佳导演奖 = 第23届 法国电影凯撒奖最佳导演奖
    transliterations: bool = True  # 卡罗莱纳 = 卡罗莱那
    sights: bool = True        # 八大处 = 周边景点 八大处公园
    given_names: bool = True   # 又名延嗣 = 别名 冯延嗣 (transforms/given_names.py)

    # Each matching level as `match` names it, and the field that switches it.
    LEVELS = (("exact", "exact"), ("lifespan", "lifespans"), ("date", "dates"), ("number", "numbers"),
              ("alias", "aliases"), ("given_name", "given_names"), ("transliteration", "transliterations"), ("demonym", "demonyms"),
              ("place", "places"), ("sight", "sights"), ("list_item", "list_items"),
              ("paraphrase", "paraphrases"), ("short_name", "short_names"), ("award", "awards"),
              ("nationality", "nationalities"), ("era", "eras"), ("fuzzy", "fuzzy"))

    def __post_init__(self) -> None:
        if not 0.0 <= self.fuzzy_threshold <= 100.0:
            raise ValueError(f"fuzzy_threshold is a rapidfuzz score in [0, 100], not {self.fuzzy_threshold}")
        if self.fuzzy_min_length < 1:
            raise ValueError("fuzzy_min_length must be >= 1")


class Alignment(NamedTuple):
    """Support of a value in the text: original [start, end), the level, and
    the role evidence: the cue word that bound the mention to the relation
    (None when no cue was near) and a score (1 an own cue binds the mention,
    0.9 an own cue in its clause, 0.75 in its sentence, 0.5 no cue at all;
    None when roles are off). A named tuple, not a frozen dataclass: one is
    made for every candidate mention, and a frozen dataclass costs three
    times as much to make."""

    start: int
    end: int
    match: str  # exact | date | number | alias | given_name | transliteration | demonym | place | sight | list_item | paraphrase | lifespan | short_name | award | nationality | era | fuzzy
    cue: str | None = None
    support_score: float | None = None


# A bracketed other name of the title: a few characters, no digits, no kind
# of thing (`书画馆`, `国家体育场`; not `2004年电影`, `美国歌手`).
_OTHER_NAME = re.compile(r"^(?![\s\S]*(?:电影|影片|歌曲|专辑|人物|演员|歌手|作品|组合|乐队|游戏|小说|动画|电视剧|节目|品牌|公司))"
                         r"[\u4e00-\u9fff]{2,8}$")


class AlignContext:
    """What an entry tells about its own text: the names a mention must not
    cut (transforms/mentions.py), where the cues of its relations are
    (transforms/roles.py), the dates and quantities of the text, and which
    relations give each value. Built once per entry; each part is computed
    on first use, since most values are never found at all."""

    def __init__(self, raw: dict, text: str, triples: Sequence[dict], cfg: AlignConfig,
                 mined_cues: dict | None = None):
        self.entity = raw.get("title") or ""
        self._raw, self._text, self._triples, self._mined = raw, text, triples, mined_cues
        self._lexicon = self._cues = self._date_anchors = self._quantity_anchors = None
        self.roles = cfg.roles
        self._value_relations: dict[str, set] | None = None

    @property
    def own_names(self) -> tuple[str, ...]:
        """The title, and the other name in the title's brackets when it is a
        name (`鸟巢（国家体育场）`), not a disambiguation (`（2004年电影）`)."""
        sub = self._raw.get("subtitle") or ""
        return (self.entity, sub) if _OTHER_NAME.match(sub) else (self.entity,)

    @property
    def value_relations(self) -> dict[str, set]:
        """normalised value -> the relations the entry gives it for."""
        if self._value_relations is None:
            self._value_relations = {}
            for t in self._triples:
                self._value_relations.setdefault(normalise(t["tail"]), set()).add(t["relation"])
        return self._value_relations

    @property
    def lexicon(self) -> frozenset:
        if self._lexicon is None:
            # An address is a description of where the entity is, not one name:
            # a sight or a town named inside it is a name of its own.
            self._lexicon = entry_lexicon(self._raw, [t["tail"] for t in self._triples
                                                      if t["relation"] not in _forms.ADDRESS_RELATIONS])
        return self._lexicon

    @property
    def cues(self):
        if self._cues is None and self.roles:
            relations = [t["relation"] for t in self._triples]
            dated = {}
            for t in self._triples:
                kind = dated_kind(t["tail"])
                # a date given as a person's role (`主演 1993年1月1日`) is
                # of another kind: it makes no dated relation of 主演
                if kind is not None and not kind_mismatch(t["tail"], t["relation"]):
                    dated[t["relation"]] = kind
            self._cues = CueIndex.build(self._text, relations, dated, self._mined)
        return self._cues

    @property
    def date_anchors(self) -> tuple:
        """Spans of the text's dates (what a date cue binds to)."""
        if self._date_anchors is None:
            self._date_anchors = text_date_spans(self._text)
        return self._date_anchors

    @property
    def quantity_anchors(self) -> tuple:
        """Spans of the text's quantities that are not date parts; apart from
        the dates, since most dated values are dates and never need them."""
        if self._quantity_anchors is None:
            self._quantity_anchors = text_quantity_spans(self._text)
        return self._quantity_anchors


class _Plan(NamedTuple):
    """Which levels past the exact one can find a value in SOME text, read
    from the value (and relation) alone; see _value_plan."""

    outside: str   # the value without its bracket notes (the date level's second try)
    date: bool
    number: bool
    transliteration: bool
    list_item: bool
    paraphrase: bool
    short_name: bool
    nlen: int      # len(normalise(value)), for the fuzzy level's length bounds


def _outside_brackets(value: str) -> str:
    """The value without its bracket notes (`2015年06月18日（中国）` -> the date)."""
    return BRACKETS.sub("", value).strip() if not OPENERS.isdisjoint(value) else value


@lru_cache(maxsize=16384)
def _value_plan(value: str, relation: str | None) -> _Plan:
    """Speed only (session 41): each flag is False exactly when its level's
    function returns [] at its first step, before it reads the text: date_spans
    without parse_date of the value or of its part outside brackets,
    number_spans without parse_quantity or parse_duration_range,
    transliteration_spans without a sound-group character or a dot
    (transliteration_possible), list_item_spans for a value under four
    characters (its suffix form breaks at k=1, its head form needs five),
    paraphrase_spans without a form of the value's shape (paraphrase_possible),
    short_name_spans without company_core. A skipped level would have
    yielded no candidate, which align_triple passes over: the decisions are
    the same. Cached by (value, relation), as values repeat across entries;
    bounded, so memory stays flat."""
    outside = _outside_brackets(value)
    return _Plan(outside,
                 parse_date(value) is not None or (outside != value and parse_date(outside) is not None),
                 parse_quantity(value) is not None or parse_duration_range(value) is not None,
                 _forms.transliteration_possible(value),
                 len(value) >= 4,
                 _forms.paraphrase_possible(value, relation),
                 _forms.company_core(value) is not None,
                 len(normalise(value)))


def _levels(value: str, text: str, aliases: Sequence[str], cfg: AlignConfig, relation: str | None,
            ctx: AlignContext | None):
    """(level, candidate spans, judged as a name?) cheapest first; lazily."""
    # The lifespan after the name is the most specific statement of a birth
    # or death date (`1926年3月` later in the text is another event).
    # (lifespan_spans is [] for any relation but a birth or a death date: the
    # call and the empty level are skipped for the others; speed only)
    if cfg.lifespans and ctx is not None and relation and (
            relation in _forms.BIRTH_RELATIONS or relation in _forms.DEATH_RELATIONS):
        yield "lifespan", _forms.lifespan_spans(value, relation, text, ctx.entity), False
    if cfg.exact:
        yield "exact", not_range_bounds(value, text, exact_spans(value, text)), True
    # Past the exact level (about half the values: those not in the text),
    # the levels that cannot find this value in any text are skipped
    # (_value_plan). Should the plan raise (a hostile value a level's own
    # parser fails on), every level runs as before and fails where it did.
    try:
        plan = _value_plan(value, relation)
    except Exception:
        plan = None
    if cfg.dates and (plan is None or plan.date):
        # `2015年06月18日（中国）`: the date without its bracket note
        outside = plan.outside if plan is not None else _outside_brackets(value)
        yield "date", date_spans(value, text, cfg) or (date_spans(outside, text, cfg) if outside != value else []), False
    if cfg.numbers and (plan is None or plan.number):
        yield "number", number_spans(value, text, cfg, relation), False
    if cfg.aliases:
        names = [*aliases, *variants(value)]
        if names:  # alias_spans([]) is []
            yield "alias", alias_spans(names, text), True
    if cfg.given_names and ctx is not None and relation in GIVEN_NAME_RELATIONS:
        # judged by its own word, not as a word of the text (`弟辙` is one)
        yield "given_name", given_name_spans(value, text, relation, ctx.entity), False
    if cfg.transliterations and (plan is None or plan.transliteration):
        yield "transliteration", _forms.transliteration_spans(value, text, relation or ""), True
    if cfg.awards and relation and is_award_relation(relation):
        yield "award", _awards.award_spans(value, text), False
    if cfg.demonyms and relation in _forms.DEMONYM_RELATIONS:
        yield "demonym", _forms.demonym_spans(value, text), True
    if cfg.nationalities and (relation in _forms.NATIONALITY_RELATIONS
                              or relation in _forms.PRODUCTION_REGION_RELATIONS):
        # a production region's short form is a place name like any other: a
        # word of the text, never a piece of `香港电影金像奖`
        yield ("nationality", _forms.nationality_spans(value, text, relation),
               relation in _forms.PRODUCTION_REGION_RELATIONS)
    if cfg.eras and relation in _forms.DYNASTY_RELATIONS:
        yield "era", _forms.era_spans(value, text), False
    if cfg.places and relation in _forms.PLACE_RELATIONS:
        placed, subject = value, None
        if ctx is not None and relation in _forms.ADDRESS_RELATIONS:
            # the name the sight is told by where the text places it (`慕田峪村位于怀柔区渤海镇`)
            placed, closing = address_before_own_name(value, ctx.own_names)
            subject = closing or ctx.entity
        yield "place", _forms.place_spans(placed, text, relation, subject), True
    if cfg.sights and relation in NEARBY_RELATIONS:
        yield "sight", sight_spans(value, text, ctx.own_names if ctx is not None else ()), True
    if cfg.list_items and (plan is None or plan.list_item):
        yield "list_item", _forms.list_item_spans(value, text), True
    if cfg.paraphrases and (plan is None or plan.paraphrase):
        yield "paraphrase", _forms.paraphrase_spans(value, text, relation), False
    if cfg.short_names and (plan is None or plan.short_name):
        yield "short_name", _forms.short_name_spans(value, text), True
    # fuzzy_span's own first test: too short a value, or no edit allowed
    if cfg.fuzzy and (plan is None or fuzzy_edits(plan.nlen, cfg) != 0):
        hit = fuzzy_span(value, text, cfg)
        yield "fuzzy", [hit] if hit else [], True


# The mentions of a value judged per level, earliest first. A real text names
# a value at most a score of times (18 at the most in 20k entries of the build
# corpus); a hostile one names it thousands of times, and each mention's role
# is read from its clause, so without a bound one entry would cost the square
# of its length.
MAX_MENTIONS = 64

# The dates in brackets right after the entity's name are its own: no cue needed.
_LIFESPAN_EVIDENCE = _roles.RoleEvidence("own", "lifespan", 1.0)
# `王菲 - 红豆` heads the song with its singer: no lyricist's or composer's
# credit (whether it says who sings is left to the cues: the labellers read
# such a header either way).
_HEADER_OF_ANOTHER = _roles.RoleEvidence("other", "the singer's header", 0.0)


def align_triple(value: str, text: str, aliases: Sequence[str] = (), cfg: AlignConfig | None = None,
                 relation: str | None = None, ctx: AlignContext | None = None) -> tuple[Alignment | None, str]:
    """(support of the value, "") or (None, why not).

    Levels run cheapest first. Within a level, every candidate mention is
    checked for word boundaries (a CJK name never cut out of a longer one)
    and, with a context, for its role: the candidate with the best role
    evidence wins, the earliest on ties. A level whose candidates are all in
    another role passes on to the next; if no level has a candidate in the
    right role, the detail names the cue of the role it had instead."""
    cfg = cfg or AlignConfig()
    if not value or not text or not value.strip():
        return None, "empty value or text"
    if cfg.roles and ctx is not None:
        wrong = kind_mismatch(value, relation, ctx.entity)
        if wrong:
            return None, f"value of another kind: {wrong} for {relation}"
    if cfg.roles and cfg.sights and ctx is not None and relation in NEARBY_RELATIONS \
            and names_the_entity(value, ctx.own_names):
        return None, f"the entity itself: {value} names {ctx.entity}"
    kind = dated_kind(value)
    dated, date_like = kind is not None, kind == "date"
    other_role: list[str] = []
    uncued: list[str] = []  # mentions without the cue their relation needs in their sentence
    cut: list[str] = []
    lexicon = None
    for level, spans, name_like in _levels(value, text, aliases, cfg, relation, ctx):
        if not spans:
            continue
        best = inner = None  # the best word; the best head of another name of the entry
        if lexicon is None:  # one closure per triple, not per mention
            lexicon = (lambda: ctx.lexicon) if ctx is not None else frozenset()
        for s, e in islice(spans, MAX_MENTIONS):
            fit = word_fit(text, s, e, lexicon, cfg.compounds) if cfg.word_boundaries and name_like else "word"
            if fit is None:
                cut.append(text[s:e])
                continue
            longer = inside_longer_name(text, s, e, relation) if cfg.longer_names and name_like else None
            if longer:
                cut.append(f"{text[s:e]}@{s} in {longer}")
                continue
            modified = modified_mention(value, text, s, e, relation) if cfg.modifiers else None
            if modified:
                cut.append(f"{text[s:e]}@{s} in {modified}")
                continue
            if (cfg.roles and ctx is not None and name_like and relation and not is_name_relation(relation)
                    and value != ctx.entity):
                own = after_own_name(text, s, ctx.entity, relation)
                named = None if own else before_own_name(text, e, ctx.own_names, relation)
                itself = (level != "exact" and text[s:e] == ctx.entity) or (
                    relation in _forms.ADDRESS_RELATIONS and e - s >= 3 and any(text[s:e] in n for n in ctx.own_names))
                if own or named or inside_own_name(text, s, e, ctx.entity) or itself:
                    # `华纳兄弟游戏`: a name made from the entity's; `故宫书画馆`:
                    # a piece of the entity's name; `拉维尼` in `艾薇儿·拉维尼`,
                    # `蔡依林` for 蔡依林工作室: the entity itself
                    cut.append(f"{text[s:e]}@{s} " + (f"after the entity's name {own}" if own else
                                                      f"before the entity's name {named}" if named else "the entity itself"))
                    continue
            if cfg.roles and ctx is not None and relation in _forms.ADDRESS_RELATIONS:
                other = address_of_another(text, s, ctx.own_names)
                if other:
                    other_role.append(f"{text[s:e]}@{s} (the address of {other})")
                    continue
            if cfg.roles and name_like and titled(text, s, e) and not work_value(value, relation):
                # `《陈奕迅》是…专辑`: a title in 《》 names a work, not a person or place
                other_role.append(f"{text[s:e]}@{s} (《》)")
                continue
            elsewhere = (courtesy_name_off(text, s, e, relation) or residence_not_birth(text, s, relation)
                         or not_the_work(text, s, e, value, relation)
                         if cfg.roles and relation and relation in ELSEWHERE_RELATIONS else None)
            if elsewhere:
                other_role.append(f"{text[s:e]}@{s} ({elsewhere})")
                continue
            if not cfg.roles or ctx is None or ctx.cues is None or not relation:
                if fit != "in_name":
                    best = Alignment(s, e, level)
                    break
                inner = inner or Alignment(s, e, level)
                continue
            if level == "lifespan":
                ev = _LIFESPAN_EVIDENCE
            elif level in ("date", "number") or (dated and level != "award"):
                anchors = ctx.date_anchors if date_like else ctx.quantity_anchors
                ev = _roles.dated_role(ctx.cues, relation, s, e, list(anchors),
                                       "date" if date_like else "quantity")
            elif relation in SONG_CREDITS and singer_header(text, s, e, ctx.own_names):
                ev = _HEADER_OF_ANOTHER
            else:
                ev = _roles.name_role(ctx.cues, relation, s, e)
            if ev.verdict in ("own", "neutral") and nominated(text, s, e, relation, value):
                ev = _roles.RoleEvidence("other", "nominated", 0.0)
            if ev.verdict in ("other", "uncued"):
                (other_role if ev.verdict == "other" else uncued).append(f"{text[s:e]}@{s} ({ev.cue})")
                continue
            if fit == "in_name":
                if inner is None or ev.score > (inner.support_score or 0):
                    inner = Alignment(s, e, level, ev.cue, ev.score)
            elif best is None or ev.score > (best.support_score or 0):
                best = Alignment(s, e, level, ev.cue, ev.score)
                if ev.score >= 1.0:
                    break  # bound by its own cue: no later mention can do better
        if inner is not None and (best is None or (inner.support_score or 0) > (best.support_score or 0)):
            best = inner  # on equal evidence, a word wins over the head of another name
        if best is not None:
            if (best.support_score is not None and best.support_score < 1.0
                    and shared_value(value, relation, ctx, titled(text, best.start, best.end))):
                # The entry gives this value for another relation too (导演 A /
                # 主演 A, 歌手 张德兰 / 所属专辑 张德兰): only a cue of this
                # relation binding the mention tells which one the text states.
                return None, f"value also given for {'/'.join(sorted(ctx.value_relations[normalise(value)] - {relation}))}; no cue of {relation} binds it"
            if (best.support_score is not None and best.support_score < 1.0
                    and subject_name(value, relation, text, ctx.entity, best.start)):
                return None, f"the entity's own name as its text's subject; no cue of {relation} binds it"
            if (other_role and best.support_score is not None and best.support_score < 0.9
                    and is_cued(relation or "")):
                # The relation has cues, its cue-bound mentions are all in
                # another role, and what is left has no cue of its own: the
                # text names the value, but not in this role.
                return None, "only mentions in another role: " + "; ".join(other_role[:3])
            return best, ""
    if other_role or uncued:
        return None, "only mentions in another role: " + "; ".join((other_role + uncued)[:3])
    if cut:
        return None, "only inside longer names: " + "; ".join(dict.fromkeys(cut[:3]))
    return None, ""


def align_value(value: str, text: str, aliases: Sequence[str] = (), cfg: AlignConfig | None = None,
                relation: str | None = None, ctx: AlignContext | None = None) -> Alignment | None:
    """Support of `value` in `text`, or None (see `align_triple`). `aliases`
    are other names of the value (anchor titles, linked page titles);
    variants from brackets in the value are added here. `relation` (optional)
    lets the number level accept a counting unit for a bare count (曲目数量 10 /
    收录十首歌曲), and the forms of align_forms.py apply by relation."""
    return align_triple(value, text, aliases, cfg, relation, ctx)[0]


def align_context(raw: dict, text: str, triples: Sequence[dict], cfg: AlignConfig,
                  mined_cues: dict | None = None) -> AlignContext:
    """The context of one entry (lexicon of its names, cue index of its relations)."""
    return AlignContext(raw, text, triples, cfg, mined_cues)


__all__ = ["AlignConfig", "AlignContext", "Alignment", "align_value", "align_triple", "align_context",
           "parse_date", "find_dates", "parse_quantity", "find_quantities", "value_variants", "fuzzy_score",
           "boundary_ok"]
