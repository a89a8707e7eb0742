"""T2T items, the domain ontologies, and T2KG sentences (issue 8 §6, §7).

T2T: a pair's kept triples in; as the reference, the sentences of its text
that hold their support (`reference="sentences"`, the default), or the whole
text as the CDTP paper has it (`reference="text"`). A Baike summary states
far more than its kept triples (任正非's two paragraphs for one 出生地), and a
whole-text reference scores a model on facts its input never gave it: it
rewards hallucination and punishes faithfulness. The sentences that hold a
kept triple's support (the pairs' start/end offsets) are the text's own
statement of the input; when an input triple has no offsets (a pair the
aligner did not make), the whole text is all that can be said.

T2KG follows Text2KGBench (Mihindukulasooriya et al., 2023) in Chinese: one
ontology per domain, derived from the relations kept in that domain (the
most frequent ones), each with a domain and range type taken from entity
typing (the most common entity_type of its heads, tail_type of its tails).
The ontology is written in Text2KGBench's JSON (`id`, `title`, `concepts`
[{qid, label}], `relations` [{pid, label, domain, range}]). A test case is one
sentence of a pair's text with the kept triples whose support span (the
pairs' start/end offsets) lies inside it; like Text2KGBench, a sentence is
used only when ALL its triples belong to the ontology, and it needs at least
one. Trivial triples (the entity's own name restated, transforms/trivial.py)
are left out of the gold: they reward copying the title. A sentence that
names the value of a kept triple supported in another sentence is not used
either: a fact a text states twice has its span in one sentence only, and a
model that extracts it from the other would be marked wrong against a gold
that lacks it (on the labelled alignment set's tune part, 2.8% of the
triples the sentences state were missing from their gold, 1.4% without
those sentences).

A person's role (a credit, a kinsman, a host) kept with no cue word near its
mention is left out of T2T's input, and its sentence out of T2KG: on DuIE
text, where a sentence is often about someone else, 41% of such keeps are
not stated (against 6% with a cue; labelled alignment set), while on pages
about their entity they are rare. The pairs keep them (DuIE's annotators
read them as stated, and its recall is measured on the pairs); QA and KGC
ask facts, which a keep of DuIE's stays, stated or not.

A sentence that states a triple a stage after the alignment dropped (a rare
relation, one the search did not corroborate: the pair's dropped_mentions)
is not used either: Text2KGBench leaves out a sentence with a triple outside
its ontology, and a dropped triple is outside the gold.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterable

from transforms.cells import PairConfig, split_values
from transforms.items.exclusion import ALIAS_RELATIONS
from transforms.pairs import DROPPED_MENTIONS
from transforms.role_cues import PERSON_RELATIONS
from transforms.text import find_all
from transforms.trivial import trivial_reason

_SPLIT_ALL = PairConfig(no_split_relations=frozenset())

# The coarse types of transforms/entity_type.py as ontology concepts.
CONCEPT_LABELS = {
    "person": "人物", "organisation": "组织机构", "place": "地点", "work": "作品", "species": "物种",
    "event": "事件", "date": "日期", "number": "数值", "quantity": "数量", "other": "其他",
}
_SENTENCE_END = re.compile(r"[^。！？!?；;\n]*(?:[。！？!?；;]+[”’」』）)]*|\n|$)")


def ontology_id(domain: str) -> str:
    return f"cdtp_{domain}"


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences of a Chinese text (end exclusive)."""
    out = []
    for m in _SENTENCE_END.finditer(text or ""):
        s, e = m.span()
        if e > s and text[s:e].strip():
            out.append((s, e))
    return out


def uncued_person_role(triple: dict[str, Any]) -> bool:
    """A kept person's role whose support has no cue word (a support_score
    with no cue); unknown with the role check off (no score), so not this."""
    return (triple.get("relation") in PERSON_RELATIONS and triple.get("support_score") is not None
            and not triple.get("cue"))


def t2t_input(pair: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """(the kept triples a T2T item takes as input, those it leaves out by reason).

    Left out: an uncued person's role (the module doc), and a trivial triple
    (`荒野生存 中文名 荒野生存`, transforms/trivial.py), as T2KG's gold leaves it
    out: it asks a model to restate the title, and rewards copying it."""
    chosen, left_out = [], {}
    for t in pair.get("triples") or []:
        why = ("t2t_uncued_person_role" if uncued_person_role(t)
               else "t2t_trivial" if trivial_reason(t["head"], t["relation"], t["tail"]) else None)
        if why:
            left_out[why] = left_out.get(why, 0) + 1
        else:
            chosen.append(t)
    return chosen, left_out


def reference_spans(text: str, triples: list[dict[str, Any]], reference: str = "sentences") -> list[tuple[int, int]]:
    """The spans of `text` a T2T reference is made of: the sentences that hold
    a triple's support, in text order; the whole text for `reference="text"`
    or when a triple has no support offsets (the module doc)."""
    if reference == "text" or any(t.get("start") is None for t in triples):
        return [(0, len(text))]
    starts = sorted(t["start"] for t in triples)
    return [(a, b) for a, b in sentences(text) if any(a <= s < b for s in starts)] or [(0, len(text))]


# What closes a sentence (a closing quote or bracket after its mark), so that
# the next may follow it on the same line; `中国（大陆）` closes none.
_CLOSED = re.compile(r"[。！？!?；;][”’」』）)]*$")


def t2t_item(pair: dict[str, Any], reference: str = "sentences") -> tuple[dict[str, Any] | None, dict[str, int]]:
    """(the T2T item of a pair or None, the kept triples its input leaves out, by reason):
    the input of t2t_input, the reference of reference_spans, its sentences
    joined as the text has them (a paragraph's break dropped after a closed
    sentence, kept after a line with no closing mark)."""
    chosen, left_out = t2t_input(pair)
    text = pair.get("text") or ""
    if not chosen or not text.strip():
        return None, left_out
    spans = reference_spans(text, chosen, reference)
    if spans == [(0, len(text))]:
        ref = text
    else:  # a line with no closing mark keeps its break: `演唱：王菲` and `作词：林夕` are two lines
        parts = [text[a:b].strip() for a, b in spans]
        ref = "".join(p + ("" if _CLOSED.search(p) else "\n") for p in parts).rstrip("\n")
    return {"triples": [{"head": t["head"], "relation": t["relation"], "tail": t["tail"]} for t in chosen],
            "reference": ref}, left_out


def relation_types(pair: dict[str, Any]) -> Iterable[tuple[tuple[str, str], tuple[str, str]]]:
    """((domain, relation), (head type, tail type)) per kept, non-trivial triple (for the ontology combiner)."""
    domain = pair.get("domain") or "unknown"
    head_type = pair.get("entity_type") or "other"
    for t in pair.get("triples") or []:
        if trivial_reason(t["head"], t["relation"], t["tail"]):
            continue
        yield (domain, t["relation"]), (head_type, t.get("tail_type") or "other")


def build_ontology(domain: str, relation_type_counts: dict[str, Counter], min_count: int,
                   max_relations: int) -> dict[str, Any]:
    """Text2KGBench-style ontology of one domain from {relation: Counter((head type, tail type))}."""
    ranked = sorted(((sum(c.values()), r) for r, c in relation_type_counts.items()), key=lambda x: (-x[0], x[1]))
    chosen = [(n, r) for n, r in ranked if n >= min_count][:max_relations]
    relations, concepts = [], set()
    for i, (n, r) in enumerate(chosen, 1):
        heads, tails = Counter(), Counter()
        for (ht, tt), k in relation_type_counts[r].items():
            heads[ht] += k
            tails[tt] += k
        dom = min(heads, key=lambda t: (-heads[t], t))
        rng = min(tails, key=lambda t: (-tails[t], t))
        concepts.update((dom, rng))
        relations.append({"pid": f"R{i}", "label": r, "domain": dom, "range": rng, "count": n})
    return {
        "title": f"CDTP {domain} ontology",
        "id": ontology_id(domain),
        "concepts": [{"qid": c, "label": CONCEPT_LABELS.get(c, c)} for c in sorted(concepts)],
        "relations": relations,
    }


# A ·-name's parts (迪卡普里奥 of 莱昂纳多·迪卡普里奥): Chinese text names a foreign person by one.
_NAME_PARTS = re.compile("[·•・]")


def own_names(pair: dict[str, Any]) -> frozenset[str]:
    """The names the pair gives its entity: the entity, its triples' heads, the
    values of its alias relations (中文名, 别名, 本名…) and a ·-name's parts of
    two characters or more, without title marks."""
    names = {pair.get("entity") or ""}
    for t in pair.get("triples") or []:
        names.add(t.get("head") or "")
        if t.get("relation") in ALIAS_RELATIONS:
            names.update(split_values(t.get("tail") or "", t["relation"], _SPLIT_ALL))
    out = set()
    for n in names:
        n = n.strip().strip("《》").strip()
        out.add(n)
        out.update(p.strip() for p in _NAME_PARTS.split(n) if len(p.strip()) >= 2)
    out.discard("")
    return frozenset(out)


def _names_value(sentence: str, value: str, heads: set[str]) -> bool:
    """Whether `sentence` names `value` somewhere other than inside one of the
    entity's names (`上海大学` holds 上海, a 所属地区 it does not state there)."""
    inside = [(i, i + len(h)) for h in heads for i in find_all(sentence, h)]
    return any(not any(a <= i and i + len(value) <= b for a, b in inside) for i in find_all(sentence, value))


def t2kg_cases(pair: dict[str, Any], ontology_relations: frozenset[str]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """T2KG cases of one pair (sentence, gold triples) and the sentences skipped, by reason.

    A sentence that names none of the entity's own names (`own_names`) is not
    used (`head_not_named`): Text2KGBench's sentences name their subject, and
    a model given `他执导了《鬼子来了》` cannot name 姜文, so a right answer
    scores as a hallucinated subject."""
    text = pair.get("text") or ""
    spans = sentences(text)
    skipped: dict[str, int] = {}
    by_sentence: dict[int, list[dict]] = {}
    for t in pair.get("triples") or []:
        s, e = t.get("start"), t.get("end")
        if s is None or e is None:
            continue
        for k, (a, b) in enumerate(spans):
            if a <= s and e <= b:
                by_sentence.setdefault(k, []).append(t)
                break
    # (relation, value) of every kept, non-trivial triple; a value of one
    # character is named by too many words to tell
    values = [(t["relation"], t["tail"]) for t in pair.get("triples") or []
              if len(t["tail"].strip()) >= 2 and not trivial_reason(t["head"], t["relation"], t["tail"])]
    dropped = pair.get(DROPPED_MENTIONS) or ()
    names = own_names(pair)
    # the entity's own names: a value inside one (上海 of 上海大学, 所属地区) is not named by it
    heads = {n for n in (pair.get("entity") or "", *(t.get("head") or "" for t in pair.get("triples") or []))
             if n.strip()}
    out = []
    for k in sorted(by_sentence):
        triples = by_sentence[k]
        why = None
        a, b = spans[k]
        if any(t["relation"] not in ontology_relations for t in triples):
            why = "relation_outside_ontology"
        elif any(a <= s and e <= b for s, e in dropped):
            why = "states_a_dropped_triple"
        elif any(uncued_person_role(t) for t in triples):
            why = "uncued_person_role"
        gold = [{"head": t["head"], "relation": t["relation"], "tail": t["tail"]} for t in triples
                if not trivial_reason(t["head"], t["relation"], t["tail"])]
        if why is None and not gold:
            why = "only_trivial_triples"
        if why is None:
            held = {(g["relation"], g["tail"]) for g in gold}
            if any((r, v) not in held and _names_value(text[a:b], v, heads) for r, v in values):
                why = "names_a_value_supported_elsewhere"
        if why is None and not any(n in text[a:b] for n in names):
            why = "head_not_named"
        if why:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        out.append({"text": text[a:b].strip(), "gold_triples": gold, "sentence": k})
    return out, skipped
