"""Issue 10, session 12: the rules found on round 19 (LandscapeKnowledge plant
texts, the first pages of that domain), after its one measurement. Each test
sentence is our own (facts about common plants); each assertion names the
reason the aligner gives or the value the cell becomes."""
from __future__ import annotations

import pytest

from tests.test_align_roles import _dropped, _entry, _kept
from transforms.cells import PairConfig, split_values
from transforms.modifiers import modified_mention
from transforms.redundancy import CleaningConfig


def test_a_habit_or_a_use_is_one_description_not_a_list():
    cfg = PairConfig()
    assert split_values("喜湿润、疏松、透气的微酸性沙土", "生长习性", cfg) == ["喜湿润、疏松、透气的微酸性沙土"]
    assert split_values("叶、种子、根皮皆可药用", "功用价值", cfg) == ["叶、种子、根皮皆可药用"]
    # a list of places or colours is still a list
    assert split_values("河北、山西、山东", "地理分布", cfg) == ["河北", "山西", "山东"]
    text = "银杏喜湿润、疏松、透气的微酸性沙土，叶、种子、根皮皆可药用。"
    kept = _kept(_entry("银杏", text, [("生长习性", "喜湿润、疏松、透气的微酸性沙土"), ("功用价值", "叶、种子、根皮皆可药用")]))
    assert set(kept) == {("生长习性", "喜湿润、疏松、透气的微酸性沙土"), ("功用价值", "叶、种子、根皮皆可药用")}


def test_a_plants_colours_or_shapes_are_one_description():
    # the range of one organ, as the labels read a cell (docs/alignment.md, Plants):
    # split, each piece would be a value nobody labelled and the whole a miss
    cfg = PairConfig()
    assert split_values("红色、粉红色或白色", "颜色", cfg) == ["红色、粉红色或白色"]
    assert split_values("卵形、椭圆形，", "形状", cfg) == ["卵形、椭圆形"]  # not the separator left at its end
    text = "木槿的花有白色、粉红色或紫红色，蒴果卵圆形。"
    kept = _kept(_entry("木槿", text, [("颜色", "白色、粉红色或紫红色")]))
    assert set(kept) == {("颜色", "白色、粉红色或紫红色")}


def test_a_word_ending_in_deng_is_no_list_end():
    cfg = PairConfig()
    assert split_values("对二氧化硫抗性中等", "生长习性", cfg) == ["对二氧化硫抗性中等"]
    assert split_values("张艺谋、陈凯歌等", "导演", cfg) == ["张艺谋", "陈凯歌"]


@pytest.mark.parametrize("relation, value, text, modifier", [
    ("生长习性", "耐阴", "紫杉较耐阴，生长缓慢。", "较耐阴"),        # a milder degree
    ("生长习性", "耐寒", "榕树不耐寒，北方只能盆栽。", "不耐寒"),      # its negation
    ("颜色", "红色", "石榴的花多为橙红色。", "橙红色"),              # another shade
    ("形状", "球形", "悬铃木的果序近球形。", "近球形"),              # an approximation
    ("形状", "卵形", "玉兰的叶片宽卵形。", "宽卵形"),                # another outline
    ("生长习性", "耐寒", "沙棘非常耐寒。", "非常耐寒"),              # a stronger degree
    ("植物分类", "灌木", "百里香是矮小的亚灌木。", "亚灌木"),          # a sub-kind of plant
    ("地理分布", "湖北西部", "珙桐分布于湖北西部以南的山地。", "湖北西部以南"),  # a region beyond it
    ("生长习性", "耐阴", "红松幼苗耐阴，成树喜光。", "幼苗耐阴"),      # of the young plant only
    ("形状", "球形", "葡萄的浆果椭球形。", "椭球形"),                # an ellipsoid is no sphere
    ("植物分类", "乔木", "蒲葵高大，乔木状。", "乔木状"),              # shaped like a tree
    ("植物分类", "灌木", "野蔷薇常生于山坡的灌木丛中。", "灌木丛"),    # where it grows, not what it is
    ("植物分类", "乔木", "细辛多长在阴湿的乔木林下。", "乔木林"),
    ("生长习性", "耐旱", "紫穗槐有一定的耐旱性。", "一定的耐旱"),      # a hedge: some drought tolerance
    ("生长习性", "耐盐碱", "柽柳具有一定的耐寒性、耐旱性和耐盐碱性。",  # the hedge holds for every item
     "一定的耐寒性、耐旱性和耐盐碱"),
])
def test_a_modifier_makes_another_value(relation, value, text, modifier):
    s = text.find(value)
    assert modified_mention(value, text, s, s + len(value), relation) == modifier
    raw = _entry("某植物", text, [(relation, value)])
    assert f"in {modifier}" in _dropped(raw)[(relation, value)]
    cfg = CleaningConfig()
    cfg.align.modifiers = False
    assert (relation, value) in _kept(raw, cfg)


def test_the_plain_value_is_still_stated_and_its_own_mention_is_the_span():
    text = "凌霄的花冠橙红色，蒴果长如豆荚，果皮红色。"
    kept = _kept(_entry("凌霄", text, [("颜色", "红色")]))
    assert kept[("颜色", "红色")]["start"] == text.rindex("红色")
    # a small tree is a tree (a narrower kind states the broader)
    assert ("植物分类", "乔木") in _kept(_entry("鸡爪槭", "鸡爪槭是落叶小乔木。", [("植物分类", "乔木")]))
    # a direction beyond a sight says where the entity is by it
    kept = _kept(_entry("景山公园", "景山公园位于故宫以北。", [("周边景点", "故宫")]))
    assert ("周边景点", "故宫") in kept


def test_a_bare_bound_of_a_range_takes_the_unit_after_the_other():
    # `1-1.6厘米` is 1 cm to 1.6 cm: it states no 1米, while `1-2米` still states 1米.
    raw = _entry("青冈", "青冈的坚果长约1-1.6厘米。", [("胸径", "1米")])
    assert ("胸径", "1米") in _dropped(raw)
    assert ("株高", "1米") in _kept(_entry("青冈", "青冈幼树高1-2米。", [("株高", "1米")]))


def test_a_bare_number_before_a_range_dash_is_a_bound_in_the_other_units():
    # `花期6～9月` begins in June: its 6 states no height of 6米; `高6米` still does.
    raw = _entry("紫薇", "紫薇花期6～9月，果期9～12月。", [("高度", "6米")])
    assert ("高度", "6米") in _dropped(raw)
    assert ("高度", "6米") in _kept(_entry("紫薇", "紫薇高6米。", [("高度", "6米")]))


def test_a_name_of_praise_is_not_what_the_plant_stands_for():
    """`素有“花中君子”的美誉` names the orchid, `象征高洁` says what it stands
    for: only the second is a 文化寓意 (docs/alignment.md, "Plants")."""
    text = "兰花素有“花中君子”的美誉，象征高洁典雅。春兰又被誉为“国香”。"
    raw = _entry("兰花", text, [("文化寓意", "花中君子"), ("文化寓意", "高洁典雅"), ("文化寓意", "国香")])
    assert set(_kept(raw)) == {("文化寓意", "高洁典雅")}
    dropped = _dropped(raw)
    assert all("a name of praise, not a meaning" in dropped[("文化寓意", v)] for v in ("花中君子", "国香"))


def test_where_a_type_specimen_was_collected_is_not_where_the_plant_grows():
    text = "珙桐的模式标本采自四川宝兴，它分布于湖北、四川、贵州等地的山地林中。"
    raw = _entry("珙桐", text, [("地理分布", "四川宝兴"), ("地理分布", "湖北"), ("地理分布", "贵州")])
    assert set(_kept(raw)) == {("地理分布", "湖北"), ("地理分布", "贵州")}
    assert "where a type specimen was collected" in _dropped(raw)[("地理分布", "四川宝兴")]
