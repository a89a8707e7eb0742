"""QA and KGC items of one name's group (pipeline/items_stage.py calls this per group).

A group holds one normalised name's out-edges (every sense of the name as a
head), in-edges (the name as a tail) and its neighbours' summaries
(graph.NameSummary), as its questions read them (items/group_input.py: of a
hub, a sample). From it:
  - each out-edge (h, r, t) is asked for its tail, unless trivial;
  - each in-edge (h, r, name) is asked for its head where the head is
    identifiable (templates.head_askable);
and each question gets nine distractors (distractors.choose) from the
neighbours, the other senses, and the pools of the relation and of the type
(a gold typed `other`, or a country, a sight, an address, a species' range,
a taxon, a 字 or a 号, a character, an era, a kinsman, a credit: its
relation's pool only, see UNTYPED and RELATION_POOL_ONLY).
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any, Callable, Protocol

from transforms.entity_type import tail_type
from transforms.items import templates
from transforms.items.distractors import (Candidate, Draft, alone_in_form, alone_in_level, assemble, choose, gold_level,
                                          is_title, violations)
from transforms.items.exclusion import ALIAS_RELATIONS, known_set, pieces
from transforms.items.graph import freq_bin
from transforms.items.group_input import HOP_RECORD, GroupInput, one_hop_sample, read_group
from transforms.items.kinds import coarse, compatible
from transforms.items.numeric import ladder
from transforms.items.open_relations import part_attribute
from transforms.items.stated import StatedInText
from transforms.role_cues import CREDIT_RELATIONS, KIN_RELATIONS, role_of
from transforms.split import EVAL, stable_hash
from transforms.text import normalise

# A gold typed `other` has no type to share: "same type" would be any junk name
# (字 畹华 beside 京沪高速铁路), so such golds draw only on their relation's own
# values, which are of one kind by construction.
UNTYPED = frozenset({None, "", "other"})
# Relations whose values are of one kind the coarse types do not tell: a
# country, a sight, an address, a region where a species lives, a taxon, a
# courtesy or an art name, a character, an era. Typed `place` like a town, a
# nationality drew the entity's own birthplace (洛杉矶 for 美国) and other
# people's towns (科罗拉多州丹佛) as its options, a sight's neighbour the regions
# where a plant grows (华北南部), and a plant's range the sights of Beijing
# (中国国家博物馆); typed `species` like a plant, a family or a genus drew
# plants (白扦 among the families of 溲疏); typed as the person it names, a 字
# drew full names (李白 among 杜甫's); typed `person` like an actor, a part
# played drew directors (冯小刚, 李安 among the parts 吴磊 played); an era
# outside the dynasty ladder drew towns (平昌县 for 西辽); a mother drew men
# (李安, 康洪雷 for 公父文伯's mother); typed `person:screen` like every actor,
# a director drew actors (孙俪 and 胡歌 for 龙门飞甲's 导演: on the DuIE build 234 of
# 236 director questions had one, 28% of all credit options). The relation's own
# values are of the gold's kind (and a kin relation's of the gold's sex, a
# credit's of the gold's role); too few of them, and the triple is not asked
# (too_few_distractors).
RELATION_POOL_ONLY = frozenset({"国籍", "国家", "所属国家", "制片地区", "制片国家", "周边景点", "地址",
                                "地理分布", "分布区域", "原产地", "属于", "界", "门", "纲", "目", "科", "属",
                                "字", "号", "饰演", "配音", "主角", "朝代", "所处时代", "时代", "所属朝代"}
                               | KIN_RELATIONS | CREDIT_RELATIONS)


@lru_cache(maxsize=65536)
def _retype(value: str, relation: str) -> str:
    return tail_type(value, relation).type


def _kind_known(typed: str, summary: dict | None) -> str:
    """The gold's type with its kind: the edge's, or, when the edge does not
    tell the kind (a 代表作品 of a person of two fields), the one the name's
    own page or its other edges give (graph.NameSummary)."""
    if summary and ":" not in typed and compatible(summary["type"], typed):
        return summary["type"]
    return typed


class Scorer(Protocol):
    """Similarities to a gold: explicit candidates, and a pool's band search (faiss per pool)."""

    def similar(self, gold: str, texts: list[str]) -> dict[str, float]: ...

    def pool(self, pool_key: tuple[str, str], gold: str) -> list[tuple[str, str, float, int]]:
        """(text, type, similarity, bin) of the pool's members with similarity >= the band's low bound."""
        ...


# Pool bins looked at first: within NEAR_TIER of the gold's frequency bin. Only
# when they give fewer than nine is the whole pool tried (a second, wider draft):
# most items never need it, and building candidates was the stage's main cost.
NEAR_TIER, ALL_TIERS = 2, 5


def _pool_candidates(scorer: Scorer, pool_key: tuple[str, str], gold: str, gold_bin: int, origin: str,
                     sims: dict[str, float], max_tier: int, near_origin: str | None = None) -> list[Candidate]:
    out = []
    for text, ctype, b, sim in scorer.pool(pool_key, gold):
        tier = abs(b - gold_bin)
        if tier > max_tier:
            continue
        sims[text] = sim
        # A plain tuple in Candidate's field order: this loop runs for every pool member.
        out.append((text, ctype, near_origin if (near_origin and tier == 0) else origin, tier))
    return out


def _neighbour_candidates(hops: dict[str, dict], keys: list[str], gold: str, pivot_out,
                          pivot_in) -> list[Candidate]:
    """1-hop (the pivot's other values and heads) and 2-hop (the neighbours of
    `keys`, and of the gold: 北京 through 中国) names."""
    out = []
    for e in pivot_out:
        out.append(Candidate(e[5], e[6], "neighbour", 0))
    for e in pivot_in:
        out.append(Candidate(e[1], e[3], "neighbour", 0))
    g = normalise(gold)
    if g in hops and g not in keys:
        keys = sorted([*keys, g])
    for k in keys:
        for text, ctype in hops[k]["neighbours"]:
            out.append(Candidate(text, ctype, "neighbour", 1))
    return out


def _linked_names(group: GroupInput) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Names the graph links to the group's name by any edge, either way, as
    a worker sees them (normalised, split into their pieces): per sense, for
    its tail questions, and for the name as a tail, for its head questions.

    Out-edges are all here; in-edges and neighbours only as the group keeps
    them (group_input.py): all of them up to `one_hop_limit`, a seeded sample
    of a hub's. The in-edges and neighbours cannot be told apart by sense, so
    they count for every sense; another sense's own values do not (杜鹃（鸟）'s
    values are wrong answers about 杜鹃（植物）, which the question names).
    A sense is a page (a pair id), but pages a question shows alike, one name
    with the same subtitle or none, are one sense here: two pages of 超级女声,
    one giving its 嘉宾 and one its 主持人, asked `下列哪一项是《超级女声》的嘉宾？`
    with its hosts 李咏 and 何炅 among the wrong answers (a 12,000-entry build:
    4 QA and 4 KGC items)."""
    by_sense: dict[str, set[str]] = {}
    shown: dict[str, str] = {}  # sense -> its subtitle, as the question shows it
    for e in group.outs:
        by_sense.setdefault(e[0], set()).update(pieces(e[5], e[4]))
        shown[e[0]] = normalise(e[2] or "")
    alike: dict[str, set[str]] = {}
    for sense, values in by_sense.items():
        alike.setdefault(shown[sense], set()).update(values)
    every_value = set().union(*by_sense.values()) if by_sense else set()
    heads = {p for e in (*group.ins, *group.ins_sample) for p in pieces(e[1])}
    around = heads | (set(group.hop_keys) - every_value)
    linked_head = frozenset(every_value | around)
    return {sense: frozenset(alike[shown[sense]] | around) for sense in by_sense}, linked_head


def group_items(key: str, records: list[tuple[str, tuple]], hops: dict[str, dict], scorer: Scorer, cfg,
                count: Callable[[str, int], None], texts: dict[str, StatedInText] | None = None,
                open_relations: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """`ask_group` of a group given as lists: its edges, its neighbours'
    summaries and its pages (pair id -> StatedInText)."""
    group = read_group([*records, *((HOP_RECORD, k, s) for k, s in hops.items())], cfg.one_hop_limit, cfg.seed)
    group.texts = dict(texts or {})
    return ask_group(key, group, scorer, cfg, count, open_relations)


def ask_group(key: str, group: GroupInput, scorer: Scorer, cfg, count: Callable[[str, int], None],
              open_relations: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Every QA/KGC item asked from this group (items/group_input.py), with
    options; `count(name, n)` feeds stats.json. The group's pages turn away a
    tail question's candidate that the page states in the asked role
    (items/stated.py). The tail of an open relation (items/open_relations.py)
    is not asked: its wrong answers are often right."""
    outs, ins, hops, texts = group.outs, group.ins, group.hops, group.texts
    senses = {e[0] for e in outs}
    polysemous = len(senses) > 1
    tasks = [t for t in ("qa", "kgc") if t in cfg.tasks]
    items: list[dict[str, Any]] = []
    if not tasks:
        return items
    band = (cfg.band_low, cfg.band_high)
    values_by_role: dict[str, list[str]] = {}  # a relation's values; a credit's under either of its names
    for e in outs:
        values_by_role.setdefault(role_of(e[4]), []).append(e[5])
    # how many values each sense gives each relation: several are asked as "one of"
    values_per_sense = Counter((e[0], e[4]) for e in outs)
    # The group's own other names (its 中文名/别名/简称 values), never an option of its questions.
    own_aliases = frozenset(n for e in outs if e[4] in ALIAS_RELATIONS for n in pieces(e[5], e[4]))
    heads_by_rel: dict[str, list[str]] = {}  # of the relations one head states (the others are not asked)
    for e in ins:
        heads_by_rel.setdefault(e[4], []).append(e[1])
    # The group's 1-hop and 2-hop names (one_hop_sample, the group's samples) and
    # the true values of each query, made once for the group, not once per question.
    limit = cfg.one_hop_limit
    outs_1hop = one_hop_sample(outs, limit, cfg.seed)
    outs_1hop_by_sense = {sense: one_hop_sample([x for x in outs if x[0] == sense], limit, cfg.seed)
                          for sense in senses}
    ins_1hop, hop_keys = group.ins_sample, group.hop_keys
    linked_tail, linked_head = _linked_names(group)
    known_cache: dict[tuple, frozenset[str]] = {}

    def known(kind: str, key: str, relation: str) -> frozenset[str]:
        got = known_cache.get((kind, key, relation))
        if got is None:
            values = values_by_role[key] if kind == "tail" else heads_by_rel[key]
            got = known_cache[(kind, key, relation)] = known_set(values, relation)
        return got

    def emit(make_draft, edge: tuple, asked: str, shown_head: str) -> None:
        # A credit too rare for nine of its role (9 填词 values in a build) is asked
        # last among the people of its field, as before roles were told apart.
        widen = asked == "tail" and edge[4] in CREDIT_RELATIONS
        for max_tier, wide in ((NEAR_TIER, False), (ALL_TIERS, False)) + (((ALL_TIERS, True),) if widen else ()):
            draft, sims, typed = make_draft(edge, max_tier, wide)
            rejected: dict[str, int] = {}
            chosen = choose(draft, sims, band, cfg.seed, cfg.max_per_origin, rejected)
            for why, n in rejected.items():
                count(f"rejected|{why}", n)
            # The gold the one option of its form (the one ·-name), or a place the one of
            # its level (the one province among districts): a wider draft may find others.
            offered = [t for t, _, _ in chosen] if chosen is not None else []
            alone = chosen is not None and (
                alone_in_form(draft.gold, offered, is_title(draft.gold, draft.gold_type))
                or ("level" if gold_level(draft) and alone_in_level(draft.gold, offered) else None)
            )
            if chosen is not None and not alone:
                break
        if chosen is None:
            count("skipped|too_few_distractors", len(tasks))
            return
        if alone:
            count(f"skipped|alone_in_its_form|{alone}", len(tasks))
            return
        if wide:
            count("widened|credit_among_its_field", len(tasks))
        several = asked == "tail" and values_per_sense[(edge[0], edge[4])] > 1
        # Type consistency, measured independently of the pools' own labels: a
        # tail's distractors are re-typed as values of the asked relation
        # (transforms/entity_type.tail_type); a head's keep their entity type
        # (without the kinds of items/kinds.py, which tail_type does not give either).
        if asked == "tail":
            gold_type = _retype(draft.gold, draft.relation)
            retype = lambda o: _retype(o, draft.relation)  # noqa: E731
        else:
            labels = {t: coarse(c) if c else c for t, c in typed}
            gold_type = coarse(draft.gold_type or "other")
            retype = lambda o: labels.get(o, gold_type)  # noqa: E731
        # A work's title in 《》 in a question's prose (`《十七岁的雨季》的演唱者是谁？`); the
        # KGC triple form shows the name as the graph holds it.
        qa_head = (templates.as_title(shown_head, edge[1]) if asked == "tail" and templates.names_a_work(edge[3], edge[4])
                   else shown_head)
        for task in tasks:
            iid = templates.item_id(task, edge[0], edge[4], edge[5], asked)
            d = Draft(**{**draft.__dict__, "item_id": iid})
            body = assemble(d, chosen, cfg.seed)
            question = (templates.qa_question(edge[4], asked, qa_head, edge[5], several, edge[6]) if task == "qa"
                        else templates.kgc_question(edge[4], asked, shown_head, edge[5]))
            item = {
                "item_id": iid, "task": task, "domain": edge[7], "split": edge[8], "in_subset": edge[9],
                "pair_id": edge[0], "head": edge[1], "relation": edge[4], "tail": edge[5],
                "question": question, "asked": asked, **body,
                "triples": None, "reference": None, "text": None, "gold_triples": None, "ontology": None,
            }
            bad = violations(item, draft.known, edge[4])
            for why in bad:
                count(f"violations|{why}", 1)
            if bad:
                continue
            for origin, sim in zip(item["distractor_origins"], item["distractor_similarity"]):
                count(f"origin|{origin}", 1)
                count(f"sim|{min(9, max(0, int(sim * 10))) / 10:.1f}", 1)
            for text, _, _ in chosen:  # as the pool holds it, before in_gold_form's title marks
                count("type|consistent" if retype(text) == gold_type else "type|inconsistent", 1)
            items.append(item)

    def tail_draft(e: tuple, max_tier: int, wide: bool = False):
        gold = e[5]
        g_summary = hops.get(normalise(gold))
        gold_bin = freq_bin(g_summary["count"]) if g_summary else 1
        gold_type = _kind_known(e[6], g_summary)
        sims: dict[str, float] = {}
        role = role_of(e[4])
        cands = _pool_candidates(scorer, ("rel", role), gold, gold_bin, "same_relation", sims, max_tier)
        if e[6] not in UNTYPED and (e[4] not in RELATION_POOL_ONLY or wide):
            cands += _neighbour_candidates(hops, hop_keys, gold, [x for x in outs_1hop_by_sense[e[0]] if x is not e],
                                           ins_1hop)
            cands += [Candidate(x[5], x[6], "polysemy", 0) for x in outs if x[0] != e[0]]
            cands += _pool_candidates(scorer, ("type", gold_type), gold, gold_bin, "type", sims, max_tier,
                                      "frequency")
        below, above = ladder(gold, e[6], e[4])
        sims.update(scorer.similar(gold, [c[0] for c in cands if c[0] not in sims] + below + above))
        typed = [(c[0], c[1]) for c in cands] + [(t, e[6]) for t in below + above]
        draft = Draft(templates.item_id("question", e[0], e[4], e[5], "tail"), gold, gold_type, e[4],
                      known("tail", role, e[4]), g_summary["aliases"] if g_summary else frozenset(),
                      cands, below, above, frozenset({key, normalise(e[1])}) | own_aliases,
                      texts.get(e[0]) if texts else None, linked_tail[e[0]])
        return draft, sims, typed

    def head_draft(e: tuple, max_tier: int, wide: bool = False):
        gold = e[1]
        g_summary = hops.get(normalise(gold))
        gold_bin = freq_bin(g_summary["count"]) if g_summary else 0
        gold_type = _kind_known(e[3], g_summary)
        sims: dict[str, float] = {}
        cands = _pool_candidates(scorer, ("head", e[4]), gold, gold_bin, "same_relation", sims, max_tier)
        if e[3] not in UNTYPED:
            cands += _neighbour_candidates(hops, hop_keys, gold, outs_1hop, [x for x in ins_1hop if x is not e])
            cands += _pool_candidates(scorer, ("type", gold_type), gold, gold_bin, "type", sims, max_tier,
                                      "frequency")
        sims.update(scorer.similar(gold, [c[0] for c in cands if c[0] not in sims]))
        typed = [(c[0], c[1]) for c in cands]
        draft = Draft(templates.item_id("question", e[0], e[4], e[5], "head"), gold, gold_type, e[4],
                      known("head", e[4], ""), g_summary["aliases"] if g_summary else frozenset(),
                      cands, [], [], frozenset({key, normalise(e[5])}) | own_aliases, linked=linked_head)
        return draft, sims, typed

    asked_per_query: Counter = Counter()

    # One query (a sense's relation) with several values asks the eval split
    # `eval_per_query` of them, in a seeded order, counting only those asked.
    for e in sorted(outs, key=lambda e: (e[0] or "", e[4], _rank(cfg.seed, e))):
        why = templates.skip_tail_reason(e[1], e[4], e[5])
        role = role_of(e[4])  # as the open relations were counted
        if why is None and role in open_relations:
            why = "open_relation"
            count(f"open_relation|{role}", len(tasks))  # which ones, in stats.json
        if why is None and cfg.skip_open_relations and part_attribute(e[3], e[4]):
            why = "part_attribute"  # a flower's colour asked as the plant's (open_relations.py)
        if why:
            count(f"skipped|{why}", len(tasks))
            continue
        query = (e[0], e[4])
        if cfg.eval_per_query and e[8] == EVAL and asked_per_query[query] >= cfg.eval_per_query:
            count("skipped|query_capped", len(tasks))
            continue
        before = len(items)
        emit(tail_draft, e, "tail", templates.shown_head(e[1], e[2], polysemous))
        asked_per_query[query] += len(items) > before

    for why, n in sorted(group.in_skips.items()):  # in-edges of relations several heads state
        count(f"skipped|{why}", n * len(tasks))
    for e in ins:  # a head question's query has one answer (templates.head_askable): never capped
        why = templates.head_askable(e[4], e[6], 1)
        if why is None and (templates.malformed_name(e[1]) or templates.malformed_name(e[5])):
            why = "malformed_name"
        if why is None:
            why = templates.skip_head_reason(e[1], e[4], e[5])
        if why:
            if e[4] in templates.HEAD_TEMPLATES:
                count(f"skipped|{why}", len(tasks))
            continue
        emit(head_draft, e, "head", e[1])

    return items


def _rank(seed: int, edge: tuple) -> tuple[int, str, str]:
    """A seeded place of an edge among the edges of its query (ties: the names)."""
    return stable_hash(seed, "query", f"{edge[0]}\x1f{edge[4]}\x1f{edge[5]}"), edge[1], edge[5]
