"""Entity typing of bare KB heads (session 39): a KgCLUE or NLPCC head comes
with one or two triples and no text, so what little it has must be read: a
tail that says what the head is, the 多义词 value's subtitle, the shape of
the name. Snippets written by us; rules in docs/entity_types.md."""
from __future__ import annotations

import pytest

from transforms.entity_type import entity_type, type_pair


def _one(entity: str, relation: str = "", tail: str = ""):
    rels = [relation] if relation else []
    return entity_type(entity, [], rels, None, "", [(relation, tail)] if relation else [])


# ---------------------------------------------------------------- tail values
def test_a_playing_position_makes_a_person_whatever_the_relation():
    d = _one("阿木提", "专业特点", "前锋")
    assert (d.type, d.reason) == ("person", "tail:前锋")


def test_a_serial_state_makes_a_work():
    d = _one("星海归途", "状态", "连载中")
    assert (d.type, d.reason) == ("work", "tail:连载中")


def test_a_genre_under_type_makes_a_work_but_not_elsewhere():
    d = _one("梦里花开", "类型", "都市　喜剧")
    assert (d.type, d.reason) == ("work", "tail:genre")
    assert _one("梦里花开", "风格", "喜剧").reason == "no_signal"
    assert _one("某某片", "类型", "悬疑/惊悚/犯罪").reason == "tail:genre"
    assert _one("某某片", "类型", "爱情片").reason == "tail:genre"


@pytest.mark.parametrize("tail", ["动画制作公司", "恐怖袭击", "国际大都市", "世界纪录"])
def test_a_genre_word_inside_a_type_value_is_no_genre(tail):
    """Whole parts of the 类型 value are matched, not substrings."""
    assert _one("梦里花开", "类型", tail).reason == "no_signal"


def test_a_polysemy_value_gives_the_heads_own_subtitle():
    d = _one("秋日往事", "多义词", "秋日往事（美国1990年某某主演电影）")
    assert (d.type, d.reason) == ("work", "polysemy_head:电影")
    # another entry's subtitle says nothing about this head
    assert _one("秋日往事", "多义词", "冬日往事（2001年出版的小说）").reason == "no_signal"


def test_type_pair_hands_the_tails_to_the_typer():
    out = type_pair({"entity": "巴图其其", "triples": [{"relation": "场上角色", "tail": "后卫"}]})
    assert out["entity_type"] == "person"


# ---------------------------------------------------------------- relations
@pytest.mark.parametrize("entity,relation,expected", [
    ("某某", "兴趣", "person"),
    ("某某", "其他亲属", "person"),
    ("某某", "门派", "person"),
    ("某某", "家族", "person"),
    ("伴月星", "小行星分类", "place"),
    ("格林堡", "县", "place"),
    ("今夜星光", "制作单位", "work"),
    ("四国大战", "游戏人数", "work"),
    ("缠枝执壶", "底径", "work"),
])
def test_relations_that_say_what_the_head_is(entity, relation, expected):
    d = _one(entity, relation, "x")
    assert d.type == expected and d.reason.startswith("relations:") and relation in d.reason


def test_a_founding_date_alone_does_not_make_an_organisation():
    """创立时间 and 成立者 are given to martial arts and products as often as to
    firms on the tuning rows (2 of 2), so 创立/成立 as name parts were left out."""
    assert _one("某某拳", "创立时间", "1967年").type != "organisation"
    assert _one("某某阅读", "成立者", "某某集团").type != "organisation"


# ---------------------------------------------------------------- names
def test_a_dotted_title_of_chinese_words_is_a_work_not_a_transliterated_name():
    d = _one("水调歌头·明月")
    assert (d.type, d.reason) == ("work", "name:dotted_title")
    d = _one("安娜·卡列尼娜")
    assert (d.type, d.reason) == ("person", "name:transliterated")
    d = _one("大卫·芬奇")
    assert (d.type, d.reason) == ("person", "name:transliterated")
    for title in ("贺新郎·别友", "周易略例·明彖", "天净沙·秋思"):  # a 词牌/曲牌, or a text's name, first
        assert (_one(title).type, _one(title).reason) == ("work", "name:dotted_title")


@pytest.mark.parametrize("name", ["拿破仑·波拿巴", "教皇约翰·保罗一世", "约翰·列侬", "吐尔逊·买买提"])
def test_a_dotted_name_is_no_work_unless_its_first_part_names_a_tune_or_a_text(name):
    d = _one(name)
    assert (d.type, d.reason) == ("person", "name:transliterated")


def test_a_dotted_name_of_few_transliteration_characters_gets_no_work_vote():
    assert _one("爱新觉罗·玄烨").reason != "name:dotted_title"


def test_a_japanese_name_is_weakly_a_person():
    d = _one("田中一树")
    assert (d.type, d.reason) == ("person", "name:japanese")
    assert _one("中山公园").type == "place"  # any other signal comes first
    assert _one("小林").reason != "name:japanese"  # no given name


@pytest.mark.parametrize("name,ending", [("中山杉", "杉"), ("千叶兰", "兰"), ("黑木耳", "木耳")])
def test_a_species_ending_covering_the_given_name_is_no_japanese_name(name, ending):
    d = _one(name)
    assert (d.type, d.reason) == ("species", "species_name:" + ending)


def test_a_department_of_a_university_is_an_organisation():
    d = _one("东海职业技术学院机电系", "学制", "三年")
    assert (d.type, d.reason) == ("organisation", "name:department")
    d = _one("某某大学国际软件技术研究所")
    assert d.type == "organisation" and "name:department" in d.reason


@pytest.mark.parametrize("name", ["大学生人际关系", "大学英语课程体系", "学院派系"])
def test_a_relation_or_system_after_a_university_is_no_department(name):
    assert "name:department" not in _one(name).reason


def test_a_catalogued_vessel_is_a_work():
    d = _one("宋龙泉窑青釉莲瓣纹碗")
    assert (d.type, d.reason) == ("work", "name:artefact")
    assert _one("景德镇窑址").type != "work"


def test_a_latin_binomial_is_a_species():
    d = _one("Ginkgo biloba")
    assert (d.type, d.reason) == ("species", "name:latin_binomial")
    assert _one("Norwegian Wood").type != "species"
    for name in ("Homo sapiens", "Metasequoia glyptostroboides", "Rosa chinensis var. spontanea", "Pinus thunbergii",
                 "Zingiber officinale", "Hordeum vulgare", "Sorghum bicolor", "Drosophila melanogaster"):
        assert (_one(name).type, _one(name).reason) == ("species", "name:latin_binomial")


@pytest.mark.parametrize("title", ["See you again", "Love yourself", "Miss you", "Hello world"])
def test_a_sentence_case_english_title_is_no_binomial(title):
    assert _one(title).reason == "no_signal"


def test_an_english_firm_name_is_an_organisation():
    d = _one("Blue Note Records")
    assert (d.type, d.reason) == ("organisation", "name:english_firm")
    for name in ("Reprise Records", "Sony Music Entertainment", "Walt Disney Pictures"):
        assert (_one(name).type, _one(name).reason) == ("organisation", "name:english_firm")


@pytest.mark.parametrize("title", ["Moving Pictures", "That's Entertainment", "Living Pictures Group"])
def test_a_plain_phrase_before_a_word_suffix_is_no_firm(title):
    """Pictures, Entertainment, Studios, Group, Company are words too: they need two name words
    before them, none a participle or a contraction."""
    assert _one(title).reason == "no_signal"


def test_a_leaf_shape_prefix_makes_a_plant():
    d = _one("卵叶山茱萸")
    assert (d.type, d.reason) == ("species", "name:leaf_prefix")


def test_a_chemical_ending_is_other_before_a_surname():
    d = _one("石炭酸")
    assert (d.type, d.reason) == ("other", "suffix:酸")
    d = _one("骨架镍", "又译", "某镍")
    assert (d.type, d.reason) == ("other", "suffix:镍")
