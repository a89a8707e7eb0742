"""Mentions at word and name boundaries (issue 10 §1).

A value is stated by a mention that is a word or a name of the text, never
by a piece of a longer name: `国籍 中国` is not stated by
`中国科学院上海原子核研究所` nor by `加入中国共产党`, `主管部门 中国科学院` not by
the entity's own name `中国科学院大学`.

The test segments the run of CJK characters around a candidate with jieba's
own dictionary and algorithm (the DAG of dictionary words, then the route of
highest probability), plus an *entry lexicon*: the entry's title, its values
and the anchors of its links, each a name that must not be cut. The value
itself is in the lexicon, so it wins over a split into smaller words; a
longer dictionary word or name that crosses the candidate's edge wins over
it, and then the candidate is not a mention.

Only candidates with a CJK character on an edge are segmented, and only a
window of `WINDOW` characters on each side: Latin/digit edges are judged by
transforms/text.py, and punctuation is always a boundary. jieba's dictionary
is loaded once per process (about 0.6 s, from its cache), never modified, so
the result does not depend on what other entries a worker saw.

A common-noun compound is not a name: `国语专辑` and `彩色动画` are jieba
words, but `国语` and `动画` in them are the album's language and the film's
genre. A mention that heads or ends such a compound counts as a word, unless
jieba tags the compound as a name (person, place, organisation, other proper
noun, abbreviation: `中国科学院`, `中国共产党`). A name of the entry cuts a
mention at its start (`中国科学院大学`), not a common word at its end (the
value `美国演员` of one cell does not hide `演员` of another).
"""
from __future__ import annotations

import math
import re
import threading
from functools import lru_cache

WINDOW = 12
_HAS_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff]")
_LOCK = threading.Lock()
_DICT: tuple[dict, float] | None = None


# jieba's tags of names: a word with one of them is a name a mention must not cut.
_NAME_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz", "j"})


# How often a common noun of jieba's dictionary must be (per its counts) to
# be one of the language's everyday words: 世界 34,387, 儿童 5,456; 故宫 1,303.
_COMMON_NOUN_FREQ = 5000


@lru_cache(maxsize=1)
def _dictionary_tags() -> tuple[dict[str, str], frozenset[str]]:
    """(word -> tag of the names, the everyday common nouns) of jieba's
    dictionary, read once from its dict.txt."""
    import os

    import jieba

    names: dict[str, str] = {}
    nouns = []
    path = os.path.join(os.path.dirname(jieba.__file__), "dict.txt")
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            p = line.split()
            if len(p) != 3:
                continue
            if p[2] in _NAME_TAGS:
                names[p[0]] = p[2]
            elif p[2] == "n" and int(p[1]) >= _COMMON_NOUN_FREQ:
                nouns.append(p[0])
    return names, frozenset(nouns)


def _name_tags() -> dict[str, str]:
    """word -> tag of the names in jieba's dictionary."""
    return _dictionary_tags()[0]


@lru_cache(maxsize=1)
def jieba_names() -> frozenset[str]:
    """The words of jieba's dictionary tagged as names."""
    return frozenset(_name_tags())


def common_nouns() -> frozenset[str]:
    """The everyday common nouns of jieba's dictionary (tag n, frequent):
    words that name a kind of thing, never one place."""
    return _dictionary_tags()[1]


@lru_cache(maxsize=1)
def jieba_place_names() -> frozenset[str]:
    """The words jieba tags as places (ns): `上海`, `华纳` is one too."""
    return frozenset(w for w, tag in _name_tags().items() if tag == "ns")


def jieba_dictionary() -> tuple[dict, float]:
    """(jieba's word -> frequency prefix dictionary, log of its total)."""
    global _DICT
    if _DICT is None:
        with _LOCK:
            if _DICT is None:
                import logging

                import jieba

                jieba.setLogLevel(logging.WARNING)
                tk = jieba.Tokenizer()
                tk.initialize()
                _DICT = (tk.FREQ, math.log(tk.total))
    return _DICT


# A name of the entry counts like a frequent word (log-probability about -7,
# as frequent as 上海 or 德国): it beats its own split, and loses to a longer
# word or name that swallows it.
_LEXICON_LOGP = -7.0


def _best_cuts(run: str, lexicon: frozenset[str], max_len: int) -> set[int]:
    """Cut points of the most probable segmentation of `run` (jieba's
    algorithm), with the lexicon's names as extra words."""
    freq, logtotal = jieba_dictionary()
    n = len(run)
    named: dict[int, list[int]] = {}
    for w in lexicon:
        k = run.find(w)
        while k != -1:
            named.setdefault(k, []).append(k + len(w) - 1)
            k = run.find(w, k + 1)
    dag: list[list[tuple[int, float]]] = []
    for i in range(n):
        ends: dict[int, float] = {}
        k = i
        frag = run[i]
        while k < n and frag in freq:
            f = freq[frag]
            if f:
                ends[k] = math.log(f) - logtotal
            k += 1
            frag = run[i:k + 1]
        for end in named.get(i, ()):
            ends[end] = max(ends.get(end, -1e9), _LEXICON_LOGP)
        if i not in ends:
            ends[i] = math.log(freq.get(run[i]) or 1) - logtotal
        dag.append(list(ends.items()))
    route: list[tuple[float, int]] = [(0.0, 0)] * (n + 1)
    for i in range(n - 1, -1, -1):
        route[i] = max((lp + route[k + 1][0], k) for k, lp in dag[i])
    cuts, i = {0, n}, 0
    while i < n:
        i = route[i][1] + 1
        cuts.add(i)
    return cuts


@lru_cache(maxsize=65536)
def _cuts_cached(run: str, lexicon: frozenset[str], max_len: int) -> frozenset[int]:
    return frozenset(_best_cuts(run, lexicon, max_len))


def needs_segmentation(text: str, start: int, end: int) -> bool:
    """A CJK character on either side of a CJK edge: only then can a longer
    word cross the edge."""
    return ((start > 0 and _CJK_PAIR.match(text, start - 1) is not None)
            or _CJK_PAIR.match(text, end - 1) is not None)


_CJK_PAIR = re.compile("[\u3400-\u9fff\uf900-\ufaff]{2}")


@lru_cache(maxsize=64)
def _joined(lexicon: frozenset[str]) -> str:
    """The entry's names in one string: a name that crosses an edge holds the
    two characters around it, so when they are not in this string no name
    can cross (one C-level search instead of one per name; a Baike page
    links hundreds). NUL keeps two names from forming a false pair; a false
    pair would only mean the names are searched one by one."""
    return "\0".join(lexicon)


def _crossing_word(text: str, lo: int, hi: int, start: int, end: int, lexicon: frozenset[str]) -> bool:
    """Some dictionary word or name of the run crosses an edge of the mention."""
    freq, _ = jieba_dictionary()
    # the edges inside the run, start first (no comprehension: this runs for most mentions)
    edges = [start] if lo < start < hi else []
    if lo < end < hi:
        edges.append(end)
    for edge in edges:
        # A word starting 1-3 characters before the edge and running past it
        # (中国|科学院, 加入|中国共产党). jieba's dictionary holds every prefix
        # of its words (frequency 0), so the walk stops at the first fragment
        # that begins no word (and a start whose part before the edge begins
        # none stops at its first step).
        for i in range(max(lo, edge - 3), edge):
            j = edge + 1
            while j <= hi:
                f = freq.get(text[i:j])
                if f is None:
                    break
                if f:
                    return True
                j += 1
    joined = _joined(lexicon)
    for x in edges:
        if text[x - 1:x + 1] in joined:
            break
    else:
        return False
    run = text[lo:hi]
    for w in lexicon:
        k = run.find(w)
        while k != -1:
            if any(lo + k < x < lo + k + len(w) for x in edges):
                return True
            k = run.find(w, k + 1)
    return False


_CJK_RUN = re.compile("[\u3400-\u9fff\uf900-\ufaff]+")
_CJK_RUN_TO_END = re.compile("[\u3400-\u9fff\uf900-\ufaff]+$")


def at_word_boundaries(text: str, start: int, end: int, lexicon=frozenset(), compounds: bool = True) -> bool:
    """True when text[start:end] is a whole word or name of the text: both
    edges are cut points of the segmentation of the CJK run around it, or
    (with `compounds`) it heads or ends a common-noun compound of it.
    `lexicon` may be a callable that builds the entry's names on first need."""
    return word_fit(text, start, end, lexicon, compounds) is not None


def word_fit(text: str, start: int, end: int, lexicon=frozenset(), compounds: bool = True) -> str | None:
    """How text[start:end] fits the words of the text: "word" when both edges
    are cut points of its segmentation, "compound" when (with `compounds`) it
    only heads or ends a common-noun compound (`国语` in `国语专辑`), "in_name"
    when it is the head of another name of the entry (`演员` in the value
    `配音演员`, `香草` in the value `灵香草`), None when a longer word or name
    cuts it. A mention inside another of the entry's values is that value's
    first: of two mentions with the same evidence, the whole word states it."""
    if not needs_segmentation(text, start, end):
        return "word"
    # The run: up to WINDOW CJK characters on each side of the mention.
    m = _CJK_RUN_TO_END.search(text, max(0, start - WINDOW), start)
    lo = m.start() if m else start
    m = _CJK_RUN.match(text, end, end + WINDOW)
    hi = m.end() if m else end
    if callable(lexicon):
        lexicon = lexicon()
    if not _crossing_word(text, lo, hi, start, end, lexicon):
        return "word"  # no word at all crosses an edge: nothing could cut the mention
    run = text[lo:hi]
    words = frozenset(w for w in lexicon if w in run) | {text[start:end]}
    max_len = max(len(w) for w in words)
    cuts = _cuts_cached(run, words, max_len)
    a, b = start - lo, end - lo
    if a in cuts and b in cuts:
        return "word"
    return _in_compound(run, cuts, a, b, words) if compounds else None


def _in_compound(run: str, cuts: frozenset[int], a: int, b: int, names: frozenset[str]) -> str | None:
    """"compound" when run[a:b] starts or ends the one word of the
    segmentation that holds it, and that word is a common compound of
    jieba's dictionary, not a name; "in_name" when that word is a name of the
    entry the mention heads; else None."""
    left = max(c for c in cuts if c <= a)
    right = min(c for c in cuts if c >= b)
    if left != a and right != b:
        return None
    if any(left < c < right for c in cuts):
        return None  # the mention spans more than one word
    word = run[left:right]
    freq, _ = jieba_dictionary()
    if word in names:
        # A name of the entry that ends with the mention, a common word, is a
        # phrase with the mention as its head (`美国演员` is an 演员); one that
        # starts with it is a longer name (`中国科学院大学`), unless the mention
        # and 性 make the adjective that opens it (`综合性大学` is a kind of 大学).
        mention = run[a:b]
        if left == a and run.startswith("性", b) and freq.get(mention + "性"):
            return "compound"
        return "in_name" if right == b and freq.get(mention) and mention not in jieba_names() else None
    return "compound" if freq.get(word) and word not in jieba_names() else None


def entry_lexicon(raw: dict, values: list[str] | tuple[str, ...] = ()) -> frozenset[str]:
    """Names of one entry that the text must not cut: title, subtitle, infobox
    values (as split into triples), and the anchors of its links. Single
    characters and Latin-only strings are left out (nothing to segment)."""
    names = [raw.get("title") or "", raw.get("subtitle") or "", *values]
    for item in raw.get("infobox") or []:
        for link in item.get("value_links") or []:
            names.append(link.get("title") or "")
    for link in raw.get("links") or []:
        names.append(link.get("title") or "")
    return frozenset([n for n in map(str.strip, names) if len(n) >= 2 and _HAS_CJK.search(n)])
