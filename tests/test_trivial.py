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


def test_foreign_names_and_pinyin():
    assert trivial_reason("上海大学", "外文名", "Shanghai University") == "foreign_name"
    assert trivial_reason("李白", "拼音", "Lǐ Bái") == "foreign_name"


def test_real_facts_are_not_trivial():
    assert trivial_reason("上海大学", "校长", "钱伟长") is None
    assert trivial_reason("李白", "出生地", "碎叶城") is None
    # a tail inside the head's name gives itself away, whatever the relation
    assert trivial_reason("上海大学", "所属地区", "上海") == "name"
