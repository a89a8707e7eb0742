"""Reading a model's ranking of ten options out of free text.

Models answer "C > A > B …", "CABDEFGHIJ", "1. C 2. A", "答案：Ｃ", or name the
options instead of their letters. The parser, in order:
  1. letters: NFKC (full-width Ｃ → C), then every run of ASCII letters made
     only of A–J without repeats counts letter by letter ("CAB" → C, A, B;
     "C" alone too); other words ("Answer", "Option") are skipped. Lowercase
     runs count only when the output has no uppercase candidate at all;
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


@dataclass
class ParsedRanking:
    ranking: list[int] | None  # complete ranking of option indices, or None when unparseable
    status: str  # full | partial | unparseable
    found: int  # options the model itself placed


def _letters(text: str, n: int, upper: bool) -> list[int]:
    allowed = LETTERS[:n] if upper else LETTERS[:n].lower()
    out: list[int] = []
    for run in _RUN_RE.findall(text):
        if len(run) > n or any(ch not in allowed for ch in run) or len(set(run)) != len(run):
            continue
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
