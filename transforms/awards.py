"""The award level: an award stated in other words than its cell.

Award cells (`主要成就`, `主要奖项`, `获得奖项`) name one fact in several
parts, and a text says the same fact with the parts worded or placed
otherwise: `第23届 法国电影凯撒奖最佳导演奖` is stated by `第23届凯撒奖最佳
导演奖`, `第47届戛纳国际电影节评审团大奖` by `在第47届戛纳国际电影节斩获
评委会大奖及最佳男演员奖`, `两届台湾金曲奖最佳国语男歌手` by two editions that
each name the category. No string distance sees these, and a fuzzy match of
the whole would accept another edition or category.

So the value is read as parts and each part is compared on its own:

- the **award body**, by its core: the cell's body without region, medium
  and generic words (`法国电影凯撒奖` -> `凯撒`, `奥斯卡金像奖` -> `奥斯卡`);
- the **edition** (`第N届`): when the value has one, the text must give the
  same number right before the body (a text without it is less precise,
  docs/alignment.md rule 2); a text edition with a value without one is
  more precise and fine;
- a **count** (`两届`, `1座`): as many mentions, or `第N次`;
- a **year** prefix (`2009年台湾金曲奖…`): in the same sentence;
- the **category** (`最佳导演`, from `最佳`, `年度最佳`, `评审团`, `十大`, …):
  after the body in its sentence, with only other categories, list marks and
  a ceremony (`颁奖典礼`) between, never another award or edition; the forms
  listed in `_CATEGORY_SWAPS` are the same category (`女主角`/`女演员`);
- a **nomination** (`提名`, `入围`) in the value must be said in the text; a
  win in the value said as a nomination is rejected later, by the role check
  (transforms/other_roles.py `nominated`).

Pure functions; spans index the original text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from transforms.quantities import _cn_int
from transforms.other_roles import nomination_said
from transforms.text import find_all, sentence_span

# Characters a mention may carry or lack around the same words: spaces and quotes.
_SQUEEZED = frozenset(" \t\u3000\xa0“”\"'‘’「」『』《》〈〉")
_SQUEEZED_RUN = re.compile("[" + re.escape("".join(sorted(_SQUEEZED))) + "]+")
_NUM = r"[0-9０-９一二两三四五六七八九十百零〇]+"
_EDITION = re.compile(rf"第({_NUM}(?:[、,，和及与]{_NUM})*)[届次]")
_VALUE_EDITION = re.compile(rf"^第({_NUM})届")
_VALUE_COUNT = re.compile(rf"^({_NUM})[届座次度]")
_VALUE_YEAR = re.compile(r"^(\d{4})年?")
_NOMINATION = re.compile(r"(?:提名|入围)$")
_CATEGORY = re.compile(r"年度最佳|最佳|评审团|评委会|终身成就|十大|影帝|影后")
# Region, medium and generic words around an award's distinctive name.
_GENERIC = ("大韩民国", "中国台湾", "中国香港", "台湾", "香港", "中国", "内地", "大陆", "美国", "法国", "英国",
            "韩国", "日本", "德国", "国际", "电影", "电视", "音乐", "华语", "全球", "亚洲", "年度")
# A cell may say the win before the award (`获得三届台湾金曲奖…`).
_VALUE_WON = re.compile(r"^(?:荣获|获得|获)")
# The language of a song category, which a cell may leave out (`最佳女歌手` for 最佳国语女歌手).
_CATEGORY_LANGUAGE = re.compile(r"^(最佳)(?!国语|华语|粤语|台语|闽南语|方言)")
# The genre of a music category, which a cell may leave out too.
_MUSIC_GENRES = ("流行音乐", "流行", "摇滚", "民谣")
_CATEGORY_GENRE = re.compile(r"^(最佳)(?!流行|摇滚|民谣|古典|爵士|国语|华语|粤语|台语|闽南语|方言)")
_BODY_SUFFIXES = ("金像奖", "电影节", "大奖", "奖", "节")
_BODY_WORDS = tuple(sorted(set(_GENERIC + _BODY_SUFFIXES), key=len, reverse=True))
_CATEGORY_SWAPS = (("女主角", "女演员"), ("男主角", "男演员"), ("评审团", "评委会"), ("歌手", "演唱人"),
                   ("长篇", "长片"))  # a feature film: `最佳动画长篇` = 最佳动画长片
# A festival's best actor is its 影帝, its best actress its 影后.
_CATEGORY_NICKNAMES = {"影帝": ("最佳男演员", "最佳男主角"), "影后": ("最佳女演员", "最佳女主角")}
# After the text's own body word: `奥斯卡|金像奖`, `戛纳|国际电影节` (never into a category).
_BODY_TAIL = re.compile(r"(?:(?!最佳|年度|评审|评委|十大)[^，。、；;！？]){0,5}?(?:奖|节|榜)")
# What may stand between the body and the category: other categories, a ceremony.
_GAP_CATEGORY = re.compile(r"(?:年度最佳|最佳|评审团|评委会|十大|终身成就)[^，。；;、]{0,12}?奖")
_GAP_CEREMONY = re.compile(r"颁奖(?:典礼|礼|晚会|盛典)?")
_GAP_AWARD = re.compile(r"[奖节榜届]")
# What may follow a category: a count (`两次提名`), then its 奖, a list mark
# or conjunction, a nomination, or no more Chinese (`最佳导演` is not `最佳导演处女作`).
_AFTER_CATEGORY = re.compile(r"(?:[0-9一两二三四五六七八九十]+[次项座度个])?(?:[奖、，。；;和及与等提双并以（(]|的提名|[^\u4e00-\u9fff]|$)")
_TIMES_BEFORE = re.compile(rf"(?:第)?({_NUM})[次度]")
# A count right before the award (`两座柏林电影节金熊奖`, `两届台湾金马奖`), never an edition.
_COUNT_BEFORE = re.compile(rf"(?<![第0-9０-９一二两三四五六七八九十百零〇])({_NUM})[座届次度][\u4e00-\u9fff]{{0,4}}$")


@dataclass(frozen=True)
class AwardValue:
    parts: tuple[str, ...]  # the body's distinctive parts, in order (`柏林`, `金熊`)
    category: str
    editions: frozenset[int]
    count: int
    year: str | None
    nomination: bool


def _number(s: str) -> int | None:
    s = s.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    return int(s) if s.isdigit() else _cn_int(s)


def _squeeze(s: str) -> tuple[str, tuple[int, ...]]:
    """s without spaces and quotes, and the original index of each character kept."""
    if _SQUEEZED.isdisjoint(s):  # most texts: nothing to drop
        return s, tuple(range(len(s)))
    keep: list[int] = []
    kept_from = 0
    for m in _SQUEEZED_RUN.finditer(s):  # runs of dropped characters, not a test per character
        keep.extend(range(kept_from, m.start()))
        kept_from = m.end()
    keep.extend(range(kept_from, len(s)))
    return _SQUEEZED_RUN.sub("", s), tuple(keep)


@lru_cache(maxsize=8)
def _squeezed_text(text: str) -> tuple[str, tuple[int, ...]]:
    """_squeeze of a text, cached: one text is searched for each award value
    of its entry (values are cached apart, so they never evict the text)."""
    return _squeeze(text)


def award_core(body: str) -> str:
    """The distinctive name of an award body (`台湾电影金马奖` -> `金马`),
    never shorter than two characters."""
    changed = True
    while changed:
        changed = False
        for w in _GENERIC:
            if body.startswith(w) and len(body) - len(w) >= 2:
                body, changed = body[len(w):], True
            if body.endswith(w) and len(body) - len(w) >= 2:
                body, changed = body[:-len(w)], True
        for w in _BODY_SUFFIXES:
            if body.endswith(w) and len(body) - len(w) >= 2:
                body, changed = body[:-len(w)], True
                break
    return body


def award_parts(body: str) -> tuple[str, ...]:
    """The distinctive parts of an award body, in order: `柏林国际电影节金熊奖`
    -> (柏林, 金熊); `台湾电影金马奖` -> (金马,). A body made of generic words
    only keeps its core (`香港电影金像奖` -> 金像)."""
    parts, cur, i = [], "", 0
    while i < len(body):
        w = next((w for w in _BODY_WORDS if body.startswith(w, i)), None)
        if w is None:
            cur += body[i]
            i += 1
            continue
        if cur:
            parts.append(cur)
            cur = ""
        i += len(w)
    if cur:
        parts.append(cur)
    parts = [p for p in parts if len(p) >= 2]
    return tuple(parts) if parts else (award_core(body),)


@lru_cache(maxsize=4096)
def parse_award(value: str) -> AwardValue | None:
    """The parts of an award value, or None when it does not read as one
    (no body, or nothing but a body: the exact level decides those)."""
    v, _ = _squeeze(value)
    v = _VALUE_WON.sub("", v)
    year = editions = None
    count = 1
    m = _VALUE_YEAR.match(v)
    if m:
        year, v = m.group(1), v[m.end():]
    m = _VALUE_EDITION.match(v)
    if m:
        n = _number(m.group(1))
        editions, v = (frozenset({n}) if n else None), v[m.end():]
    else:
        m = _VALUE_COUNT.match(v)
        if m and _number(m.group(1)):
            count, v = _number(m.group(1)), v[m.end():]
    nomination = bool(_NOMINATION.search(v))
    v = _NOMINATION.sub("", v)
    c = _CATEGORY.search(v)
    body, category = (v[:c.start()], v[c.start():]) if c else (v, "")
    if category.endswith("奖") and len(category) > 3:
        category = category[:-1]
    parts = award_parts(body)
    if len(parts[0]) < 2 or not (editions or year or category or count > 1 or m):
        return None
    return AwardValue(parts, category, editions or frozenset(), count, year, nomination)


@lru_cache(maxsize=1024)
def _category_forms(category: str) -> tuple[str, ...]:
    forms = {category, *_CATEGORY_NICKNAMES.get(category, ())}
    forms |= {nick for nick, cats in _CATEGORY_NICKNAMES.items() if category in cats}
    for a, b in _CATEGORY_SWAPS:
        forms |= {f.replace(a, b) for f in forms if a in f} | {f.replace(b, a) for f in forms if b in f}
    if any(w in category for w in ("歌手", "演唱人", "专辑", "单曲")):
        forms |= {_CATEGORY_LANGUAGE.sub(r"\1国语", f) for f in forms if f.startswith("最佳")}
        # and its genre, as it may its language (`最佳演唱专辑` for 最佳流行音乐演唱专辑)
        forms |= {_CATEGORY_GENRE.sub(r"\1" + g, f) for f in forms if f.startswith("最佳") for g in _MUSIC_GENRES}
    for f in list(forms):
        if f.startswith("最佳年度"):
            forms.add("年度最佳" + f[4:])
        elif f.startswith("年度最佳"):
            forms.add("最佳年度" + f[4:])
    return tuple(sorted(forms, key=len, reverse=True))


def _edition_before(sq: str, lo: int, at: int, editions: frozenset[int]) -> int | None:
    """Start of a `第N届` naming one of `editions`, ending at most a region
    word before the body (`第41届台湾金马奖`); None if there is none."""
    for m in reversed(list(_EDITION.finditer(sq, lo, at))):
        if at - m.end() > 4 or any(ch in "，。、；;" for ch in sq[m.end():at]):
            return None
        nums = {_number(x) for x in re.split(r"[、,，和及与]", m.group(1))}
        return m.start() if nums & editions else None
    return None


def _category_after(sq: str, start: int, hi: int, forms: tuple[str, ...],
                    idx: tuple[int, ...] = ()) -> int | None:
    """End of the first category form in sq[start:hi] with only categories,
    list marks and a ceremony between, or None. A quote or a space the
    squeezed text `sq` dropped right after the form (`“年度最佳摇滚乐队”
    “年度最佳摇滚专辑”`; `idx` maps sq to the text) ends it too."""
    best = None
    for f in forms:
        j = sq.find(f, start, hi)
        while j != -1:
            end = j + len(f)
            if _AFTER_CATEGORY.match(sq, end) or (0 < end < len(idx) and idx[end] - idx[end - 1] > 1):
                gap = _GAP_CEREMONY.sub("", _GAP_CATEGORY.sub("", sq[start:j]))
                if len(gap) <= 40 and not _GAP_AWARD.search(gap):
                    best = end if best is None or j < best else best
                break
            j = sq.find(f, j + 1, hi)
    return best


def _parts_after(sq: str, pos: int, hi: int, parts: tuple[str, ...]) -> int | None:
    """End of the body's other parts, each found in order a few characters
    on in the same phrase (`柏林电影节金熊奖` for 柏林…金熊), or None."""
    for part in parts:
        counted = _count_part(part)
        if counted is None:
            j, end = sq.find(part, pos, min(hi, pos + 14)), None
        else:
            m = counted.search(sq, pos, min(hi, pos + 14))
            j, end = (m.start(), m.end()) if m else (-1, None)
        if j == -1 or any(ch in "，。、；;" for ch in sq[pos:j]):
            return None
        pos = end if end is not None else j + len(part)
    return pos


_COUNT_PART = re.compile(r"^([0-9０-９]+|[一二两三四五六七八九十]+)(项|个)$")
_CN_DIGITS = "零一二三四五六七八九十"


@lru_cache(maxsize=1024)
def _count_part(part: str) -> re.Pattern | None:
    """`五项` (提名) as a pattern that also reads `5项`, and the other way round."""
    m = _COUNT_PART.match(part)
    n = _number(m.group(1)) if m else None
    if n is None:
        return None
    forms = {str(n)}
    if n <= 10:
        forms.add(_CN_DIGITS[n])
    if n == 2:
        forms.add("两")
    return re.compile("(?:" + "|".join(sorted(forms)) + ")" + m.group(2))


# Years listed before a win (`2002、2006年获得格莱美奖`): a win each year.
_YEARS_WON_BEFORE = re.compile(r"((?:\d{4}年?[、和及与])+\d{4}年?)(?:先后|分别|两度|均|都)?"
                               r"(?:获得|荣获|获|夺得|赢得|斩获)[\u4e00-\u9fff]{0,4}$")


def _times_before(sq: str, lo: int, i: int) -> int:
    """How many wins the sentence counts before the award: `第五次获得…`,
    `两座…`, `两届台湾…`, `2002、2006年获得…`."""
    n = max((_number(m.group(1)) or 0 for m in _TIMES_BEFORE.finditer(sq, lo, i)), default=0)
    m = _COUNT_BEFORE.search(sq, max(lo, i - 10), i)
    years = _YEARS_WON_BEFORE.search(sq, max(lo, i - 40), i)
    n_years = len(re.findall(r"\d{4}", years.group(1))) if years else 0
    return max(n, (_number(m.group(1)) or 0) if m else 0, n_years)


def award_spans(value: str, text: str) -> list[tuple[int, int]]:
    """[start, end) spans of the text that state the award value part by part."""
    a = parse_award(value)
    if a is None:
        return []
    if a.parts[0] not in text and (len(a.parts) < 2 or a.parts[-1] not in text):
        return []  # no mention below can start (speed only: the squeezed text is not made)
    sq, idx = _squeezed_text(text)
    # The body by its first part with the others after it (`柏林…金熊`), or
    # by its prize alone (`金熊奖` for 柏林国际电影节金熊奖): the prize of a
    # festival names its award.
    mentions = [(i, a.parts[0], a.parts[1:]) for i in find_all(sq, a.parts[0])] if a.parts[0] in text else []
    if len(a.parts) >= 2 and a.parts[-1] in text:
        prize = a.parts[-1]
        mentions += [(i, prize, ()) for i in find_all(sq, prize) if sq.startswith("奖", i + len(prize))
                     and not any(j <= i < j + len(c) + 14 for j, c, _ in mentions)]
    if not mentions:
        return []
    forms = _category_forms(a.category) if a.category else ()
    hits: list[tuple[int, int, int]] = []  # (wins counted before it, start, end)
    for i, core, rest in mentions:
        lo, hi = sentence_span(sq, i)
        start: int | None = i
        body_end = _parts_after(sq, i + len(core), hi, rest)
        if body_end is None:
            start = None
        else:
            tail = _BODY_TAIL.match(sq, body_end, hi)
            if tail:
                body_end = tail.end()
        if start is not None and a.editions:
            start = _edition_before(sq, lo, i, a.editions)
        elif start is not None and a.year and a.year not in sq[lo:hi]:
            start = None  # a year is checked only without an edition, which is more precise
        end: int | None = body_end
        if start is not None and forms:
            end = _category_after(sq, body_end, hi, forms, idx)
        if start is not None and end is not None and a.nomination and not re.search("提名|入围", sq[lo:hi]):
            end = None
        if start is not None and end is not None:
            s, e = idx[start], idx[end - 1] + 1
            if a.nomination or not nomination_said(text, s, e):  # a nomination is not one of the wins
                hits.append((_times_before(sq, lo, i), s, e))
    if a.count > 1:
        # `五届…`: the mention that counts them (`第五次`, `两座`), or as many mentions as wins.
        nth = [h for h in hits if h[0] >= a.count]
        hits = nth or (hits if len(hits) >= a.count else [])
    return [(s, e) for _, s, e in hits]
