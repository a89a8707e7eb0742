"""Other spellings of a value derivable from the value alone (the `alias` level).

A cell often holds more than the name a text uses: a bracket note, the
original title beside the Chinese one, a label before the value, a year
before an award, a sequel's numeral in another script. Each variant here
names the same thing as the value; a Chinese part inside brackets is a
qualifier (`1995年10月27日（美国）`, `（自然科学版）`), never another name.
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.quantities import _cn_int

BRACKETS = re.compile(r"[（(\[【《〈<「『][^）)\]】》〉>」』]*[）)\]】》〉>」』]")
OPENERS = frozenset("（([【《〈<「『")
_LATIN_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 .&'\-]*$")


# `18（一级学科）个` without its note is `18个`, another quantity: a bracket
# note of a number is part of what it counts, never dropped.
_BARE_COUNT = re.compile(r"^[0-9０-９.,]+\s*[\u4e00-\u9fff]?$")
_YEAR_PREFIX = re.compile(r"^\d{4}年\s+(?=\S)")
_LABELLED = re.compile(r"^[\u4e00-\u9fff]{2,6}[：:]\s*(\S.*)$")
_CJK_THEN_LATIN = re.compile(r"^([\u4e00-\u9fff·：:]{2,})\s*([A-Za-z][A-Za-z0-9 .,'&:!?\-()]{1,})$")


def value_variants(value: str) -> list[str]:
    """Other spellings of a value derivable from the value alone: the part
    outside brackets, and a Latin-script part inside them, which names the
    same thing (`瑞恩·高斯林（Ryan Gosling）`, `上大（SHU）`). A Chinese part
    inside brackets is a qualifier (`1995年10月27日（美国）`, `美国（俄裔）`,
    `（自然科学版）`), never another name of the value."""
    return list(variants(value))


@lru_cache(maxsize=16384)
def variants(value: str) -> tuple[str, ...]:
    """value_variants, memoised: values repeat across entries; with the
    value written in its variant characters, when it has any."""
    out = _variants_of(value)
    other = value.translate(VARIANT_CHARS)
    if other != value:
        out = [*out, other, *_variants_of(other)]
    return tuple(dict.fromkeys(out))


# Characters written either way in names and titles, old texts and new
# (`宝祐`/`宝佑` of a reign name, `钜野`/`巨野`, `花著露`/`花着露`, `诗馀`/`诗余`):
# a value in one form names the same thing in the other.
VARIANT_CHARS = str.maketrans("祐佑钜巨著着馀余", "佑祐巨钜着著余馀")


_ROMAN = {"I": "1", "II": "2", "III": "3", "IV": "4", "V": "5", "VI": "6",
          "Ⅰ": "1", "Ⅱ": "2", "Ⅲ": "3", "Ⅳ": "4", "Ⅴ": "5", "Ⅵ": "6"}
_ROMAN_SEQUEL = re.compile(r"^(.*[\u4e00-\u9fff》])\s*(I{1,3}|IV|VI?|[ⅠⅡⅢⅣⅤⅥ])(》?)$")


# A title's closing numeral in Chinese (`长江七号`, `无间道三`), also written in digits.
_CN_NUMERAL_TITLE = re.compile(r"^(《?.*[\u4e00-\u9fff]{2}(?<![十第百千万零]))([一二三四五六七八九])([号部季集]?》?)$")


# A name opening with a count in digits (`30秒上火星`) is also written with
# the count in Chinese (`三十秒上火星乐队`): the same name, as `长江七号` is `长江7号`.
_OPENING_COUNT_NAME = re.compile(r"^([1-9][0-9]?)([\u4e00-\u9fff]{3,})$")
_CN_DIGITS = "零一二三四五六七八九"


def chinese_numeral(n: int) -> str:
    """1 -> 一, 18 -> 十八, 47 -> 四十七 (1 to 99)."""
    tens, ones = divmod(n, 10)
    return ((_CN_DIGITS[tens] if tens > 1 else "") + "十" if tens else "") + (_CN_DIGITS[ones] if ones else "")


# `中国台湾摇滚女歌手第一人` is said `台湾摇滚女歌手第一人`: `中国` before a
# region of China only locates it (rule 1). The region alone is left to the
# place and nationality levels, which read it by its relation.
_CHINA_REGION_OPENING = re.compile(r"^中国((?:台湾|香港|澳门)[^\s（(]{2,})$")


def _variants_of(value: str) -> list[str]:
    m = _CHINA_REGION_OPENING.match(value)
    if m:  # `中国台湾摇滚女歌手第一人` is also `台湾摇滚女歌手第一人`
        return [m.group(1)]
    m = _OPENING_COUNT_NAME.match(value)
    if m:  # `30秒上火星` is also written `三十秒上火星`
        return [chinese_numeral(int(m.group(1))) + m.group(2)]
    m = _ROMAN_SEQUEL.match(value)
    if m:  # `异形II`: a sequel's numeral is also written in digits (`异形2`)
        return [m.group(1) + _ROMAN[m.group(2)] + m.group(3)]
    m = _CN_NUMERAL_TITLE.match(value)
    if m:  # `长江七号` is also written `长江7号`
        return [m.group(1) + str(_cn_int(m.group(2))) + m.group(3)]
    m = _YEAR_PREFIX.match(value)
    if m:  # `2014年 某电影节最佳纪录片`: the year dates the award, the name is the rest
        return [value[m.end():]]
    m = _LABELLED.match(value)
    if m:  # `制作公司：上海美术电影制片厂`: the cell names the value after its label
        return [m.group(1).strip()]
    m = _CJK_THEN_LATIN.match(value)
    if m:  # `完整无缺 Intacto`, `战争之王Lord of War`: the Chinese title and its original
        return [m.group(1), m.group(2).strip()]
    if OPENERS.isdisjoint(value):
        return []
    out = []
    outside = BRACKETS.sub("", value).strip()
    if outside and outside != value and not _BARE_COUNT.match(outside):
        out.append(outside)
    for m in BRACKETS.finditer(value):
        inner = m.group(0)[1:-1].strip()
        if inner and _LATIN_NAME.match(inner) and len(inner) >= 2:
            out.append(inner)
    return out

