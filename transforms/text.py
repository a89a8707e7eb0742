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

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Symbols that are not Unicode punctuation (category P*) but separate name
# parts in Chinese transliterations or decorate titles.
_EXTRA_DROP = frozenset("·•・‧〃～~`^|")
_KEEP = frozenset("%+#&")

_char_cache: dict[str, str] = {}


def norm_char(ch: str) -> str:
    """Normalised form of one character ('' when dropped); memoised."""
    out = _char_cache.get(ch)
    if out is not None:
        return out
    pieces = []
    for c in unicodedata.normalize("NFKC", ch).lower():
        if c in _KEEP or c == ".":
            pieces.append(c)
            continue
        if c in _EXTRA_DROP or c.isspace():
            continue
        cat = unicodedata.category(c)
        if cat[0] in "PZC":
            continue
        pieces.append(c)
    out = "".join(pieces)
    if len(_char_cache) < 200_000:
        _char_cache[ch] = out
    return out


def normalise(s: str) -> str:
    """Normalised form of a short string (a value, an alias, a relation)."""
    return normalise_with_map(s).text


@dataclass(frozen=True)
class NormalisedText:
    """A normalised text and, per normalised character, its original index."""

    text: str
    offsets: tuple[int, ...]
    original: str

    def span(self, nstart: int, nend: int) -> tuple[int, int]:
        """Original [start, end) of the normalised slice [nstart, nend)."""
        return self.offsets[nstart], self.offsets[nend - 1] + 1


@lru_cache(maxsize=256)
def normalise_with_map(text: str) -> NormalisedText:
    """Normalise `text`, keeping an offset map back to the original.

    Cached (LRU) because one summary is aligned against every value of its
    entry: the pair's text is normalised once, not once per triple.
    """
    chars: list[str] = []
    offsets: list[int] = []
    n = len(text)
    for i, ch in enumerate(text):
        out = norm_char(ch)
        if not out:
            continue
        if out == ".":
            # Keep a dot only between two digits: '1.75' stays, '。' or 'A.B' go.
            prev_digit = bool(chars) and chars[-1].isdigit()
            nxt = norm_char(text[i + 1]) if i + 1 < n else ""
            if not (prev_digit and nxt[:1].isdigit()):
                continue
        for c in out:
            chars.append(c)
            offsets.append(i)
    return NormalisedText("".join(chars), tuple(offsets), text)


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
        if before == "." and first.isdigit() and start > 1 and haystack[start - 2].isdigit():
            return False
    if end < len(haystack) and is_ascii_alnum(last):
        after = haystack[end]
        if _same_class(last, after):
            return False
        if after == "." and last.isdigit() and end + 1 < len(haystack) and haystack[end + 1].isdigit():
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


# Sentence-final punctuation, used by trim mode and clause splitting.
SENTENCE_END = frozenset("。！？!?；;\n")
