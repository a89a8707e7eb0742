"""Text normalisation for triple–text alignment, with an offset map back.

Alignment compares an infobox value with the entry summary. The two are
written by different hands, so the same string shows up with full-width or
half-width characters, other letter case, extra spaces or different
punctuation (`瑞恩·高斯林` / `瑞恩 高斯林`, `ＢｌａｃｋＢｅｒｒｙ` / `blackberry`).
We compare normalised forms, but every span we report must point into the
ORIGINAL text (the pair keeps the summary verbatim), so normalising the text
also returns, for every normalised character, the index of the original
character it came from.

Normalisation of one character: NFKC (full width -> half width, compatibility
forms), lower case, and removal of whitespace, control characters and
punctuation. Two punctuation marks survive because they carry meaning inside
numbers: '.' between digits (1.75 must not become 175) and '%'.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from functools import lru_cache

# Symbols that are not Unicode punctuation (category P*) but separate name
# parts in Chinese transliterations or decorate titles.
_EXTRA_DROP = frozenset("·•・‧〃～~`^|")
_KEEP = frozenset("%+#&")

def _compute_char(ch: str) -> str:
    pieces = []
    for c in unicodedata.normalize("NFKC", ch).lower():
        if c in _KEEP or c == ".":
            pieces.append(c)
            continue
        if c in _EXTRA_DROP or c.isspace():
            continue
        if unicodedata.category(c)[0] in "PZC":
            continue
        pieces.append(c)
    return "".join(pieces)


class _Table(dict):
    """str.translate table filled on demand: ord(ch) -> normalised string.

    str.translate looks characters up in C, so once a character has been
    seen, normalising a text costs no Python-level work per character.
    """

    def __missing__(self, code: int) -> str:
        out = _compute_char(chr(code))
        if len(self) < 200_000:
            self[code] = out
        return out


_TABLE = _Table()
# A '.' survives only between two digits (1.75 must not become 175).
_STRAY_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")


def norm_char(ch: str) -> str:
    """Normalised form of one character ('' when dropped); memoised."""
    return _TABLE[ord(ch)]


@lru_cache(maxsize=16384)
def normalise(s: str) -> str:
    """Normalised form of a string (a value, an alias, a relation, a text).

    Memoised: infobox values repeat across entries (中国, 男, 汉族)."""
    out = s.translate(_TABLE)
    if "." in out:
        out = _STRAY_DOT.sub("", out)
    return out


class NormalisedText:
    """A normalised text and, per normalised character, its original index.

    The offset map is built lazily: most alignments are decided by a raw
    `str.find` or a miss, and never need to map a span back.
    """

    __slots__ = ("text", "original", "_offsets")

    def __init__(self, original: str):
        self.original = original
        self.text = normalise.__wrapped__(original)  # texts are not worth caching twice
        self._offsets: list[int] | None = None

    @property
    def offsets(self) -> list[int]:
        if self._offsets is None:
            table = _TABLE
            pre = [i for i, ch in enumerate(self.original) for _ in table[ord(ch)]]
            if len(pre) != len(self.text):  # stray dots were removed
                raw = self.original.translate(table)
                keep = [True] * len(raw)
                for m in _STRAY_DOT.finditer(raw):
                    keep[m.start()] = False
                pre = [o for o, k in zip(pre, keep) if k]
            self._offsets = pre
        return self._offsets

    def span(self, nstart: int, nend: int) -> tuple[int, int]:
        """Original [start, end) of the normalised slice [nstart, nend)."""
        off = self.offsets
        return off[nstart], off[nend - 1] + 1


@lru_cache(maxsize=64)
def normalise_with_map(text: str) -> NormalisedText:
    """Normalise `text`, keeping an offset map back to the original.

    Cached (LRU) because one summary is aligned against every value of its
    entry: the pair's text is normalised once, not once per triple.
    """
    return NormalisedText(text)


# Every character whose normalised form holds a CJK ideograph other than
# itself lies in these blocks (radicals ⼈, enclosed ㈠ ㊀, squared ㍻,
# compatibility ideographs 丽; tests/test_clean_align.py checks it over all
# of Unicode). A text without them holds an ideograph after normalisation
# exactly where it holds it before.
_IDEOGRAPH_SOURCES = re.compile("[\u2e80-\u2fff\u3038-\u303a\u3190-\u319f\u3200-\u33ff\uf900-\ufaff"
                                "\U0001f200-\U0001f2ff\U0002f800-\U0002fa1f]")


@lru_cache(maxsize=64)
def _plain_ideographs(text: str) -> bool:
    return _IDEOGRAPH_SOURCES.search(text) is None


def absent_ideographs(s: str, text: str) -> int:
    """How many characters of `s` are CJK ideographs certainly absent from
    normalise(text), judged on the raw text (0 when the text holds a
    character that normalises to an ideograph). A value with such a
    character cannot occur in the normalised text, so the text need not be
    normalised to know it (most values of an entry are not in its text)."""
    if not _plain_ideographs(text):
        return 0
    n = 0
    for c in _ideographs(s):  # a loop, not a generator: asked for most values of every entry
        if c not in text:
            n += 1
    return n


def any_absent_ideograph(s: str, text: str) -> bool:
    """absent_ideographs(s, text) > 0, stopping at the first such character."""
    if not _plain_ideographs(text):
        return False
    for c in _ideographs(s):  # a loop, not any() over a generator (the same answer, cheaper)
        if c not in text:
            return True
    return False


@lru_cache(maxsize=16384)
def _ideographs(s: str) -> tuple[str, ...]:
    """The CJK ideographs of a value, in order (values repeat across entries)."""
    return tuple(c for c in s if "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf")


def is_ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _same_class(a: str, b: str) -> bool:
    """Both ASCII letters or both digits: a word or number continues."""
    return (a.isascii() and b.isascii()) and ((a.isalpha() and b.isalpha()) or (a.isdigit() and b.isdigit()))


def boundary_ok(haystack: str, start: int, end: int, needle: str) -> bool:
    """True when a match of `needle` at haystack[start:end] is not inside a
    longer Latin word or number.

    `6亿` must not match inside `7.61亿`, `OS` not inside `iOS`, `12` not
    inside `2012`; but `IEC` is found in `IEC60745` (letters then digits is a
    new token). Chinese characters have no word boundary, so only the
    Latin/digit edges are checked.
    """
    if not needle:
        return False
    first, last = needle[0], needle[-1]
    if start > 0 and is_ascii_alnum(first):
        before = haystack[start - 1]
        if _same_class(before, first):
            return False
        if before in ".," and first.isdigit() and start > 1 and haystack[start - 2].isdigit():
            return False
    if end < len(haystack) and is_ascii_alnum(last):
        after = haystack[end]
        if _same_class(last, after):
            return False
        if after in ".," and last.isdigit() and end + 1 < len(haystack) and haystack[end + 1].isdigit():
            return False
    return True


def find_bounded(haystack: str, needle: str, start: int = 0) -> int:
    """First index >= start of `needle` in `haystack` respecting boundary_ok, or -1."""
    if not needle:
        return -1
    i = haystack.find(needle, start)
    while i != -1:
        if boundary_ok(haystack, i, i + len(needle), needle):
            return i
        i = haystack.find(needle, i + 1)
    return -1


def find_all(haystack: str, needle: str) -> list[int]:
    """Every start index of `needle` in `haystack`, overlapping ones included."""
    out = []
    i = haystack.find(needle)
    while i != -1:
        out.append(i)
        i = haystack.find(needle, i + 1)
    return out


# Sentence-final punctuation, used by trim mode and clause splitting.
SENTENCE_END = frozenset("。！？!?；;\n")


# Clauses and sentences: what a cue binds within, and where a deed's verb
# must stand (transforms/roles.py, transforms/align_forms.py).
# A comma between digits groups thousands (`海拔高度1,545米`): it ends no clause.
# An ideographic space sets scraped segments apart (`作词：贝林　作曲：晏如`): it
# ends both.
_CLAUSE_STOP_RE = re.compile("[" + re.escape("".join(sorted(SENTENCE_END | frozenset("，")))) + "]"
                             r"|,(?!\d{3}(?!\d))|(?<!\d),|\u3000")
_SENTENCE_STOP_RE = re.compile("[" + re.escape("".join(sorted(SENTENCE_END | frozenset("\u3000")))) + "]")
# _CLAUSE_STOP_RE on a text without an ASCII comma: the same stops, found by
# one character class (the comma's alternatives and their look-arounds cost a
# try at every position: 2.4 times the time on the build corpus's texts).
_CLAUSE_STOP_NO_COMMA_RE = re.compile("[" + re.escape("".join(sorted(SENTENCE_END | frozenset("，\u3000")))) + "]")


# One cache per kind, keyed by the text alone: a one-argument lru_cache looks
# a str up as it is, with no key tuple to build and hash (asked for every
# mention's clause and sentence); each is as large as the one cache was.
@lru_cache(maxsize=256)
def _sentence_stops(text: str) -> tuple[int, ...]:
    return tuple([m.start() for m in _SENTENCE_STOP_RE.finditer(text)])


@lru_cache(maxsize=256)
def _clause_stops(text: str) -> tuple[int, ...]:
    rx = _CLAUSE_STOP_RE if "," in text else _CLAUSE_STOP_NO_COMMA_RE
    return tuple([m.start() for m in rx.finditer(text)])


def _span(text: str, pos: int, sentence: bool) -> tuple[int, int]:
    stops = _sentence_stops(text) if sentence else _clause_stops(text)
    k = bisect_left(stops, pos)
    lo = stops[k - 1] + 1 if k > 0 else 0
    hi = stops[k] if k < len(stops) else len(text)
    return lo, hi


def clause_span(text: str, pos: int) -> tuple[int, int]:
    """The clause (between `，；。`, line breaks and ideographic spaces) holding text[pos]."""
    return _span(text, pos, False)


def sentence_span(text: str, pos: int) -> tuple[int, int]:
    """The sentence (between `。；！？`, line breaks and ideographic spaces) holding text[pos]."""
    return _span(text, pos, True)
