"""Relation normalisation and frequency selection (transforms/relations.py)."""
from __future__ import annotations

import json

import pytest

from transforms.relations import (
    RelationFrequencyConfig,
    apply_relation_filter,
    default_synonyms,
    load_synonyms,
    normalise_relation,
    pair_relations,
    relation_vocabulary,
    select_relations,
    top_relations,
    triples_bin,
)

COUNTS = {"出生日期": 50, "国籍": 40, "职业": 40, "代表作品": 30, "星座": 3, "血型": 2, "球衣号码": 1}


def test_normalise_relation_surface_and_synonyms():
    assert normalise_relation("出生日期：") == "出生日期"
    assert normalise_relation("身　高(cm)") == "身高"
    assert normalise_relation("出生时间") == "出生日期"  # default synonym map
    assert normalise_relation("国家") == "国籍"
    assert normalise_relation("出生时间", {}) == "出生时间"  # map switched off
    assert normalise_relation(" Birth Date ", {}) == "birthdate"
    assert normalise_relation("生日", {"生日": "出生日期"}) == "出生日期"
    assert all(not k.startswith("_") for k in default_synonyms())


def test_load_synonyms_errors(tmp_path):
    p = tmp_path / "syn.json"
    p.write_text(json.dumps({"诞辰": "出生日期"}), encoding="utf-8")
    assert load_synonyms(str(p)) == {"诞辰": "出生日期"}
    p.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ValueError, match="JSON object of strings"):
        load_synonyms(str(p))
    with pytest.raises(ValueError, match="cannot read relation synonyms"):
        load_synonyms(str(tmp_path / "missing.json"))


def test_select_by_min_count_top_k_and_both():
    assert select_relations(COUNTS, RelationFrequencyConfig(min_count=30)) == {"出生日期", "国籍", "职业", "代表作品"}
    # Ties broken by name, so top-k never depends on input order.
    assert select_relations(COUNTS, RelationFrequencyConfig(min_count=None, top_k=2)) == {"出生日期", "国籍"}
    both = RelationFrequencyConfig(min_count=3, top_k=5, mode="and")
    assert select_relations(COUNTS, both) == {"出生日期", "国籍", "职业", "代表作品", "星座"}
    assert select_relations(COUNTS, RelationFrequencyConfig(min_count=35, top_k=4, mode="and")) == {"出生日期", "国籍", "职业"}
    assert select_relations(COUNTS, RelationFrequencyConfig(min_count=35, top_k=4, mode="or")) == {"出生日期", "国籍", "职业", "代表作品"}
    assert select_relations(COUNTS, RelationFrequencyConfig(min_count=None, top_k=None)) == set(COUNTS)
    with pytest.raises(ValueError):
        RelationFrequencyConfig(mode="xor")
    with pytest.raises(ValueError):
        RelationFrequencyConfig(min_count=0)


def test_top_relations_vocabulary_and_bins():
    assert top_relations(COUNTS, 3) == [("出生日期", 50), ("国籍", 40), ("职业", 40)]
    vocab = relation_vocabulary({"出生日期：": 5, "星座": 1}, min_count=2)
    assert vocab == {"出生日期：", "出生日期"}
    assert [triples_bin(n) for n in (0, 1, 2, 3, 4, 17)] == ["1-1", "1-1", "1-2", "1-3", "1-3+", "1-3+"]


def test_apply_relation_filter():
    pair = {"pair_id": "p", "triples": [
        {"relation": "出生时间", "tail": "1980年"}, {"relation": "血型", "tail": "A型"}], "num_triples": 2}
    assert pair_relations(pair) == ["出生日期", "血型"]
    out, dropped = apply_relation_filter(pair, frozenset({"出生日期"}))
    assert out["triples"] == [{"relation": "出生日期", "tail": "1980年"}] and out["num_triples"] == 1
    [(t, reason, detail)] = dropped
    assert (t["relation"], reason) == ("血型", "rare_relation") and json.loads(detail)["normalised"] == "血型"
    out, dropped = apply_relation_filter(pair, frozenset({"国籍"}))
    assert out is None and [r for _, r, _ in dropped] == ["rare_relation", "rare_relation"]
