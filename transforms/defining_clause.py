"""The summary's defining clause and the title's parts, shared by domain
classification (transforms/domain.py) and entity typing
(transforms/entity_type.py).

Both stages read the same evidence: a Baike summary opens by saying what the
entry IS ("《西游记》是明代吴承恩创作的长篇神魔小说"), and a Baike title may
carry its disambiguation ("鲍刚（民国将领）"). The domain classifier maps the
head noun to a domain, entity typing maps it to a type. Keeping the parsing
here lets each module import it without importing the other (they used to
import each other).
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

COPULA_CHARS = 40  # the defining 是 sits near the start of the first sentence
_SUBTITLE_RE = re.compile(r"^(?P<title>.+?)[（(](?P<sub>[^（）()]+)[）)]\s*$")
_SPACE_RE = re.compile(r"\s+")
_SENTENCE_END_RE = re.compile(r"[。；;！？!?\n]")
_CLAUSE_SEP_RE = re.compile(r"[，,：:]")
# "于是/但是/还是…" are conjunctions, not the defining copula.
_NOT_COPULA = frozenset("于但可要若还或总只凡倒不就")
_AGENT_PREFIX = ("由", "经", "被", "在", "从", "于")
# A biography segment without 是 ("思想家、教育家") names what the person is:
# accept there only person nouns (…家, …人, …员, …手, …师), never places or schools.
_PERSON_HEAD_END = tuple("家人员手师者将帝王后妃臣相官")
_HEAD_STRIP = "“”\"'「」『』（）()《》 　"
# A verb with 于 that no 的 follows starts the next clause of a run-on
# sentence: "是…写的网络小说连载于云中书城" defines a 小说, not a 书城. With a 的
# after it, it is a modifier ("是位于北京的公园") and stays.
_TRAILING_VERB_CLAUSE = re.compile(r"(?:连载|发表|出版|首播|播出|上映|成立|创办|创建|始建|坐落|收录|发行|刊载|登载)于[^的]*$")


def split_title(entity: str, subtitle: str | None = None) -> tuple[str, str]:
    """Baike titles often carry the disambiguation: "鲍刚（民国将领）"."""
    entity = (entity or "").strip()
    m = _SUBTITLE_RE.match(entity)
    if m:
        return m.group("title").strip(), (subtitle or m.group("sub")).strip()
    return entity, (subtitle or "").strip()


def norm_relation(name: str) -> str:
    """Infobox names come with padding: "简    称" -> "简称"."""
    return _SPACE_RE.sub("", name or "").strip("：: ")


def opening_sentence(text: str) -> str:
    """The summary's first sentence, at most 160 characters: where a Baike
    summary defines its entry."""
    return _SENTENCE_END_RE.split((text or "").strip(), 1)[0][:160]


def defining_phrases(text: str, title: str = "") -> tuple[str, list[str]]:
    """Phrases of the summary's first sentence that end in the entry's head noun.

    Baike summaries open by defining the entry, in one of three shapes:
      * copula: "《西游记》是明代吴承恩创作的长篇神魔小说" -> the clause after 是
        up to the first comma ("是指…" definitions put the head at the end of the
        sentence, so the whole remainder is tried too);
      * a short noun-phrase summary: "西汉皇帝。" -> the sentence itself;
      * a biography without 是: "孔子，名丘，字仲尼，春秋时期鲁国人，思想家、教育家，…"
        -> short comma segments, which must consist of head nouns only ("strict").
    With `title`, a copula counts only when its subject names the entry (holds
    the title, or is a short alias/pronoun: "杨玉环是…", "它是…"): a sentence
    about something else ("黄浦江又名春申江…") defines nothing about the entry.
    Returns (shape, phrases); shape is "" when the opening defines nothing.
    """
    sent = opening_sentence(text)
    if not sent:
        return "", []
    for m in re.finditer("是", sent):
        i = m.start()
        if i > COPULA_CHARS:
            break
        if i == 0 or sent[i - 1] in _NOT_COPULA or sent.count("《", 0, i) > sent.count("》", 0, i):
            continue  # a conjunction, or a 是 inside a 《title》
        if title and not names_entry(sent[:i], title):
            return "", []
        rest = sent[i + 1 :]
        definition = rest.startswith("指")
        rest = rest[1:] if definition else rest
        first = _CLAUSE_SEP_RE.split(rest, 1)[0]
        first = _TRAILING_VERB_CLAUSE.sub("", first) or first
        if definition:  # "是指…的经济现象": the head ends the sentence
            return "copula", [first, rest] if first != rest else [first]
        agent = first.find("由")
        if (first.startswith(_AGENT_PREFIX) and "的" not in first) or (agent >= 0 and "的" not in first[agent:]):
            # "是由上海译文出版社，…" / "是一个由新浪网推出，提供……的社交网站":
            # the clause names an agent; the head, if any, ends the next clause.
            nxt = _CLAUSE_SEP_RE.split(rest, 2)[1:2]
            return ("copula", nxt) if nxt else ("", [])
        return "copula", [first]
    if len(sent) <= 16 and not _CLAUSE_SEP_RE.search(sent) and len((text or "").strip().rstrip("。")) <= len(sent):
        return "short", [sent]  # the whole summary is one noun phrase
    first_seg, *later = _CLAUSE_SEP_RE.split(sent)
    if title and not names_entry(first_seg, title):
        return "", []
    segs = [x for x in later[:5] if 0 < len(x) <= 12]
    return ("strict", segs) if segs else ("", [])


def segments_before_copula(text: str) -> list[str]:
    """"成都，简称蓉，四川省省会，……，是国家历史文化名城": when the subject of 是
    is elided, the short comma segments before it describe the entry too; they
    are read strictly, like a biography opening without 是."""
    sent = opening_sentence(text)
    i = sent.find("是")
    head = sent[:i] if 0 < i <= COPULA_CHARS else ""
    return [x for x in _CLAUSE_SEP_RE.split(head)[1:6] if 0 < len(x) <= 12]


def names_entry(subject: str, title: str) -> bool:
    subject = re.sub(r"[（(][^）)]*[）)]", "", subject).strip(_HEAD_STRIP)
    if not subject or title in subject or subject in title or subject.startswith(("他", "她", "它", "其", "该", "本", "此")):
        return True
    if len(subject) <= 4 and set(subject) & set(title):
        return True  # a short alias: "杨玉环是…" for 杨贵妃
    return any(title[k : k + 2] in subject for k in range(len(title) - 1))


class SuffixIndex:
    """Lexicon words by label, looked up by the longest word a text ends with in
    O(longest word) instead of a scan over the lexicon. Where a word sits under
    two labels the first label wins, as in a scan in the lexicon's order."""

    def __init__(self, words_by_label: dict[str, Sequence[str]] | Iterable[tuple[str, Sequence[str]]]):
        self.label: dict[str, str] = {}
        pairs = words_by_label.items() if isinstance(words_by_label, dict) else words_by_label
        for lab, words in pairs:
            for w in words:
                if w:
                    self.label.setdefault(w, lab)
        self.max_len = max((len(w) for w in self.label), default=0)

    def longest(self, text: str, min_rest: int = 0) -> tuple[str, str]:
        """(label, word) of the longest word `text` ends with, leaving at least
        `min_rest` characters before it; ("", "") when none."""
        for k in range(min(self.max_len, len(text) - min_rest), 0, -1):
            lab = self.label.get(text[-k:])
            if lab is not None:
                return lab, text[-k:]
        return "", ""


def head_nouns(
    phrase: str, heads: dict[str, Sequence[str]] | SuffixIndex, strict: bool = False, person: bool = True
) -> list[tuple[str, str]]:
    """(domain, head) for each 、-coordinated part of `phrase`: the LONGEST lexicon
    word the part ends with, so 科幻电影 is HS, 人造卫星 TE, 机关报 HS not 机关 HP.
    Chinese is head-final: the LAST part must be a head noun, else the phrase is
    a verb phrase ("解释自然现象、探索自然奥秘") and says nothing; earlier parts
    count when they are heads too ("文学家、书法家、画家").
    strict: every part must be a head noun, else nothing (comma segments of an
    opening without 是); for a person only person nouns count there, since
    "祖籍湖南湘潭县" says where, not what; for other entries any short head
    ("成都，简称蓉，四川省省会，…")."""
    index = heads if isinstance(heads, SuffixIndex) else SuffixIndex(heads)
    out = []
    parts = [p.strip(_HEAD_STRIP) for p in phrase.split("、")]
    for n, part in enumerate(parts):
        for tail in ("之一", "等"):
            if part.endswith(tail):
                part = part[: -len(tail)].strip(_HEAD_STRIP)
        best = index.longest(part)
        if strict and best[0] and (
            (person and not best[1].endswith(_PERSON_HEAD_END)) or len(part) - len(best[1]) > 4
        ):
            best = ("", "")  # "祖籍湖南湘潭县", "毕业于北京大学": a place, not what the person is
        if best[0]:
            out.append(best)
        elif strict or n == len(parts) - 1:
            return []
    return out
