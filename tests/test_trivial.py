"""Trivial triples restate the head's own name (issue 8 §2, issue 10 §5)."""
from transforms.items.t2kg import t2kg_cases, t2t_item
from transforms.items.templates import skip_head_reason, skip_tail_reason
from transforms.trivial import trivial_reason


def test_own_name_and_parts_are_trivial():
    assert trivial_reason("上海大学", "中文名", "上海大学") == "name"
    assert trivial_reason("上海大学", "中文名", "上海 大学") == "name"  # spaces normalised away
    assert trivial_reason("(±)反式菊酸", "中文名", "反式菊酸") == "name"


def test_abbreviation_made_of_the_name():
    assert trivial_reason("上海大学", "简称", "上大") == "abbreviation"
    # an abbreviation with a character the name does not have is a real fact
    assert trivial_reason("中国科学院", "简称", "中科院") == "abbreviation"
    assert trivial_reason("北京大学", "简称", "北大") == "abbreviation"
    assert trivial_reason("清华大学", "简称", "水木") is None


def test_a_full_name_that_holds_the_name_is_trivial():
    # `深圳的中文名是什么？` is answered by the one option that holds 深圳
    assert trivial_reason("深圳", "中文名", "深圳市") == "full_name"
    assert trivial_reason("清华", "全称", "清华大学") == "full_name"
    # only for relations that name the head: a 下辖地区 holding the name is a fact
    assert trivial_reason("深圳", "下辖地区", "深圳湾") is None
    # another name that does not hold the whole name is a fact too
    assert trivial_reason("李白", "别名", "李太白") is None
    assert trivial_reason("深圳", "别名", "鹏城") is None


def test_foreign_names_and_pinyin():
    assert trivial_reason("上海大学", "外文名", "Shanghai University") == "foreign_name"
    assert trivial_reason("李白", "拼音", "Lǐ Bái") == "foreign_name"


def test_real_facts_are_not_trivial():
    assert trivial_reason("上海大学", "校长", "钱伟长") is None
    assert trivial_reason("李白", "出生地", "碎叶城") is None
    # the entity's own name is restated whatever the relation (the question holds its answer)
    assert trivial_reason("这般发生", "所属专辑", "这般发生") == "name"


def test_a_part_of_the_name_as_another_relation_s_value_is_a_fact_not_trivial():
    """Marked trivial before, these are facts a T2KG model is right to extract
    (the supervising body of 中国科学院大学 is 中国科学院, 顾颉刚 wrote 顾颉刚全集,
    新疆桃 grows in 新疆); a real build had 19 of 74 trivial triples of this kind."""
    assert trivial_reason("中国科学院大学", "主管部门", "中国科学院") is None
    assert trivial_reason("顾颉刚全集", "作者", "顾颉刚") is None
    assert trivial_reason("新疆桃", "地理分布", "新疆") is None
    assert trivial_reason("上海大学", "所属地区", "上海") is None
    # a name relation's value made of the name still restates it, a 号 too
    assert trivial_reason("八宝景天", "别名", "八宝") == "name"
    assert trivial_reason("曹雪芹", "号", "雪芹") == "name"
    assert trivial_reason("湘乡市第一中学", "又称", "湘乡一中") == "abbreviation"


def test_questions_still_leave_out_an_answer_the_name_shows():
    # not trivial, but `中国科学院大学的主管部门是什么？` shows its answer
    assert skip_tail_reason("中国科学院大学", "主管部门", "中国科学院") == "answer_in_name"
    assert skip_tail_reason("溲疏", "属于", "溲疏属") == "answer_holds_name"
    assert skip_tail_reason("中国科学院大学", "校长", "李树深") is None
    # a head question the same way: the one option holding 顾颉刚, the title track
    assert skip_head_reason("顾颉刚全集", "作者", "顾颉刚") == "answer_holds_name"
    assert skip_head_reason("这般发生", "所属专辑", "这般发生") == "trivial_name"
    assert skip_head_reason("红楼梦", "作者", "曹雪芹") is None


def test_t2kg_gold_keeps_a_fact_whose_value_is_part_of_the_name():
    text = "中国科学院大学是一所研究型大学，主管部门为中国科学院。"
    start = text.index("中国科学院。")
    pair = {"entity": "中国科学院大学", "text": text, "triples": [
        {"head": "中国科学院大学", "relation": "主管部门", "tail": "中国科学院", "start": start, "end": start + 5}]}
    cases, skipped = t2kg_cases(pair, frozenset({"主管部门"}))
    assert skipped == {}
    assert [c["gold_triples"] for c in cases] == [[{"head": "中国科学院大学", "relation": "主管部门", "tail": "中国科学院"}]]
    body, left_out = t2t_item(pair)
    assert body is not None and left_out == {}


def test_a_value_inside_the_entity_s_name_is_not_named_by_the_name():
    """(上海大学, 所属地区, 上海) is no longer trivial, so T2KG looks for 上海 in other
    sentences (`names_a_value_supported_elsewhere`): inside 上海大学 it is not named."""
    text = "上海大学创办于1922年。学校位于上海。"
    founded, place = text.index("1922年"), text.index("上海。")
    pair = {"entity": "上海大学", "text": text, "triples": [
        {"head": "上海大学", "relation": "创办时间", "tail": "1922年", "start": founded, "end": founded + 5},
        {"head": "上海大学", "relation": "所属地区", "tail": "上海", "start": place, "end": place + 2}]}
    cases, skipped = t2kg_cases(pair, frozenset({"创办时间", "所属地区"}))
    assert [c["text"] for c in cases] == ["上海大学创办于1922年。"] and skipped == {"head_not_named": 1}
    # named beside the name, it is named
    pair["text"] = "上海大学在上海创办于1922年。学校位于上海。"
    founded, place = pair["text"].index("1922年"), pair["text"].rindex("上海。")
    pair["triples"][0].update(start=founded, end=founded + 5)
    pair["triples"][1].update(start=place, end=place + 2)
    cases, skipped = t2kg_cases(pair, frozenset({"创办时间", "所属地区"}))
    assert cases == [] and skipped == {"names_a_value_supported_elsewhere": 1, "head_not_named": 1}
