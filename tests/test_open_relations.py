"""Open relations (transforms/items/open_relations.py): which relations' tails are not asked, and why.

The pairs are written by hand with real facts: plants with their uses (a
use is shared by many plants, and a plant has several), people with their
nationality (shared, one each) and films with their cast (several each,
rarely shared).
"""
from __future__ import annotations

from collections import defaultdict

import pytest

from pipeline.items_embed import embed_all, read_vectors
from pipeline.items_stage import _Scorer
from transforms.items.config import ItemsConfig
from transforms.items.generate import group_items
from transforms.items.graph import freq_bin
from transforms.items.open_relations import add, open_relation_set, query_counts, relation_row

USES = {"银杏": ["行道树", "观赏", "药用"], "国槐": ["行道树", "观赏", "蜜源"], "毛白杨": ["行道树", "用材林"],
        "枫香": ["观赏", "用材林"], "侧柏": ["绿篱", "观赏"], "紫薇": ["观赏", "盆景"]}
NATIONALITY = {"李娜": "中国", "姚明": "中国", "成龙": "中国", "汤姆·汉克斯": "美国", "宫崎骏": "日本", "梅兰芳": "中国"}
CAST = {"霸王别姬": ["张国荣", "张丰毅", "巩俐"], "阿甘正传": ["汤姆·汉克斯", "罗宾·怀特"],
        "红高粱": ["巩俐", "姜文"], "卧虎藏龙": ["周润发", "杨紫琼", "章子怡"], "英雄": ["李连杰", "梁朝伟"],
        "让子弹飞": ["葛优", "刘嘉玲", "陈坤"]}


def _pairs() -> list[dict]:
    out = []
    for facts, relation in ((USES, "功用价值"), (NATIONALITY, "国籍"), (CAST, "主演")):
        for entity, values in facts.items():
            values = values if isinstance(values, list) else [values]
            out.append({"entity": entity, "triples": [{"relation": relation, "tail": v} for v in values]})
    return out


def _rows(pairs: list[dict]) -> list[tuple[str, tuple]]:
    """What the OpenRelations transform computes, as a plain loop: sums per key, then per relation."""
    per_key: dict[tuple, list] = defaultdict(list)
    for p in pairs:
        for k, v in query_counts(p):
            per_key[k].append(v)
    per_relation: dict[str, list] = defaultdict(list)
    for k, vs in per_key.items():
        relation, row = relation_row(k, add(vs))
        per_relation[relation].append(row)
    return [(r, add(rows)) for r, rows in per_relation.items()]


def test_a_relation_is_open_when_its_entities_hold_several_values_that_others_hold_too():
    rows = dict(_rows(_pairs()))
    # entities, entities with several values, triples, triples whose value another entity holds
    assert rows["功用价值"] == (6, 6, 14, 10)  # 行道树 ×3, 观赏 ×5, 用材林 ×2 are shared
    assert rows["国籍"] == (6, 0, 6, 4)  # shared, but one per person: the cells close it
    assert rows["主演"] == (6, 6, 15, 2)  # several per film, each film's own actors but 巩俐
    assert open_relation_set(rows.items(), 0.2, 0.3, 5) == {"功用价值"}
    # A cast shared more often would open it; too few entities and nothing is judged.
    assert "主演" in open_relation_set(rows.items(), 0.2, 2 / 15, 5)
    assert open_relation_set(rows.items(), 0.2, 0.3, 7) == frozenset()


def test_a_value_is_counted_once_per_entity_and_a_credit_under_one_name():
    pair = {"entity": "晴天", "triples": [{"relation": "作词", "tail": "周杰伦"}, {"relation": "填词", "tail": "周杰伦"},
                                        {"relation": "作曲", "tail": "周杰伦"}]}
    counts = dict(query_counts(pair))
    assert counts[("heads", "作词")] == (1, 0) and counts[("value", "作词", "周杰伦")] == (1, 0)
    assert ("heads", "填词") not in counts and counts[("heads", "作曲")] == (1, 0)


# A plant's family and genus (real classifications), both given as 属于, as
# the plant pages do; 梧桐 once more with the family an older system gives it.
TAXA = {"银杏": ["银杏科", "银杏属"], "侧柏": ["柏科", "侧柏属"], "柏木": ["柏科", "柏木属"],
        "毛白杨": ["杨柳科", "杨属"], "旱柳": ["杨柳科", "柳属"], "垂柳": ["杨柳科", "柳属"],
        "紫薇": ["千屈菜科", "紫薇属"], "梧桐": ["锦葵科", "梧桐科", "梧桐属"]}


def test_a_family_and_a_genus_are_not_several_values():
    """属于 names a plant's family and its genus, one of each: no wrong
    answer of a family question is right, so it is no open relation; two
    families of one plant (one system and another) are several."""
    pairs = [{"entity": e, "triples": [{"relation": "属于", "tail": t, "tail_type": "species"} for t in taxa]}
             for e, taxa in TAXA.items()]
    rows = dict(_rows(pairs))
    assert rows["属于"] == (8, 1, 17, 7)  # 柏科 ×2, 杨柳科 ×3, 柳属 ×2 shared; 梧桐 alone holds several of one kind
    assert open_relation_set(rows.items(), 0.2, 0.3, 5) == frozenset()
    # before ranks were told apart, every plant held "several values"
    untyped = [{**p, "triples": [{**t, "tail_type": "other"} for t in p["triples"]]} for p in pairs]
    assert dict(_rows(untyped))["属于"] == (8, 8, 17, 7)
    assert open_relation_set(_rows(untyped), 0.2, 0.3, 5) == {"属于"}


def test_a_taxon_is_offered_among_taxa_of_its_rank():
    from transforms.items.kinds import compatible, option_kind, option_type

    def kind(name):
        return option_kind(option_type(name, "species"), "属于", "species", None, name)

    assert (kind("柏科"), kind("侧柏属"), kind("侧柏")) == ("taxon:family", "taxon:genus", "species")
    assert compatible(kind("杨柳科"), kind("柏科")) and not compatible(kind("柳属"), kind("柏科"))


def test_an_open_relation_is_not_asked_and_the_skip_is_counted(tmp_path):
    """银杏's uses are not asked (another plant's 蜜源 may be one of them); its
    kind, one per plant, is."""
    kinds = ["乔木", "灌木", "藤本", "草本", "竹类", "蕨类", "地被植物", "攀援植物", "多肉植物", "水生植物"]
    uses = ["观赏", "药用", "蜜源", "绿篱", "盆景", "用材林", "行道树", "饲料", "染料", "造林", "固沙"]
    pools = {("rel", "植物分类", freq_bin(1)): [(k, "other") for k in kinds],
             ("rel", "功用价值", freq_bin(1)): [(u, "other") for u in uses]}
    path = embed_all(sorted({"银杏", *kinds, *uses}), "use-m3", str(tmp_path / "cache"), str(tmp_path / "vectors.arrow"))
    index, matrix = read_vectors(path)
    scorer = _Scorer(index, matrix, pools, 0.0)
    records = [("out", ("p_yx", "银杏", None, "species", rel, tail, "other", "NE", "eval", True))
               for rel, tail in (("植物分类", "乔木"), ("功用价值", "行道树"), ("功用价值", "药用"))]

    def ask(open_relations, **cfg):
        counts: dict[str, int] = {}
        items = group_items("银杏", records, {}, scorer, ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",), **cfg),
                            lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n), None, open_relations)
        return sorted((i["relation"], i["tail"]) for i in items), counts

    asked, counts = ask(frozenset({"功用价值"}))
    assert asked == [("植物分类", "乔木")] and counts["skipped|open_relation"] == 2
    assert counts["open_relation|功用价值"] == 2  # stats.json → items.open_relations names them
    asked, counts = ask(frozenset())
    assert asked == [("功用价值", "药用"), ("功用价值", "行道树"), ("植物分类", "乔木")]
    assert "skipped|open_relation" not in counts
    with pytest.raises(ValueError, match="open_min_several"):
        ItemsConfig(open_min_several=1.5)
