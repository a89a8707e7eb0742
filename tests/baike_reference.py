"""Reading the independent extraction in ../shared/data/baike-baidu-2019/extracted.

`info-table/<title>.txt` holds `name$$value` rows; a value may continue on
following lines (rows without `$$`). That extraction has one known artefact:
for a value Baidu shows collapsed with a 展开 toggle, it writes TWO rows for
the same name: an outer one that concatenates the collapsed list, 展开, the
expanded list and 收起, then the inner expanded list ending in 收起. The
honest comparison for one attribute is its expanded list, once, without the
toggle words, so `reference_pairs` keeps the last row per name and strips a
trailing 收起. `artefact_rows` lists the outer rows it set aside, so a test
can report them rather than hide them.
"""
from __future__ import annotations

import re
from pathlib import Path

WS = re.compile(r"[\s\u00a0\u3000]+")
CITE = re.compile(r"\[\d+(?:-\d+)?\]")
PUNCT = re.compile(r"[，。、；：？！“”‘’《》（）()·,.;:!?\"'\-—…]")


def norm(text: str) -> str:
    """Whitespace normalisation for comparing with the reference: every space removed."""
    return WS.sub("", text)


def raw_rows(path: Path) -> list[tuple[str, str]]:
    rows: list[list[str]] = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if "$$" in line:
            name, value = line.split("$$", 1)
            rows.append([name, value])
        elif rows:
            rows[-1][1] += "\n" + line
    return [(n, v) for n, v in rows]


def reference_pairs(path: Path) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """({name: value} normalised, artefact outer rows set aside)."""
    pairs: dict[str, str] = {}
    artefacts: list[tuple[str, str]] = []
    for name, value in raw_rows(path):
        name, value = norm(name), norm(value)
        if value.endswith("收起"):
            value = value[: -len("收起")]
        if name in pairs:
            artefacts.append((name, pairs[name]))
        pairs[name] = value
    return pairs, artefacts


def reference_summary(path: Path) -> str:
    """The info-para text, normalised, citation marks removed (it starts with the summary)."""
    return CITE.sub("", norm(path.read_text(encoding="utf-8")))


def strip_punct(text: str) -> str:
    return PUNCT.sub("", text)
