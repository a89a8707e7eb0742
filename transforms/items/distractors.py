"""Nine distractors per QA/KGC item, and the invariants every item must meet.

The candidates of one item come from the pool (pipeline/items_stage.py
gathers them; `Candidate.origin` says where from):
  neighbour       1- and 2-hop neighbours of the asked entity in the graph
  polysemy        values of another sense of the same name (another subtitle/lemma id)
  same_relation   tails of the same relation elsewhere (type-consistent by construction)
  frequency       names of the gold's type in the gold's corpus-frequency bin
  type            names of the gold's type in other bins
  numeric         perturbations of a date/number/quantity/formula gold (numeric.py)

A candidate is eligible when exclusion.py lets it through, it has the gold's
type, and its similarity to the gold lies in the semantic band (numeric ones
are exempt). Among the eligible, the choice is seeded per item and capped per
origin, preferring the gold's frequency bin: taking the nine MOST similar
would make the gold the centre of its options, and always the same origin
would give the generator's style away; both let an answer-only model win.
Numeric golds sit at a seeded rank among their numeric options for the same
reason (a year always in the middle of its neighbours is found unread).
"""
from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass
from typing import Callable, NamedTuple

from schemas.items import DISTRACTOR_ORIGINS, NUM_OPTIONS
from transforms.items.exclusion import exclusion_reason, pieces, same_taxon
from transforms.items.kinds import coarse, compatible
from transforms.places import admin_level, place_parts, place_stem
from transforms.split import stable_hash
from transforms.text import normalise

ORIGIN_PRIORITY = ("neighbour", "polysemy", "same_relation", "frequency", "type", "numeric")
NUM_DISTRACTORS = NUM_OPTIONS - 1


class Candidate(NamedTuple):
    text: str
    type: str | None
    origin: str
    tier: int = 0  # 0 = preferred (the gold's frequency bin, a 1-hop neighbour); larger = later


@dataclass
class Draft:
    """One QA/KGC question before its options: the gold and what constrains the distractors."""

    item_id: str
    gold: str
    gold_type: str | None
    relation: str
    known: frozenset[str]  # normalised true answers of (h, r) / (r, t)
    aliases: frozenset[str]  # normalised other names of the gold
    candidates: list[Candidate]
    below: list[str]  # numeric ladder (numeric.py), nearest first
    above: list[str]
    # Normalised names of the entity the question names (the head when the
    # tail is asked): offering it would be absurd, and the prompt gives it away.
    pivot: frozenset[str] = frozenset()
    # Whether the asked entity's text states a candidate as a relation's value
    # (items/stated.py, called with the draft's relation): a true answer the
    # graph lacks. None: no text to ask.
    stated: Callable[[str, str], bool] | None = None
    # Normalised names the graph links to the entity the question names, by
    # any edge either way (generate.py: its other values, the heads pointing
    # at it, its neighbours): 奉俊昊's 代表作品 汉江怪物 is his film, offered
    # as one he did not direct. Not a true answer of the asked relation, but
    # as a rule a true answer in other words.
    linked: frozenset[str] = frozenset()


def script(text: str) -> str:
    """`cjk` when the string holds a CJK character, `latin` when it holds letters but none, else `other`.

    An option in another script than the gold (`High-speed railway` among
    Chinese place names) is found without reading the question."""
    if any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text):
        return "cjk"
    return "latin" if any(ch.isalpha() for ch in text) else "other"


# A Latin gloss after a Chinese name (`丹尼·博伊尔 Danny Boyle`).
_GLOSS = re.compile(r"[\s A-Za-z.\-'’·]+$")


def identity(text: str, place: bool = False) -> str:
    """What an option names: without a Latin gloss after a Chinese name, and,
    for a place, its most specific unit without its suffix. Two options that
    name one thing (伦敦 and 英国伦敦; 丹尼·博伊尔 Danny Boyle and 丹尼·博伊尔
    Loveleen Tandan, the gold's director under another gloss) are struck out
    together, or one is the answer in other words."""
    t = text.strip().strip("《》 ")
    bare = _GLOSS.sub("", t)
    if sum(1 for ch in bare if "\u3400" <= ch <= "\u9fff") >= 2:
        t = bare
    if place:
        t = place_stem(place_parts(t)[-1])
    return normalise(t)


# Marks of an option's form a reader sees without reading it: a ·-name (a
# foreign name in Chinese), Latin letters inside a Chinese name, a bracket note.
_FORM_MARKS = (("dot", re.compile("[·•・]")), ("bracket", re.compile("[（(]")))


def is_title(text: str, typed: str | None) -> bool:
    """Whether an option is a work's title: by its type (`work:<kind>`) or its 《》."""
    return coarse(typed or "") == "work" or text.strip().startswith("《")


def form_marks(text: str, title: bool = False) -> frozenset[str]:
    """The marks of `text`'s form (`dot`, `latin`, `bracket`): the answer the
    only option with one (the one ·-name among Chinese names) is found unread.

    In a title (`title`: is_title) a dot is no mark: it joins a 词牌 and its
    title (`花心动·柳`), a book and its part (`哲学全书·第一部分·逻辑学`) or a
    title and its subtitle (`西游·降魔篇`) as often as it writes a foreign name
    (`安妮·霍尔`), so a title with one is no foreign name among Chinese ones.
    With the mark, a dotted title was asked only beside another (the one dotted
    option of a title question was never the answer) and dotted titles came
    first (the anime film 异邦人·无皇刃谭 among the works of 李毓秀)."""
    marks = {name for name, rx in _FORM_MARKS if rx.search(text) and not (title and name == "dot")}
    if script(text) == "cjk" and any("a" <= ch.lower() <= "z" for ch in text):
        marks.add("latin")
    return frozenset(marks)


def alone_in_form(gold: str, distractors: list[str], title: bool = False) -> str | None:
    """A mark of the gold's form no distractor has (the first by name; `title`:
    the gold is a work's title, form_marks), `ending` when the gold is the one
    option without the ending all the others share (odd_ending), or None."""
    for mark in sorted(form_marks(gold, title)):
        if not any(mark in form_marks(d) for d in distractors):
            return mark
    return "ending" if odd_ending(gold, distractors) else None


def odd_ending(gold: str, distractors: list[str]) -> bool:
    """Whether every distractor ends with one character the gold does not end
    with. `万寿菊的植物分类是什么？` offered 草本 among nine woody forms (落叶乔木,
    小乔木, 灌木…: the herbs of the pool hold 草本 and are turned away as holding
    the gold), and `矮棕竹的高度` 1米或更高些 among nine `…米`: the odd one out is
    the answer, read without the question. Title marks and spaces aside."""
    if not distractors:
        return False
    ends = {d.strip().strip("《》 ")[-1:] for d in distractors}
    return len(ends) == 1 and "" not in ends and gold.strip().strip("《》 ")[-1:] not in ends


def gold_level(draft: Draft) -> str | None:
    """The administrative level of a place gold (places.admin_level), or None:
    a gold of another type, or a place whose name does not tell."""
    return admin_level(draft.gold) if coarse(draft.gold_type or "") == "place" else None


def alone_in_level(gold: str, distractors: list[str]) -> bool:
    """Whether a place gold is the one option of its administrative level
    (places.admin_level) among options most of which tell theirs: `江苏` for
    京沪高速铁路's 途经省市 among 福田区, 盐田区, 坪山区…, `盐田区` for 深圳's
    下辖地区 among 天津, 北京, 上海…, found unread. A gold whose level the name
    does not tell (深圳), or among options most of which do not tell theirs
    (foreign towns), is not alone."""
    level = admin_level(gold)
    if level is None:
        return False
    levels = [admin_level(d.strip().strip("《》 ")) for d in distractors]
    return level not in levels and 2 * sum(lv is not None for lv in levels) >= len(levels)


def item_rng(seed: int, item_id: str, purpose: str) -> random.Random:
    return random.Random(stable_hash(seed, purpose, item_id))


def choose(draft: Draft, similarity: dict[str, float], band: tuple[float, float], seed: int,
           max_per_origin: int, rejected: dict[str, int] | None = None) -> list[tuple[str, str, float]] | None:
    """Nine (text, origin, similarity) distractors, or None when fewer than nine are eligible.

    `similarity` maps candidate text -> cosine similarity to the gold (every
    candidate and numeric variant must be in it). `rejected` counts why the
    candidates looked at were turned away (for stats.json). Candidates are
    looked at lazily, origin by origin in their seeded order, so an item
    with a large pool costs about as much as one with a small pool.

    A gold with a mark of form (form_marks: a ·-name, Latin letters, a
    bracket note) takes the candidates of its form first, then the others:
    `莱昂纳多·迪卡普里奥` as the one ·-name of ten was found unread. Inside
    each, a place gold whose name tells its administrative level (gold_level:
    a province, a prefecture, a county, a township) takes the candidates of
    its level first: `江苏` among districts was found unread."""
    rejected = rejected if rejected is not None else {}
    low, high = band
    seen = {normalise(draft.gold)}
    place = coarse(draft.gold_type or "") == "place"
    named = {identity(draft.gold, place)}
    gold_script = script(draft.gold)
    base = zlib.crc32(f"{seed}\x1f{draft.item_id}".encode("utf-8"))

    def admit(text: str, ctype: str | None, origin: str) -> float | None:
        """The candidate's similarity when it may be offered (and marks it taken), else None."""
        # Cheapest checks first: the type and the band are lookups, exclusion is not.
        n = normalise(text)
        if n in seen:
            return None
        sim = similarity.get(text)
        why = None
        if origin != "numeric" and draft.gold_type and not compatible(ctype, draft.gold_type):
            why = "other_type"
        elif origin != "numeric" and script(text) != gold_script:
            why = "other_script"
        elif sim is None:
            why = "no_vector"
        elif origin != "numeric" and not (low <= sim <= high):
            why = "above_band" if sim > high else "below_band"
        elif n in draft.pivot:
            why = "question_entity"
        elif origin != "numeric" and identity(text, place) in named:
            why = "names_an_option_again"
        else:
            why = exclusion_reason(text, draft.gold, draft.relation, draft.known, draft.aliases)
            if why is None and draft.linked and (n in draft.linked or not pieces(text, draft.relation).isdisjoint(
                    draft.linked)):
                why = "linked_to_question_entity"
            if why is None and draft.stated is not None and draft.stated(text, draft.relation):
                why = "stated_in_text"
        if why is not None:
            rejected[why] = rejected.get(why, 0) + 1
            return None
        seen.add(n)
        if origin != "numeric":
            named.add(identity(text, place))
        return sim

    chosen: list[tuple[str, str, float]] = []
    if draft.below or draft.above:
        ok_below = [(t, s) for t in draft.below if (s := admit(t, draft.gold_type, "numeric")) is not None]
        ok_above = [(t, s) for t in draft.above if (s := admit(t, draft.gold_type, "numeric")) is not None]
        # The gold's rank among the numeric options is seeded: k values below it, the rest above.
        k = item_rng(seed, draft.item_id, "numeric").randint(0, NUM_DISTRACTORS)
        k = min(max(k, NUM_DISTRACTORS - len(ok_above)), len(ok_below))
        chosen = [(t, "numeric", s) for t, s in ok_below[:k] + ok_above[: NUM_DISTRACTORS - k]]

    # Each origin's candidates, tier by tier; inside a tier they keep the order they came
    # in (a pool's own seeded order) rotated by a per-item seeded offset, so every item
    # starts somewhere else in the pool at the cost of one hash per tier, not per candidate.
    tiers: dict[str, dict[int, list]] = {}
    for cand in draft.candidates:
        tiers.setdefault(cand[2], {}).setdefault(cand[3], []).append(cand)

    def ordered(origin: str):
        for tier in sorted(tiers[origin]):
            group = tiers[origin][tier]
            start = zlib.crc32(f"{origin}{tier}".encode("ascii"), base) % len(group)
            yield from group[start:]
            yield from group[:start]

    marks = form_marks(draft.gold, is_title(draft.gold, draft.gold_type))

    def of_form(cand) -> bool:
        return marks <= form_marks(cand[0])

    level = gold_level(draft)

    def of_level(cand) -> bool:
        return admin_level(cand[0]) == level

    def fill(queues: dict) -> None:
        """Round-robin over the origins' queues, `max_per_origin` each until every one is capped."""
        def pull(origin: str):
            for text, ctype, _, _ in queues[origin]:
                sim = admit(text, ctype, origin)
                if sim is not None:
                    return text, origin, sim
            del queues[origin]
            return None

        cap = max_per_origin
        while len(chosen) < NUM_DISTRACTORS and queues:
            progressed = False
            for o in ORIGIN_PRIORITY:
                if len(chosen) >= NUM_DISTRACTORS:
                    break
                if o in queues and taken[o] < cap:
                    got = pull(o)
                    if got is not None:
                        chosen.append(got)
                        taken[o] += 1
                        progressed = True
            if not progressed and queues:
                cap = NUM_DISTRACTORS  # every origin capped and still short: lift the cap

    taken = {o: 0 for o in ORIGIN_PRIORITY}
    # The gold's form first, then the others (one pass when it has no mark), and
    # inside each the gold's level first (one pass when the name tells none);
    # each candidate is still looked at lazily, and once.
    forms = (of_form, lambda cand: not of_form(cand)) if marks else (None,)
    levels = (of_level, lambda cand: not of_level(cand)) if level else (None,)
    for form in forms:
        for lev in levels:
            if len(chosen) < NUM_DISTRACTORS:
                fill({o: (cand for cand in ordered(o) if (form is None or form(cand)) and (lev is None or lev(cand)))
                      for o in ORIGIN_PRIORITY if o in tiers})
    if len(chosen) < NUM_DISTRACTORS:
        return None
    return chosen[:NUM_DISTRACTORS]


# A title as the pages write it: `《阿甘正传》`, `《 乱世佳人》` (KdConv pads some).
_TITLE = re.compile(r"(《\s*)(.*?)(\s*》)", re.S)


def in_gold_form(text: str, gold: str) -> str:
    """A distractor written as the gold is: in the gold's title marks (and
    their padding) when the gold is a title, without marks when it is not.
    Works came to the options as their pages wrote them, some in 《》 and
    some bare, and the one option written like no other was the answer
    (`《 乱世佳人》` among bare titles)."""
    g, m = _TITLE.fullmatch(gold), _TITLE.fullmatch(text)
    inner = m.group(2) if m else text
    if g:
        return g.group(1) + inner + g.group(3)
    return inner if m else text


def assemble(draft: Draft, chosen: list[tuple[str, str, float]], seed: int) -> dict:
    """Options in a seeded order: the gold and its nine distractors (written in the
    gold's form: in_gold_form), with origins and similarities."""
    entries = [(draft.gold, None, None)] + [(in_gold_form(t, draft.gold), o, s) for t, o, s in chosen]
    order = list(range(NUM_OPTIONS))
    item_rng(seed, draft.item_id, "order").shuffle(order)
    options = [entries[i][0] for i in order]
    answer_index = order.index(0)
    dist = [entries[i] for i in order if i != 0]
    return {
        "options": options,
        "answer": draft.gold,
        "answer_index": answer_index,
        "distractor_origins": [o for _, o, _ in dist],
        "distractor_similarity": [round(float(s), 4) for _, _, s in dist],
    }


def violations(item: dict, known: frozenset[str] = frozenset(), relation: str | None = None) -> list[str]:
    """Every invariant a QA/KGC item breaks (issue 8 §4); [] for a good item.

    `known` (normalised true answers of the asked (h, r) / (r, t)) lets the
    checker re-verify the "never a true answer" rule independently of the
    chooser; without it only the item's own fields are checked."""
    out: list[str] = []
    options = item.get("options") or []
    answer = item.get("answer")
    idx = item.get("answer_index")
    if len(options) != NUM_OPTIONS:
        out.append("not_ten_options")
    if len(set(options)) != len(options) or len({identity(o) for o in options}) != len(options):
        out.append("options_not_distinct")
    if sum(1 for o in options if o == answer) != 1:
        out.append("gold_not_exactly_once")
    if idx is None or not (0 <= idx < len(options)) or options[idx] != answer:
        out.append("answer_index_wrong")
    origins = item.get("distractor_origins") or []
    sims = item.get("distractor_similarity") or []
    if len(origins) != NUM_DISTRACTORS or any(o not in DISTRACTOR_ORIGINS for o in origins):
        out.append("origins_missing")
    if len(sims) != NUM_DISTRACTORS or any(s is None for s in sims):
        out.append("similarity_missing")
    ng = normalise(answer or "")
    rel = relation if relation is not None else (item.get("relation") or "")
    for i, o in enumerate(options):
        if i == idx:
            continue
        no = normalise(o)
        if not pieces(o, rel).isdisjoint(known) or (no == ng):
            out.append("true_answer_offered")
            break
        if ng and (no in ng or ng in no):
            out.append("distractor_contains_gold")
            break
        if same_taxon(no, ng, known):
            out.append("same_taxon_offered")
            break
    return out
