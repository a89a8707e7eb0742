"""Infobox cells -> values (paper §3.1: a multi-valued cell is one triple per value).

A cell is split into the values a reader sees in it (`A、B、C`), never into a
unit, a bracket note or a bare number cut off by a line break, and never
inside brackets or codes. Kept apart from transforms/pairs.py (ids, validation,
pairs) because it is the one place where "what is a value" is decided: the
labelled alignment set (docs/alignment.md, "Values") is read the same way.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from transforms.quantities import _UNITS
from transforms.role_cues import ADDRESS_RELATIONS, AWARD_RELATION, OCCUPATION_RELATIONS


@dataclass
class PairConfig:
    """How infobox cells become triples.

    A cell is split on `separators` into one triple per value, except for
    relations in `no_split_relations` (names, addresses, descriptions whose
    punctuation is not a list). Separators inside brackets (《A、B》) and
    ',', '.', '/' between digits never split. A cell with more than
    `max_values` pieces is kept whole: such cells are prose, not lists.
    """

    separators: tuple[str, ...] = ("、", "，", ",", "；", ";", "/", "／", "\n", "|", "｜")
    max_values: int = 30
    no_split_relations: frozenset[str] = field(default_factory=lambda: frozenset({
        "中文名", "外文名", "英文名", "中文名称", "外文名称", "英文名称",
        "地址", "总部地址", "详细地址", "简介", "经营范围", "口号", "校训", "座右铭",
        # One place, from the country down (`美国,德克萨斯州,尤瓦尔迪`): a person is born once.
        "出生地", "出生地点",
        # A price list or a timetable is one value: `成人40元，学生、老人20元`
        # split at its commas leaves `学生` as a "price".
        "门票", "票价", "门票价格", "开放时间", "营业时间",
        # A plant's habit or use is a description whose 、 lists words inside
        # one phrase (`宜种在湿润、透气的沙壤土里`, `根、茎、叶皆可药用`).
        "生长习性", "功用价值",
        # A plant's colours or shapes are the range of one organ (`黄、暗红、紫色及绿色`
        # of its leaves, `灰色、灰褐色或暗灰色` of its bark): one description, said as a whole.
        "颜色", "形状",
    }))
    # Trailing words that close a list but are not part of the last value.
    strip_suffixes: tuple[str, ...] = ("等等。", "等。", "等等", "等")
    # Citation markers like [1] or [2-3] copied from the page.
    strip_citations: bool = True


def _is_latin(ch: str) -> bool:
    return bool(ch) and ch.isascii() and ch.isalnum()


# Whitespace between two CJK characters in an infobox name is layout
# (Baike renders two-character names as `简    称`), not part of the name.
_CJK_GAP = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")


@lru_cache(maxsize=16384)
def clean_relation_name(name: str) -> str:
    """Infobox name as written, minus layout whitespace: `简\xa0\xa0称` -> `简称`."""
    return _CJK_GAP.sub("", name.strip())


WORK_LIST_RELATIONS = frozenset({"代表作品", "主要作品", "代表作"})
_ORIGINAL_TITLE = re.compile(r"^[^\sA-Za-z]+\s+[A-Za-z][^\u3400-\u9fff]*$")
_WORK_GAP = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fffA-Za-z0-9])|(?<=[A-Za-z0-9])\s+(?=[\u3400-\u9fff])")
# How an organisation's name ends: a publisher, a label, a company, a studio.
_ORG_END = re.compile(r"(?:出版社|唱片|公司|集团|工作室|影业|传媒|电视台|制片厂|娱乐|文化)$")


def _organisations(value: str) -> bool:
    """Every space-separated part of the cell is an organisation's name."""
    parts = _CJK_GAP.split(value.strip())
    return len(parts) > 1 and all(len(p) >= 4 and _ORG_END.search(p) for p in parts)


_CITATION = re.compile(r"\[\d+(?:-\d+)?\]")
# 《A》《B》 and 《A》（粤）《B》（国）: a title, with its bracket note, ends a value.
_TITLE_END = re.compile(r"》\s*(?:[（(][^（）()]{1,8}[）)])?\s*$")
# 《A》:《B》: a colon between two titles joins them as a list does.
_TITLE_JOINED = re.compile(r"(》\s*)[:：]\s*$")
_OPEN = "《（(【[「『〈<“‘\""
_CLOSE = "》）)】]」』〉>”’\""


def split_values(value: str, relation: str, cfg: PairConfig, text: str = "") -> list[str]:
    """One string per object named in an infobox cell (at least one); with
    the entry's text, a title the text gives whole stays whole (rejoin_titles)."""
    return list(split_cell(value, relation, cfg, text))


def split_cell(value: str, relation: str, cfg: PairConfig, text: str = "") -> tuple[str, ...]:
    seps, suffixes, no_split = cfg.separators, cfg.strip_suffixes, cfg.no_split_relations
    if seps.__class__ is not tuple or suffixes.__class__ is not tuple or no_split.__class__ is not frozenset:
        seps, suffixes, no_split = tuple(seps), tuple(suffixes), frozenset(no_split)  # hashable for the cache
    pieces = _split_cached(value, relation, seps, cfg.max_values, no_split, suffixes, cfg.strip_citations)
    if not text or "《" not in text:
        return pieces
    return unglue_titles(rejoin_titles(value, pieces, text), text)


@lru_cache(maxsize=16384)
def _split_cached(value: str, relation: str, separators: tuple[str, ...], max_values: int,
                  no_split: frozenset[str], strip_suffixes: tuple[str, ...], strip_citations: bool) -> tuple[str, ...]:
    """split_values on the config's fields, memoised: cells repeat across
    entries (男, 中国, 汉族) and most hold one value."""
    return tuple(_split(value, relation, frozenset(separators), max_values, no_split, strip_suffixes,
                        strip_citations))


# An award cell names the award, then its category (`第20届金曲奖，最佳女歌手`):
# the category alone is no award. A piece that already has a category is a
# whole award, and what follows it another (`金曲奖最佳制作人、最佳作词`).
_AWARD_BODY_END = re.compile(r"(?:奖|节|榜|盛典|典礼|大赏)$")
_CATEGORY_WORDS = "最佳|年度|最受欢迎"
_CATEGORY_START = re.compile(rf"\s*(?:{_CATEGORY_WORDS})")
_HAS_CATEGORY = re.compile(_CATEGORY_WORDS)


def _category_follows(buf: list[str], value: str, at: int) -> bool:
    """The piece so far is an award without a category, and a category follows."""
    piece = "".join(buf).strip()
    return (bool(_AWARD_BODY_END.search(piece)) and not _HAS_CATEGORY.search(piece)
            and bool(_CATEGORY_START.match(value, at)))


# `中等`, `高等`, `平等`: 等 closing a word, not a list.
_WORD_BEFORE_DENG = frozenset("中高同平相上次均对初优劣特")


def _strip_list_end(piece: str, suffixes: tuple[str, ...]) -> str:
    """`A、B等` -> B: the word closing a list is no part of its last value."""
    for suf in suffixes:
        if piece.endswith(suf) and len(piece) > len(suf):
            if suf in ("等", "等。") and piece[-len(suf) - 1] in _WORD_BEFORE_DENG:
                return piece
            return piece[: -len(suf)].strip()
    return piece


def _split(value: str, relation: str, seps: frozenset[str], max_values: int, no_split: frozenset[str],
           strip_suffixes: tuple[str, ...], strip_citations: bool) -> list[str]:
    if strip_citations and "[" in value:
        value = _CITATION.sub("", value)
    value = value.strip()
    name = clean_relation_name(relation)
    if name in no_split or not value:
        # one value, but not the separator a source left at its end (`球形，`)
        return [value.strip("".join(seps) + " \t") or value]
    if " " in value and (name in OCCUPATION_RELATIONS or _organisations(value)):
        # An occupation is a word, so a space between two lists them (`演员 模特`),
        # as it does between names that each end as an organisation's
        # (`中国旅游声像出版社 京文唱片`); elsewhere a space joins the parts of
        # one value (`美国 伊利诺斯州`).
        value = _CJK_GAP.sub("、", value)
    elif (" " in value and name in WORK_LIST_RELATIONS and "《" not in value and seps.isdisjoint(value)
          and not _ORIGINAL_TITLE.match(value)):
        # A list of works by spaces alone (`四月物语 HERO 恋爱世纪`); a space
        # between two Latin words stays inside an English title (`Chasing
        # Pavements`), and a title with its original name is one work
        # (`完整无缺 Intacto`, also inside a list with separators).
        value = _WORK_GAP.sub("、", value)
    if "》" not in value and seps.isdisjoint(value):
        # Fast path: most cells hold one value.
        return [_strip_list_end(value, strip_suffixes)]
    pieces, buf, depth = [], [], 0
    n = len(value)
    award = bool(AWARD_RELATION.search(relation))
    for i, ch in enumerate(value):
        if depth == 0 and ch == "《" and buf and (_TITLE_END.search("".join(buf)) or _TITLE_JOINED.search("".join(buf))):
            # 《A》《B》, 《A》:《B》: adjacent titles are a list even without a separator.
            pieces.append(_TITLE_JOINED.sub(r"\1", "".join(buf)))
            buf = [ch]
            depth = 1
            continue
        if ch in _OPEN and not (ch == '"' and depth > 0):
            depth += 1
        elif ch in _CLOSE and depth > 0:
            depth -= 1
        elif depth == 0 and ch in seps:
            prev = value[i - 1] if i else ""
            nxt = value[i + 1] if i + 1 < n else ""
            if ch in ",/，." and prev.isdigit() and nxt.isdigit():
                buf.append(ch)
                continue
            if ch in "/／" and (_is_latin(prev) or _is_latin(nxt)):
                # 31-1718/N, TCP/IP: a code, not a list (演员/歌手 is one).
                buf.append(ch)
                continue
            if award and ch in "，," and _category_follows(buf, value, i + 1):
                buf.append(ch)
                continue
            pieces.append("".join(buf))
            buf = []
            continue
        buf.append(ch)
    pieces.append("".join(buf))
    out = []
    for p in pieces:
        p = _strip_list_end(p.strip(), strip_suffixes)
        if p:
            out.append(p)
    if not out:
        return [value]
    out = _merge_fragments(out)
    if name in ADDRESS_RELATIONS and len(out) > 1:
        out = _join_house_numbers(out)
    if len(out) > max_values:
        return [value]
    return out


HOUSE_NUMBER = re.compile(r"^[0-9０-９]+号$")


def _join_house_numbers(pieces: list[str]) -> list[str]:
    """`门楼胡同3号、5号` is one address of two houses: a bare house number
    goes back onto the address before it."""
    out: list[str] = []
    for p in pieces:
        if out and HOUSE_NUMBER.match(p) and out[-1].endswith("号"):
            out[-1] += "、" + p
        else:
            out.append(p)
    return out


_BRACKET_NOTE = re.compile(r"^[（(【\[][^）)】\]]*[）)】\]]$")


_YEAR_ONLY = re.compile(r"^\d{4}年$")


def _is_fragment(piece: str) -> bool:
    """A unit (`个`, `人`) or a bracket note (`（一级学科）`) cut off by a line
    break: it qualifies the piece before it and is never a value of its own."""
    return piece in _UNITS or bool(_BRACKET_NOTE.match(piece))


def _merge_fragments(pieces: list[str]) -> list[str]:
    """`27（一级学科）个、专业学位6\n个` -> [`27（一级学科）个`, `专业学位6个`]:
    fragments go back onto the piece they qualify (the previous one, or the
    next one for a leading fragment). A bare year before what it dates
    (`2002年，奥斯卡最佳外语片提名`) goes onto the piece after it."""
    if len(pieces) < 2:
        return pieces
    dating = [bool(_YEAR_ONLY.match(p)) and not all(_YEAR_ONLY.match(q) for q in pieces[i + 1:])
              for i, p in enumerate(pieces)]
    if not any(dating) and not any(_is_fragment(p) for p in pieces):
        return pieces
    out: list[str] = []
    pending = ""
    for p, dates_next in zip(pieces, dating):
        if dates_next:
            pending = f"{pending}、{p}" if pending else p
        elif _is_fragment(p):
            if out:
                out[-1] += p
            else:
                pending += p
        else:
            out.append(pending + p if pending and _BRACKET_NOTE.match(pending) is None else p)
            pending = ""
    return out or ["".join(pieces)]


_TEXT_TITLE = re.compile(r"《([^《》\n]{2,80})》")
_SEPARATOR_CHARS = frozenset(PairConfig.separators)


def rejoin_titles(value: str, pieces: tuple[str, ...], text: str) -> tuple[str, ...]:
    """A separator inside a title the text gives whole is part of the title:
    the cell `光海，成为王的男人` is one work when the text says
    《光海，成为王的男人》, not the two values `光海` and `成为王的男人`."""
    if len(pieces) < 2 or "《" not in text:
        return pieces
    titles = [t for t in dict.fromkeys(_TEXT_TITLE.findall(text))
              if t in value and t not in pieces and not _SEPARATOR_CHARS.isdisjoint(t)]
    if not titles:
        return pieces
    at, pos = [], 0
    for p in pieces:
        k = value.find(p, pos)
        at.append(k)
        pos = k + len(p) if k >= 0 else pos
    out: list[str] = []
    for p, k in zip(pieces, at):
        hold = next((t for t in titles if 0 <= value.find(t) <= k and k + len(p) <= value.find(t) + len(t)), None)
        if hold is None:
            out.append(p)
        elif not out or out[-1] != hold:
            out.append(hold)
    return tuple(out)


@lru_cache(maxsize=64)
def _text_titles(text: str) -> frozenset[str]:
    return frozenset(t for t in _TEXT_TITLE.findall(text) if len(t) >= 2)


def unglue_titles(pieces: tuple[str, ...], text: str) -> tuple[str, ...]:
    """A cell that lost its separators (`火花少数意见`) is the works the text
    gives in 《》 when it is made of two or more of them and nothing else;
    a piece the text gives whole, or with any rest (`柏林苍穹下` beside
    《柏林》), is kept as it is."""
    titles = _text_titles(text)
    if not titles:
        return pieces
    out: list[str] = []
    for p in pieces:
        parts = _glued(p, titles) if len(p) >= 4 and p not in titles else None
        out.extend(parts or (p,))
    return tuple(out)


def _glued(piece: str, titles: frozenset[str]) -> list[str] | None:
    """`piece` as a sequence of 2+ titles (the fewest), or None."""
    starts = [t for t in titles if t in piece]
    if len(starts) < 2:
        return None
    ways: dict[int, list[str]] = {0: []}
    for i in range(len(piece)):
        if i in ways:
            for t in starts:
                if piece.startswith(t, i) and (i + len(t) not in ways or len(ways[i + len(t)]) > len(ways[i]) + 1):
                    ways[i + len(t)] = ways[i] + [t]
    parts = ways.get(len(piece))
    return parts if parts and len(parts) >= 2 else None
