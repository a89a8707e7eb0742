"""Reading a model's ranking of ten options out of free text.

Models answer "C > A > B …", "CABDEFGHIJ", "1. C 2. A", "答案：Ｃ", or name the
options instead of their letters. The parser, in order:
  1. letters: NFKC (full-width Ｃ → C), then runs of ASCII letters made only
     of A–J without repeats. A run of two or more capitals counts letter by
     letter ("CAB" → C, A, B), except an era beside a number ("AD 208", "221
     BC"). A single letter counts only as an option token in an answer-like
     place, since English and French use capitals as words ("I think the
     answer is C.", "A good answer would be C.", "J'ai choisi C" all give C):
       - after an answer cue: a Chinese character (答案是C, 选C), "answer
         is", "option", "choose"…, an opening bracket, a ranking separator
         (> , 、 ; / |), a list number ("1. C"), or another option letter;
       - or before a ranking separator, a closing bracket, the end of the
         text or line, sentence punctuation ("C.", "C。"), a Chinese
         character, a number, another option letter, or "is"/"seems"/"first"…;
       - or opening the text or a sentence, unless it is the English word A
         or I before a lowercase word ("A good", "I think"; "A is" counts).
     A letter followed by an apostrophe and a letter (J'ai, I'm) never counts.
     Lowercase letters count only when the output has no uppercase candidate
     at all, by the same rules (and a or i before a lowercase word never
     counts: "choose a different one"); a lowercase run counts only as a full
     ranking ("cabdefghij"), since short ones are English words ("bad", "if");
  2. option texts, when no letter was found: options found in the text, in
     the order they first appear (longer options are matched first and their
     span masked, so "长江三角洲" does not also count as "长江");
  3. a partial ranking is completed with the missing options in their
     presented order, at the end.
Nothing found → unparseable: the item counts as wrong in every metric and is
counted under `unparseable`.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

LETTERS = "ABCDEFGHIJ"
_RUN_RE = re.compile(r"[A-Za-z]+")

FULL, PARTIAL, UNPARSEABLE = "full", "partial", "unparseable"

_CJK = "\u3400-\u9fff\uf900-\ufaff"
_SEPS = ">＞→≻»,，、;；/|"
# Left of a letter (trailing spaces and one ':'/'=' stripped): what makes it an answer.
_STRONG_LEFT = re.compile(
    rf"(?:[{_CJK}]|[{re.escape(_SEPS)}(\[{{（【「『<]|(?<![0-9A-Za-z])\d{{1,2}}\s*[.)、．]?"
    r"|(?<![A-Za-z])(?:answers?|options?|choices?|choose|chose|chosen|pick|picks|select|selected|"
    r"rankings?|rank|ranked|order|is|be|was|are|then|first|second|third|next|last|finally)"
    r"|(?<![A-Za-z])[A-Ja-j])$", re.I)
_WEAK_LEFT = re.compile(r"(?:^|\n|[.!?。！？]\s)$")
# Right of a letter: what makes it an answer.
_ANSWER_RIGHT = re.compile(
    rf"^[ \t]*(?:$|\n|[{re.escape(_SEPS)})\]}}）】」』]|[.。:：!！?？](?:\s|$|[^\x00-\x7f])|\d|[{_CJK}]"
    r"|(?:is|seems|should|ranks?|first|best|then|followed)(?![A-Za-z])|[A-Ja-j](?![A-Za-z'’]))")
_CONTRACTION = re.compile(r"^['’][A-Za-z]")
_ENGLISH_WORD_NEXT = re.compile(r"^\s+([a-z]+)")
_ERAS = {"AD", "BC", "BCE", "CE"}


@dataclass
class ParsedRanking:
    ranking: list[int] | None  # complete ranking of option indices, or None when unparseable
    status: str  # full | partial | unparseable
    found: int  # options the model itself placed


def _single_letter_counts(text: str, start: int, end: int) -> bool:
    """Whether the one-letter token text[start:end] stands where an answer stands."""
    letter, right = text[start:end], text[end:]
    if _CONTRACTION.match(right):
        return False
    word = _ENGLISH_WORD_NEXT.match(right)
    english = letter.upper() in "AI" and word is not None and word.group(1) != "is"
    if english and letter.islower():
        return False  # "choose a different one": lowercase a/i before a word is English
    left = text[:start].rstrip(" \t")
    left_cue = left.rstrip(":：=").rstrip(" \t") if left.endswith((":", "：", "=")) else left
    if _STRONG_LEFT.search(left_cue) or _ANSWER_RIGHT.match(right):
        return True
    if _WEAK_LEFT.search(text[:start]) or not left:
        return not english
    return False


def _letters(text: str, n: int, upper: bool) -> list[int]:
    allowed = LETTERS[:n] if upper else LETTERS[:n].lower()
    out: list[int] = []
    for m in _RUN_RE.finditer(text):
        run = m.group()
        if len(run) > n or any(ch not in allowed for ch in run) or len(set(run)) != len(run):
            continue
        if len(run) == 1:
            if not _single_letter_counts(text, m.start(), m.end()):
                continue
        elif not upper and len(run) < n - 1:
            continue  # a short lowercase run is an English word ("bad", "if"), not a ranking
        elif run in _ERAS and (re.search(r"\d\s*$", text[: m.start()]) or re.match(r"\s*\d", text[m.end():])):
            continue  # "221 BC", "AD 208" written after the year
        for ch in run:
            idx = LETTERS.index(ch.upper())
            if idx not in out:
                out.append(idx)
    return out


def _option_texts(text: str, options: Sequence[str]) -> list[int]:
    norm = lambda s: unicodedata.normalize("NFKC", s).lower()  # noqa: E731
    hay = norm(text)
    first: dict[int, int] = {}
    for idx in sorted(range(len(options)), key=lambda i: -len(options[i] or "")):
        needle = norm(options[idx] or "").strip()
        if not needle:
            continue
        pos = hay.find(needle)
        if pos >= 0:
            first[idx] = pos
            hay = hay[:pos] + "\x00" * len(needle) + hay[pos + len(needle):]
    return sorted(first, key=lambda i: first[i])


def parse_ranking(output: str, options: Sequence[str]) -> ParsedRanking:
    n = len(options)
    text = unicodedata.normalize("NFKC", output or "")
    found = _letters(text, n, upper=True) or _letters(text, n, upper=False) or _option_texts(text, options)
    if not found:
        return ParsedRanking(None, UNPARSEABLE, 0)
    ranking = found + [i for i in range(n) if i not in found]
    return ParsedRanking(ranking, FULL if len(found) >= n - 1 else PARTIAL, len(found))


def ranking_from_scores(scores: Sequence[float]) -> list[int]:
    """Options by descending score; ties keep presentation order (a fixed rule)."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))
