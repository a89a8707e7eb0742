"""The `given_name` level: a name told by its given part after the word that
says which name, or which kin, it is.

Why: a classical biography, and a Baike person page written after one, says
the family name once, in the title, and then gives the entity's other names
and its paternal kin by the given part alone: `又名延嗣` on the page of
冯延巳 states 别名 冯延嗣, `初名云孙` on the page of 文天祥 states 原名 文云孙,
`父洵、弟辙皆能文` on the page of 苏轼 states 父亲 苏洵 and 兄弟 苏辙
(docs/alignment.md, Song poets: a name given as another person's is not the
poet's, but the family name is). String matching finds none of these.

It is narrow on purpose: the cell must be the entity's own family name and
a given part of one to three characters (two or more for another name of
the entity), the given part must follow its word directly and end where the
name ends (or open its clause before `之弟`, `之子`), and a one-character
kin word must stand alone. Anything else
(`字子瞻` for a cell 苏瞻, the 弟 of 兄弟二人, `师兄明`, `弟子明`) is never a mention.
"""
from __future__ import annotations

import re

# Two-character family names (the common ones; a title starting with one of
# them has it as its family name).
COMPOUND_SURNAMES = frozenset({
    "欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "尉迟", "公孙", "慕容", "长孙", "宇文", "令狐", "夏侯",
    "独孤", "南宫", "司徒", "司空", "西门", "端木", "轩辕", "澹台", "呼延", "完颜", "耶律", "万俟", "闻人",
})
# The word before a given part, by the relation it names. A name relation's
# cell can be any of the person's names (字 and 号 cells are the given part
# themselves, and found as they are); kin share the family name on the
# father's side only.
_NAME_WORD = r"(?:原名|本名|初名|一名|又名|亦名|更名|改名|曾名|小名|乳名|别名|一作|字|一字|又字|改字|号|自号|别号)"
NAME_RELATIONS = frozenset({"别名", "别称", "原名", "本名", "又名", "曾用名", "初名"})
# Kin words of two characters, and of one (父, 弟, 子): a one-character word
# is a word only at the start of its clause, after 与/和/及 or after a kin
# named the same way (`父洵、弟辙`, `与弟辙`, `父洵弟辙`), never the end of another word (`师兄`, `表弟`, `神父`, `弟子`,
# `孔子`, the `子` of `字子瞻`).
_KIN_WORDS = {
    "父亲": (("其父", "生父"), "父"),
    "兄弟": (("长兄", "次兄", "从弟", "从兄", "堂弟", "堂兄", "幼弟", "胞弟", "胞兄", "兄长"), "弟兄"),
    "哥哥": (("长兄", "次兄", "胞兄", "兄长"), "兄"),
    "弟弟": (("幼弟", "胞弟"), "弟"),
    "儿子": (("长子", "次子", "幼子", "季子", "其子"), "子"),
    "祖父": (("祖父",), "祖"),
    "叔父": (("叔父",), "叔"),
    "伯父": (("伯父",), "伯"),
}
_ALONE = (r"(?:(?<![\u4e00-\u9fff])|(?<=[与和及])"
          r"|(?<=[父兄弟子][\u4e00-\u9fff])|(?<=[父兄弟子][\u4e00-\u9fff]{2}))")  # or after a kin named so: `父洵弟辙`
_WORD_RE = {
    **{r: re.compile(_NAME_WORD + "$") for r in NAME_RELATIONS},
    # a two-character word, not inside a courtesy or art name (`字子瞻` names no son 瞻)
    **{r: re.compile(f"(?:(?<![字号])(?:{'|'.join(two)})|{_ALONE}[{one}])$") for r, (two, one) in _KIN_WORDS.items()},
}
# Or the kin word after the given part, the entity named as that kin's
# (`克己之弟` on the page of 段成己 states 兄弟 段克己; `洵之子`, 父亲 苏洵);
# the given part must then start its clause.
_KIN_AFTER = {"兄弟": re.compile("之[弟兄](?![子妹媳])"), "哥哥": re.compile("之弟(?![子妹媳])"),
              "弟弟": re.compile("之兄(?![长嫂])"), "父亲": re.compile("之[子女](?![婿孙嗣弟])")}  # not 之弟子, 之女婿
_CLAUSE_START = re.compile(r"(?:^|[，,。；;、：:（(\s])$")
GIVEN_NAME_RELATIONS = frozenset(_WORD_RE)
# What may follow a given part: the end of the name (punctuation, space) or
# a word that begins the rest of the sentence (`弟辙皆能文`).
_AFTER = frozenset("，,。；;、：:（）() \u3000") | frozenset("皆均俱并亦同也为等")
_CJK_NAME = re.compile(r"^[\u4e00-\u9fff]{2,4}$")


def family_name(title: str) -> str | None:
    """The family name of a person's title of 2–4 CJK characters, or None."""
    if not _CJK_NAME.match(title or ""):
        return None
    return title[:2] if title[:2] in COMPOUND_SURNAMES and len(title) > 2 else title[0]


def given_name_spans(value: str, text: str, relation: str, entity: str) -> list[tuple[int, int]]:
    """Spans of the value's given part right after its word (module doc)."""
    word = _WORD_RE.get(relation)
    surname = family_name(entity)
    if word is None or surname is None or value == entity or not value.startswith(surname):
        return []
    given = value[len(surname):]
    # another name's given part is two characters or more (`又名延嗣`): one
    # character after 又名 is as often a word of the sentence
    if not (2 if relation in NAME_RELATIONS else 1) <= len(given) <= 3 or not _CJK_NAME.match(value):
        return []
    out = []
    i = text.find(given)
    while i != -1:
        e = i + len(given)
        if (e == len(text) or text[e] in _AFTER) and word.search(text, max(0, i - 3), i):
            out.append((i, e))
        elif (relation in _KIN_AFTER and _KIN_AFTER[relation].match(text, e)
              and _CLAUSE_START.search(text, max(0, i - 1), i)):
            out.append((i, e))
        i = text.find(given, i + 1)
    return out
