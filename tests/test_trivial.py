"""Trivial triples restate the head's own name (issue 8 §2, issue 10 §5)."""
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
    # a tail inside the head's name gives itself away, whatever the relation
    assert trivial_reason("上海大学", "所属地区", "上海") == "name"
