"""Where the cue words of an entry's relations occur in its text (issue 10 §2).

A relation's cues are its name, its stem (`出生日期` → `出生`), its entry in
role_cues.CUE_TABLE, the release words for a release date, and the cues mined
from the input (transforms/cue_mining.py). `CueIndex` finds them per span of
the text (a mention's clause or sentence) and caches each span, so only the
few clauses that hold a found value are ever scanned. Beside the entry's own
relations it marks three pseudo relations: FOREIGN (a strong cue of a
relation the entry lacks), EVENT (a dated event's word) and ROLE (a verb of
a person's part in a work); transforms/roles.py reads them to tell a
mention's role.
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.other_roles import is_award_relation
from transforms.role_cues import CREDIT_KEY_RE, CREDIT_KEYS, CUE_TABLE

# A cue followed by a colon (`作词：`) names what comes after it.
COLON = re.compile(r"\s*[：:]")


_STEM_SUFFIXES = ("日期", "时间", "地点", "单位", "部门", "院校", "数量", "地", "者")


# Words of a release or a launch: a relation dated by one of them (上市时间,
# 发行时间, 上映时间, 发布日期) is cued by all, so `于2012年推出` dates a
# phone's market launch as well as a film's release.
RELEASE_WORDS = ("发行", "推出", "发布", "上市", "上映", "公映", "首映", "播出", "首播", "开播", "播映", "上线",
                 "面世", "问世", "出版")


@lru_cache(maxsize=4096)
def relation_cues(relation: str, mined: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Cue words of a relation: its name, its stem, its table entry, the
    release words for a release date, mined cues."""
    cues = [relation]
    stem = relation
    for suf in _STEM_SUFFIXES:
        if relation.endswith(suf) and len(relation) - len(suf) >= 2:
            stem = relation[: -len(suf)]
            break
    if stem != relation:
        cues.append(stem)
    cues.extend(CUE_TABLE.get(relation, ()))
    if stem in CUE_TABLE:
        cues.extend(CUE_TABLE[stem])
    if stem in RELEASE_WORDS and relation.endswith(("时间", "日期")):
        cues.extend(RELEASE_WORDS)
    cues.extend(mined)
    seen: list[str] = []
    for c in cues:
        if c and c not in seen:
            seen.append(c)
    return tuple(seen)


@lru_cache(maxsize=4096)
def is_cued(relation: str) -> bool:
    """A relation with cue words beyond its own name: only such a relation can
    tell that a mention is in another role (`属性`, `中文名` have none)."""
    if relation in CUE_TABLE:
        return True
    for suf in _STEM_SUFFIXES:
        if relation.endswith(suf) and relation[: -len(suf)] in CUE_TABLE:
            return True
    return False


# The pseudo relation of cues that belong to no relation of the entry.
FOREIGN = "~another relation"
# The pseudo relation of event words (`上映`, `拍摄`, `出生`: the cues of the
# dated relations of CUE_TABLE) of no relation of the entry: a date they bind
# is the date of that other event, whatever the entry's relations are
# (`于2010年7月16日上映` is not a production date).
EVENT = "~another event"


# Verbs of a person's part in a work: for a credit relation they mark the
# role of the name they bind even when the entry has no relation of that
# role (`诺兰执导` is not a screenwriter's or a producer's credit).
ROLE = "~another part"
ROLE_VERBS = ("执导", "主演", "出演", "领衔", "饰演", "参演", "编剧", "作词", "填词", "作曲", "谱曲", "编曲",
              "演唱", "原唱", "演绎", "监制", "改编自")
_ROLE_VERB_RE = re.compile("|".join(ROLE_VERBS))


@lru_cache(maxsize=1)
def _event_regex() -> re.Pattern:
    """The cues of every dated relation of CUE_TABLE (上映, 拍摄, 出生, 创刊…)."""
    words = {c for rel, cues in CUE_TABLE.items() if rel.endswith(("时间", "日期")) for c in cues}
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))


@lru_cache(maxsize=1)
def _foreign_regex() -> re.Pattern:
    words = {c for cues in CUE_TABLE.values() for c in cues if len(c) >= 2}
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))


_IN_CATEGORY = re.compile(r"最佳[^，。；;、\s]{0,5}$")
# Cues of a place or a date that mark a role even for a relation the entry
# lacks (`出生于韩国` is a birthplace, not a nationality).
STRONG_FOREIGN = ("出生于", "生于", "毕业于", "就读于", "位于", "成立于", "收录于", "发行于", "上映于", "创办于")
_STRONG_FOREIGN_RE = re.compile("|".join(STRONG_FOREIGN))
assert all("于" in w for w in STRONG_FOREIGN)  # CueIndex.in_span scans only a segment holding 于


class CueIndex:
    """Where the cues of an entry's relations occur in its text.

    Looked up per span (a mention's clause or sentence) and cached: most
    values are never found, and the few mentions that are need only their
    own clause scanned, not the whole text for every relation."""

    def __init__(self, text: str, relations, dated=(), mined: dict[str, tuple[str, ...]] | None = None):
        self.text = text
        self._keys = [(rel, tuple(mined[rel]) if mined and rel in mined else ()) for rel in dict.fromkeys(relations)]
        self._plans = {rel: _relation_plan(rel, m) for rel, m in self._keys}
        self._own_words = None
        self._by_char: dict | None = None
        self._first_chars: frozenset = frozenset()
        self.kinds = dict(dated) if isinstance(dated, dict) else {r: "date" for r in dated}
        self.kinds[EVENT] = "date"
        self.dated = frozenset(self.kinds)
        self.mined = frozenset(r for r, c in (mined or {}).items() if c)
        self._spans: dict[tuple[int, int], list[tuple[int, int, str, str]]] = {}
        # roles.dated_role's: (kind, sentence start, cue start, cue end) -> (the date or
        # quantity the cue binds, its clause's start and end)
        self.nearest_anchor: dict[tuple[str, int, int, int], tuple[tuple[int, int], int, int]] = {}

    @property
    def own_words(self) -> frozenset[str]:
        """Every cue word of the entry's relations (needed only for foreign cues)."""
        if self._own_words is None:
            self._own_words = frozenset().union(*[_relation_words(rel, m) for rel, m in self._keys])
        return self._own_words

    def _cues_by_first_char(self) -> dict[str, list[tuple[str, str]]]:
        """first character -> [(cue, relation), ...] over all the entry's
        relations: relations share first characters (演, 作, 出), and a span
        looks up each of its own characters once, not each relation's."""
        merged: dict[str, list[tuple[str, str]]] = {}
        for plan in self._plans.values():
            for ch, pairs in plan:
                got = merged.get(ch)
                if got is None:
                    merged[ch] = list(pairs)
                else:
                    got.extend(pairs)
        return merged

    def own_cues_in(self, lo: int, hi: int, s: int, e: int, relation: str) -> list[tuple[int, int, str, str]]:
        """The cues of `relation` alone that `in_span(lo, hi)` holds outside
        [s, e): a sentence is asked only for the relation's own cues, so its
        other cues and the foreign and event words need no scan."""
        got = self._spans.get((lo, hi))
        if got is not None:
            return [c for c in got if c[3] == relation and (c[1] <= s or c[0] >= e)]
        seg = self.text[lo:hi]
        out = [c for ch, pairs in self._plans.get(relation, ()) if ch in seg
               for c in _occurrences(seg, lo, pairs) if c[1] <= s or c[0] >= e]
        out += [c for c in self._credit_keys(seg, lo) if c[3] == relation and (c[1] <= s or c[0] >= e)]
        out = self._outside_categories(seg, out)
        out.sort()
        return out

    def _credit_keys(self, seg: str, lo: int) -> list[tuple[int, int, str, str]]:
        """The keys of a credit line in `seg` (`词：`, `曲/`; role_cues.CREDIT_KEYS),
        each as a cue of the entry's relations of that credit, or as FOREIGN
        when it has none: the name after `词：` is a lyricist either way."""
        if "：" not in seg and ":" not in seg and "/" not in seg and "／" not in seg:
            return []
        out = []
        for m in CREDIT_KEY_RE.finditer(seg):
            key = m.group()
            own = [r for r in CREDIT_KEYS[key] if r in self._plans]
            out += [(lo + m.start(), lo + m.end(), key, r) for r in own or (FOREIGN,)]
        return out

    def _outside_categories(self, seg: str, cues: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
        """`最佳导演奖`, `最佳国语男演唱人奖`: a role word inside an award's
        category names the category, not a part the entity played."""
        if "最佳" not in seg:
            return cues
        return [c for c in cues if is_award_relation(c[3])
                or not _IN_CATEGORY.search(self.text, max(0, c[0] - 7), c[0])]

    @classmethod
    def build(cls, text: str, relations, dated=(), mined=None) -> "CueIndex":
        return cls(text, relations, dated, mined)

    def in_span(self, lo: int, hi: int) -> list[tuple[int, int, str, str]]:
        """(start, end, cue, relation) of every cue inside text[lo:hi], sorted."""
        got = self._spans.get((lo, hi))
        if got is not None:
            return got
        seg = self.text[lo:hi]
        out = []
        if self._by_char is None:
            self._by_char = self._cues_by_first_char()
            self._first_chars = frozenset(self._by_char)
        by_char = self._by_char
        for ch in self._first_chars.intersection(seg):  # in C, over the shorter; the result is sorted below
            for cue, rel in by_char[ch]:  # _occurrences, inline: this loop runs for most clauses a mention is in
                j = seg.find(cue)
                while j != -1:
                    out.append((lo + j, lo + j + len(cue), cue, rel))
                    j = seg.find(cue, j + 1)
        # Strong place/date cues (`出生于`) and `key：value` cues of relations the
        # entry does not have still mark a role: the mention after `作词：` is a
        # lyricist even without a 作词 triple. (Without the colon such words
        # are too common to count.)
        # every STRONG_FOREIGN word holds 于: a segment without it holds none (speed only)
        for m in (_STRONG_FOREIGN_RE.finditer(seg) if "于" in seg else ()):
            w = m.group()
            if not any(w.startswith(o) or o.startswith(w[:2]) for o in self.own_words):
                out.append((lo + m.start(), lo + m.end(), w, FOREIGN))
        for m in _ROLE_VERB_RE.finditer(seg):
            if m.group() not in self.own_words:
                out.append((lo + m.start(), lo + m.end(), m.group(), ROLE))
        for m in _event_regex().finditer(seg):
            if m.group() not in self.own_words:
                out.append((lo + m.start(), lo + m.end(), m.group(), EVENT))
        out += self._credit_keys(seg, lo)
        if "：" in seg or ":" in seg:
            for m in _foreign_regex().finditer(seg):
                if m.group() not in self.own_words and COLON.match(self.text, lo + m.end()):
                    out.append((lo + m.start(), lo + m.end(), m.group(), FOREIGN))
        out = self._outside_categories(seg, out)
        out.sort()
        self._spans[(lo, hi)] = out
        return out


def _occurrences(seg: str, lo: int, cues) -> list[tuple[int, int, str, str]]:
    """(start, end, cue, relation) of every occurrence, overlapping ones
    included, of each (cue, relation) in `seg`, a span starting at `lo`."""
    out = []
    for cue, rel in cues:
        j = seg.find(cue)
        while j != -1:
            out.append((lo + j, lo + j + len(cue), cue, rel))
            j = seg.find(cue, j + 1)
    return out


@lru_cache(maxsize=4096)
def _relation_words(relation: str, mined: tuple[str, ...]) -> frozenset[str]:
    """The cue words of one relation (relation_cues) as a set: an entry's own
    words are the union of its relations' (CueIndex.own_words)."""
    return frozenset(relation_cues(relation, mined))


@lru_cache(maxsize=4096)
def _relation_plan(relation: str, mined: tuple[str, ...]) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """(first character, its (cue word, relation) pairs) of one relation. Kept per relation, not
    per entry: an entry's set of relations is rarely seen twice, a relation
    is seen all the time. A span is searched only for the cues whose first
    character it holds (one C-level test each; a set of the span's
    characters cost more than the search)."""
    plan: dict[str, list[str]] = {}
    for cue in relation_cues(relation, mined):
        plan.setdefault(cue[0], []).append(cue)
    return tuple((ch, tuple((cue, relation) for cue in cues)) for ch, cues in plan.items())
