"""Role-aware choice of a value's support span (issue 10 §2).

A value may occur several times in a text, or only in another role:
`夜风 作词 乔任梁` against `由乔任梁演唱`; `校庆日 5月27日` against a merger
date; `制作人 方大同` against `由歌手方大同演唱的…`. The evidence for a
mention is the *cue words* of relations near it: the relation's own name and
stem (`出生日期` → `出生`), its synonyms (`导演` → `执导`), and cues mined
from the input (transforms/cue_mining.py) passed in per relation;
transforms/cue_index.py finds them in the text.

For each mention, the cues of the entry's relations are looked up in its
clause (between `，；。` and line breaks). The cue that binds to the mention is
the nearest one: right after it (`乔任梁演唱`, `A、B主演`, with the cues it
is listed with: `作词、作曲`), or else right before it (`制作人是方大同`,
`出生于孟买`, `主要演员有A、B`). Then:

- `own`: the binding cue is one of the relation's own: supported, score 1;
- `other`: it belongs only to another relation of the entry: this mention is
  in another role and does not support the triple;
- `neutral`: no cue of any relation of the entry in the clause; it supports
  the triple (score 0.5, or 0.75 with an own cue elsewhere in the sentence);
- `uncued`: the relation needs a cue in the mention's sentence
  (SENTENCE_CUE_ONLY) and has none: the mention does not support the
  triple, but it is no evidence of another role either, so it does not
  outweigh a neutral mention elsewhere.

A date or quantity needs more: several of them may sit in one sentence
(`创刊于2001年，由原《…学刊》（1986-2000年）改名而来`). A cue binds to the
nearest date (or quantity) of its sentence, and a date or quantity supports
the relation only through its own cue, or, when its sentence holds no cue of
a dated relation of the entry at all, as `neutral`.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from typing import NamedTuple

from transforms.cue_index import COLON, EVENT, ROLE, CueIndex, is_cued
from transforms.other_roles import (
    album_date, album_owner, alive_in, another_event, is_award_relation, name_told_elsewhere, performance_date,
    predecessor_date,
)
from transforms.role_cues import (
    BOUND_IN_CLAUSE, BOUND_ONLY, CREDIT_KEYS, CREDIT_RELATIONS, CUE_TABLE, PART_PLAYED, PERSON_RELATIONS, QUALIFIED,
    QUALIFIES_A_THING, SELF_QUALIFIED, SENTENCE_CUE_ONLY, SENTENCE_EVIDENCE,
)
from transforms.text import clause_span, sentence_span

# What joins the cues of one credit: `作词、作曲`, `导演兼编剧`, `作词/作曲/编曲`,
# `总导演兼总编剧`, `词曲创作并演唱`.
_CREDIT_JOINERS = frozenset("、和与及并且兼/／总")
# What lists one name after another (`邓超与中国女演员孙俪`, `张三、英国演员李四`).
_NAME_JOINERS = frozenset("、和与及")


def _joins(gap: str) -> bool:
    """Only joiners (and `创作`) stand between two cues of one credit."""
    return all(ch in _CREDIT_JOINERS for ch in gap.replace("创作", ""))


# A work is what an award was won with, never an award itself.
WORK_RELATIONS = frozenset({"代表作品", "主要作品"})



class RoleEvidence(NamedTuple):
    """What the cues near one mention say of its role (a named tuple: one is
    made for every candidate mention)."""

    verdict: str  # own | other | neutral | uncued
    cue: str | None
    score: float


# How many cues on either side of a mention its role is read from. A real
# clause or sentence holds 12 cues at most (23k entries of the real corpora
# and the labelled pages), so this changes nothing there; a hostile clause
# holds thousands (`甲主演乙主演…`), which every mention read whole.
_CUE_REACH = 64


def _cues_in(index: CueIndex, lo: int, hi: int, s: int, e: int):
    """(start, end, cue, relation) of the cues in [lo, hi) outside [s, e), the
    nearest _CUE_REACH on either side."""
    inside = index.in_span(lo, hi)
    if len(inside) > 2 * _CUE_REACH:  # sorted by start: (s,) sorts before every cue starting at s
        at = bisect_left(inside, (s,))
        inside = inside[max(0, at - _CUE_REACH):bisect_left(inside, (e,), at) + _CUE_REACH]
    return [c for c in inside if c[1] <= s or c[0] >= e]


# What may stand between a mention and the cue that binds it.
# Right of the mention: the rest of a list it heads (`A、B主演`), a title or
# a pronoun (`李沧东作家编剧`, `张艺谋他导演的`) and particles (`A等主演`,
# `A共同执导`, `A特别出演`, `根据A同名小说改编`).
_NOTE = r"(?:[（(][^）)，。；;]{0,15}[）)])?"  # `C.Y.Kong（江志仁）编曲`
_RIGHT_GAP = re.compile(rf"^{_NOTE}(?:[、和与及&＆/／][^，。；;：:、和与及&＆/／（(]{{1,20}}{_NOTE})*"
                        r"(?:先生|女士|老师|作家|本人|他|她)?"
                        r"(?:等[^，。；;：:]{0,6}|共同|联合|特别|友情|倾情|合作|亲自|担任(?:[\u4e00-\u9fff]{0,4}的)?|的|男|女|的?同名)?$"
                        r"|^[（(]$")  # `汤尼（作曲）、孙仪（作词）`: the role in brackets after the name
# Left of it: particles (`由`, `是`, `于`), then the list items before it
# (`主要演员有A、B、C`).
_LEFT_GAP = re.compile(r"^(?:[由是为于在有以如：:家人者师]|担任|人是|者是|者为|包括|包含){0,3}"
                       r"(?:[^，。；;：:、和与及&＆/／]{1,15}[、和与及&＆/／])*$")  # `作词：徐世珍&吴辉福`, `导演: A / B`


# Nouns a nationality or an origin qualifies, with up to four characters of
# modifiers between (`美国单口相声演员`, `英国著名导演`).
_NOUN_CUES = frozenset(CUE_TABLE["国籍"]) - {"国籍", "籍", "来自", "国家", "国家及地区"}
_MODIFIERS = re.compile(r"^[\u4e00-\u9fff]{0,4}$")


def _qualified_noun(right: list[tuple[int, int, str, str]]) -> bool:
    """The first cue right of a mention is a noun that a nationality qualifies
    (`美国单口相声演员`), across a few modifiers; only a nationality's noun
    binds so: `周冬雨被张艺谋导演选中` names 张艺谋, not 周冬雨, the director."""
    at = right[0][0]
    return any(c[0] == at and c[3] in BOUND_IN_CLAUSE and c[2] in _NOUN_CUES for c in right)


# How far from a group of credits the next cue of its list may start. No cue
# is 64 characters long, and no list puts 64 joiners between two credits: a
# cue further off cannot join, and the walk stops there, so that a clause of
# thousands of cues (hostile input) costs what a short one does, not their
# square.
_LIST_REACH = 128


def _left_group(text: str, left: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """The last cue left of a mention with the cues listed before it
    (`作词、作曲`, `作词/作曲/编曲：`) and those at its own place (`词曲` of
    作词 and of 作曲): what binds the mention after them."""
    last = left[-1]
    group_start = last[0]
    group = [last]
    for c in reversed(left[:-1]):
        if c[0] < group_start - _LIST_REACH:
            break  # every cue from here on ends too far left to join (they are sorted by start)
        if c[1] <= group_start and _joins(text[c[1]:group_start]):
            group.append(c)
            group_start = c[0]
        elif c[1] == last[1]:
            group.append(c)
    return group


def _squeeze(gap: str) -> str:
    return "".join(gap.split())


_KEY_SLASH = re.compile(r"\s*[/／]")


def _separator(text: str, cue: tuple[int, int, str, str]) -> re.Match | None:
    """The colon after a cue (`作词：林夕`), or the slash after a credit key (`词/林夕`)."""
    return COLON.match(text, cue[1]) or (_KEY_SLASH.match(text, cue[1]) if cue[2] in CREDIT_KEYS else None)


def _binds_right(text: str, cue: tuple[int, int, str, str]) -> bool:
    """A cue followed by its colon (or a credit key by its slash) names what
    comes after it, and only that."""
    return _separator(text, cue) is not None


# A clause that is one name alone (`张国荣，张丰毅，巩俐主演`).
_BARE_NAME = re.compile(r"^\s*[\u4e00-\u9fff·]{2,6}\s*$")
# How many names a comma list is followed through: a cast list is far
# shorter; a text of thousands of bare names (hostile input) is then read
# once per mention up to here, not to its end.
_COMMA_LIST_REACH = 32


def _comma_list_end(text: str, lo: int, hi: int, s: int, e: int) -> int | None:
    """A list written with commas (`张国荣，张丰毅，巩俐主演`): when the
    mention's clause is the name alone and a clause beside it is a name
    alone too, the list goes on to the first clause that holds more than a
    name, and ends there. Its end, or None. (A name alone before its story,
    `张国荣，1956年生于香港`, has no bare name beside it.)"""
    if text[lo:hi].strip() != text[s:e]:
        return None
    beside = []
    if hi + 1 < len(text) and text[hi] in "，,":
        beside.append(clause_span(text, hi + 1))
    if lo >= 2 and text[lo - 1] in "，,":
        beside.append(clause_span(text, lo - 2))
    if not any(_BARE_NAME.match(text[a:b]) for a, b in beside):
        return None
    end = hi
    for _ in range(_COMMA_LIST_REACH):
        if not (end + 1 < len(text) and text[end] in "，,"):
            break
        a, end = clause_span(text, end + 1)
        if not _BARE_NAME.match(text[a:end]):
            break
    return end


def name_role(index: CueIndex, relation: str, s: int, e: int) -> RoleEvidence:
    """Role of the mention text[s:e] of a name-like value.

    The cue that binds the mention is the first cue to its right when only
    the rest of a list or a particle stands between them (`A、B主演`,
    `由陆川执导`), with the cues listed with it (`作词、作曲`); else the last
    cue to its left, across particles and the items listed before the
    mention (`制作人是方大同`, `主要演员有A、B`); a cue followed by a colon
    binds only to its right (`作词：林夕 作曲：周传雄`)."""
    text = index.text
    elsewhere = name_told_elsewhere(text, s, e, relation)
    if elsewhere:
        return RoleEvidence("other", elsewhere, 0.0)
    if album_owner(text, s, e, relation):
        return RoleEvidence("own", "专辑", 1.0)
    lo, hi = clause_span(text, s)
    if e - 1 >= hi:  # the mention runs past its first clause's end
        hi = max(hi, clause_span(text, e - 1)[1])
    listed = _comma_list_end(text, lo, hi, s, e)
    hi = listed or hi
    # Event words date, they do not name; role verbs mark only credit relations;
    # a nationality's noun says nothing of a name listed before the one it
    # qualifies (`邓超与中国女演员孙俪结婚`).
    cues = [c for c in _cues_in(index, lo, hi, s, e)
            if c[3] != EVENT and (c[3] != ROLE or relation in CREDIT_RELATIONS)
            and not (relation in PERSON_RELATIONS and c[3] in BOUND_IN_CLAUSE and c[0] >= e
                     and _NAME_JOINERS.intersection(text[e:c[0]]))]
    own_anywhere: list[tuple] = []
    binding: list[tuple] = []
    # (Speed only.) Without a cue in its clause, as for half the mentions, nothing
    # below binds the mention or is its relation's own: both stay empty.
    if cues:
        award = is_award_relation(relation)
        if award or relation in WORK_RELATIONS:
            # An award is told apart only from other awards (`被誉为“金牌导演”`
            # names no director's credit); a work is what an award was won with
            # (`凭借《冷山》获得…`), so award cues do not bind a work.
            cues = [c for c in cues if is_award_relation(c[3]) == award]
        if not text[lo:s].strip(" 《“\"'"):
            # The subject of a clause is not what a dated relation's cue binds:
            # `北大创办于1898年` dates the founding, it does not name 北大 in that role.
            cues = [c for c in cues if c[3] == relation or c[3] not in index.dated]
        own_anywhere = [c for c in cues if c[3] == relation]
        right = [c for c in cues if c[0] >= e and not _binds_right(text, c)]
        if (len(right) > 1 and right[0][3] in BOUND_IN_CLAUSE and text.startswith("的", right[0][1])
                and right[1][0] == right[0][1] + 1):
            right = right[1:]  # `担任影片的导演`: the noun qualifies the next cue, it binds nothing
        # A nationality qualifies the noun after it (`美国的一支乐队`); the noun
        # before it is a subject the place is told of (`该组合在美国成立`).
        # A cue in brackets after a name (`汤尼（作曲）`) is that name's role only.
        left = [c for c in cues if c[1] <= s and not (relation in BOUND_IN_CLAUSE and c[2] in _NOUN_CUES)
                and not (text[c[0] - 1:c[0]] in ("（", "(") and text[c[1]:c[1] + 1] in ("）", ")"))]
        binding = []
        sep = _separator(text, left[-1]) if left else None
        if sep is not None and _LEFT_GAP.match(_squeeze(text[sep.end():s])):
            binding = _left_group(text, left)  # `词曲：罗大佑`, `作词/作曲/编曲：周杰伦`, `词/林夕`
        gap = _squeeze(text[e:right[0][0]]) if right else ""
        if listed:
            gap = gap.replace("，", "、").replace(",", "、")  # the commas of the list join its names
        if not binding and right and (_RIGHT_GAP.match(gap)
                                      or (_qualified_noun(right) and _MODIFIERS.match(text[e:right[0][0]]))):
            group_end = right[0][1]
            binding = [right[0]]
            for c in right[1:]:
                if c[0] > group_end + _LIST_REACH:
                    break  # too far right to join (_LIST_REACH)
                if c[0] >= group_end and _joins(text[group_end:c[0]]):
                    binding.append(c)
                    group_end = max(group_end, c[1])
                elif c[0] < group_end and c[0] == right[0][0]:
                    binding.append(c)  # two cues at one place (演员 / 演员…)
        right_binding = binding
        binding = []
        if left and _LEFT_GAP.match(_squeeze(text[left[-1][1]:s])) and sep is None:
            binding = _left_group(text, left)
        if binding and right_binding and relation not in {c[3] for c in binding}:
            binding = []  # a cue on the right wins unless the one on the left is the relation's own
        binding = right_binding + binding
        rels = {c[3] for c in binding}
        if relation in rels:
            cue = next(c[2] for c in binding if c[3] == relation)
            return RoleEvidence("own", cue, 1.0)
    qualified = QUALIFIED[relation].match(text, e) if relation in QUALIFIED else None
    if qualified:
        return RoleEvidence("own", text[e:qualified.end()], 1.0)
    if relation in SELF_QUALIFIED and SELF_QUALIFIED[relation].search(text, s, e):
        return RoleEvidence("own", text[s:e], 1.0)
    thing = QUALIFIES_A_THING[relation].match(text, e) if relation in QUALIFIES_A_THING else None
    if thing:
        return RoleEvidence("other", "qualifies " + text[e:thing.end()], 0.0)
    played = PART_PLAYED[relation].search(text, lo, s) if relation in PART_PLAYED else None
    if played:
        return RoleEvidence("other", "a part played: " + played.group(), 0.0)
    if relation in BOUND_ONLY or (relation in BOUND_IN_CLAUSE and own_anywhere):
        return RoleEvidence("other", "no cue of " + relation + " binds it", 0.0)
    cued = is_cued(relation) or relation in index.mined
    if own_anywhere and not (binding and cued):
        return RoleEvidence("own", own_anywhere[0][2], 0.9)
    if not binding or not cued:
        # No cue binds the mention, or the relation has no cues of its own
        # to tell it apart from another role: the mention is neutral.
        slo, shi = sentence_span(text, s)
        own = index.own_cues_in(slo, shi, s, e, relation)
        if (not own and relation in SENTENCE_CUE_ONLY
                and not (relation in SENTENCE_EVIDENCE and SENTENCE_EVIDENCE[relation].search(text, slo, shi))):
            return RoleEvidence("uncued", "no cue of " + relation + " in its sentence", 0.0)
        return RoleEvidence("neutral", own[0][2] if own else None, 0.75 if own else 0.5)
    return RoleEvidence("other", "/".join(sorted({c[2] for c in binding})), 0.0)


def dated_role(index: CueIndex, relation: str, s: int, e: int, anchors: list[tuple[int, int]],
               kind: str = "date") -> RoleEvidence:
    """Role of a date or quantity mention text[s:e]; `anchors` are the dates
    (or quantities) of the text: each cue binds to the nearest one of its
    clause, else of its sentence (the one after it on a tie: `成立于1994年`)."""
    text = index.text
    lo, hi = sentence_span(text, s)
    if predecessor_date(text, s):
        return RoleEvidence("other", "the date of its predecessor", 0.0)
    if alive_in(text, e):
        return RoleEvidence("other", "a year alive in", 0.0)
    cues = [c for c in _cues_in(index, lo, hi, s, e) if c[3] in index.dated or c[3] == relation]
    if not any(c[3] == relation for c in cues) and relation in SENTENCE_CUE_ONLY:
        return RoleEvidence("uncued", "no cue of " + relation + " in its sentence", 0.0)
    if not cues:
        return _unbound_date(text, s, e, relation)
    local = [(a, b) for a, b in anchors if a >= lo and b <= hi]
    mentioned = any(a < e and s < b for a, b in local)
    if not mentioned:
        local.append((s, e))
    # The date a cue binds depends on the sentence's dates alone when the
    # mention is one of them: found once per sentence, not once per mention
    # (a sentence of hundreds of dates, each read by every cue, was their cube).
    bound_by = index.nearest_anchor if mentioned else {}
    own_bound = None
    other_bound = []
    for a, b, cue, rel in cues:
        if rel != relation and index.kinds.get(rel) not in (None, kind):
            continue  # a date cue never binds a quantity, nor a quantity cue a date
        found = bound_by.get((kind, lo, a, b))
        if found is None:
            def dist(span, a=a, b=b):
                x, y = span
                return (x - b, 0) if x >= b else ((a - y, 1) if y <= a else (0, 0))
            clo, chi = clause_span(text, a)
            in_clause = [sp for sp in local if sp[0] >= clo and sp[1] <= chi]
            found = bound_by[(kind, lo, a, b)] = (min(in_clause or local, key=lambda sp: (dist(sp), sp[0])), clo, chi)
        nearest, clo, chi = found
        if (nearest[0] < e and s < nearest[1]) or _listed_with(text, nearest, s, e):
            if rel == relation:
                own_bound = own_bound or (cue, clo <= s < chi)
            else:
                other_bound.append((cue, clo <= s < chi))
    if own_bound and album_date(text, lo, s, e):
        return RoleEvidence("other", "the date of the album it is on", 0.0)
    if own_bound:
        # An own cue from another clause does not bind a date whose clause
        # tells another event (`…上映，1998年全球票房…`), or binds it to
        # another relation (`…福克斯出品，该片于2009年12月16日在北美上映`).
        event = None if own_bound[1] else another_event(text, s, e, relation, *clause_span(text, s))
        if not event and (own_bound[1] or not any(here for _, here in other_bound)):
            return RoleEvidence("own", own_bound[0], 1.0)
        if event and not other_bound:
            return RoleEvidence("other", "the date of " + event.group(), 0.0)
    if other_bound:
        return RoleEvidence("other", "/".join(sorted({c for c, _ in other_bound})), 0.0)
    if any(c[3] == relation for c in cues):
        return RoleEvidence("other", "bound elsewhere", 0.0)
    return _unbound_date(text, s, e, relation)


_DATE_JOINERS = frozenset({"和", "与", "及", "、", "以及", "或"})


def _listed_with(text: str, bound: tuple[int, int], s: int, e: int) -> bool:
    """The date text[s:e] is listed with the one a cue binds (`分别于2019年7月5日
    和2020年1月10日上映`): the cue dates every item of the list."""
    gap = text[e:bound[0]] if e <= bound[0] else text[bound[1]:s]
    return gap.strip() in _DATE_JOINERS


def _unbound_date(text: str, s: int, e: int, relation: str) -> RoleEvidence:
    event = another_event(text, s, e, relation, *clause_span(text, s))
    if event:
        return RoleEvidence("other", "the date of " + event.group(), 0.0)
    performed = performance_date(text, s, e, relation)
    if performed:
        return RoleEvidence("other", "the date of a performance: " + performed, 0.0)
    return RoleEvidence("neutral", None, 0.5)
