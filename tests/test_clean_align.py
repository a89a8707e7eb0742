"""Alignment levels (transforms/align.py, transforms/text.py): one test per
level, each checking the span points into the ORIGINAL text and the level
that found it. All sentences are our own."""
from __future__ import annotations

import pytest

from transforms.align import (
    AlignConfig,
    Alignment,
    align_value,
    find_dates,
    parse_date,
    parse_quantity,
    value_variants,
)
from transforms.text import boundary_ok, normalise, normalise_with_map

NO_FUZZ = AlignConfig(fuzzy=False)


def span(text: str, a: Alignment | None) -> str | None:
    return None if a is None else text[a.start:a.end]


# ------------------------------------------------------------------ normalisation

def test_normalised_offsets_point_into_original_text():
    text = "演员：ＲＹＡＮ　Ｇｏｓｌｉｎｇ，生于加拿大。"
    nt = normalise_with_map(text)
    assert nt.text == "演员ryangosling生于加拿大"
    i = nt.text.index("ryangosling")
    s, e = nt.span(i, i + len("ryangosling"))
    assert text[s:e] == "ＲＹＡＮ　Ｇｏｓｌｉｎｇ"


def test_ideographs_come_only_from_themselves_outside_the_source_blocks():
    # absent_ideographs trusts that a text without these blocks holds an
    # ideograph after normalisation only where it holds it before.
    from transforms.text import _IDEOGRAPH_SOURCES, _compute_char

    def ideograph(c: str) -> bool:
        return "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf"

    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        if any(ideograph(c) and c != ch for c in _compute_char(ch)):
            assert _IDEOGRAPH_SOURCES.match(ch), hex(code)


def test_absent_ideographs_judged_on_the_raw_text():
    from transforms.text import absent_ideographs

    assert absent_ideographs("北京大学", "他生于北京。") == 2
    assert absent_ideographs("北京", "他生于北京。") == 0
    assert absent_ideographs("人民", "⼈们") == 0  # ⼈ (a radical) normalises to 人: not judged
    assert "人" in normalise("⼈们")


def test_dot_survives_only_between_digits():
    assert normalise("身高1.75米。") == "身高1.75米"
    assert normalise("Mr. Bean") == "mrbean"


# ---------------------------------------------------------------------- exact

@pytest.mark.parametrize(
    "value,text,expected",
    [
        ("瑞恩·高斯林", "主演为瑞恩 高斯林和艾玛·斯通。", "瑞恩 高斯林"),  # punctuation vs space
        ("ＢｌａｃｋＢｅｒｒｙ OS", "该机运行blackberry os 7系统。", "blackberry os"),  # width + case
        ("《无间道》", "他凭借无间道获奖。", "无间道"),  # title marks
        ("A-ha", "挪威乐队A ha成立于1982年。", "A ha"),
    ],
)
def test_exact_after_normalisation(value, text, expected):
    a = align_value(value, text, cfg=NO_FUZZ)
    assert a is not None and a.match == "exact"
    assert span(text, a) == expected


def test_exact_respects_latin_and_digit_boundaries():
    # '6亿' is not stated by '7.61亿', 'OS' not by 'iOS', '12' not by '2012'.
    assert align_value("6亿", "首周票房达7.61亿元。", cfg=NO_FUZZ) is None
    assert align_value("06亿人民币", "注册资金8.06亿人民币", cfg=NO_FUZZ) is None  # also after normalisation
    assert align_value("33亿", "票房5.33亿", cfg=NO_FUZZ) is None
    assert align_value("439平方公里", "面积21,439平方公里", cfg=NO_FUZZ) is None  # thousands separator
    assert align_value("OS", "该机运行iOS系统。", cfg=NO_FUZZ) is None
    assert align_value("12", "该片2012年上映。", cfg=NO_FUZZ) is None
    # A letters/digits change of class is a new token: IEC in IEC60745.
    assert span("标准IEC60745规定", align_value("IEC", "标准IEC60745规定", cfg=NO_FUZZ)) == "IEC"
    assert boundary_ok("a 12 b", 2, 4, "12")
    # Punctuation or space dropped by normalisation still counts as a boundary.
    text = "由Bonnie Turner、Terry Turner执导"
    assert span(text, align_value("Ｂｏｎｎｉｅ Ｔｕｒｎｅｒ", text, cfg=NO_FUZZ)) == "Bonnie Turner"


# ---------------------------------------------------------------------- dates

@pytest.mark.parametrize(
    "value,text,expected",
    [
        ("1994年5月27日", "她于1994-05-27出生于上海。", "1994-05-27"),
        ("1994-05-27", "她于1994年5月27日出生于上海。", "1994年5月27日"),
        ("1994.5.27", "她生于1994/05/27。", "1994/05/27"),
        ("1994-05-27", "她生于一九九四年五月二十七日。", "一九九四年五月二十七日"),
        ("1994年", "她于1994-05-27出生。", "1994-05-27"),  # a more precise text supports a year
        ("1994年", "她于1994年5月27日出生。", "1994年"),  # exact wins before dates are parsed
        ("1994", "她生于一九九四年。", "一九九四年"),
    ],
)
def test_dates_in_other_surface_forms(value, text, expected):
    a = align_value(value, text, cfg=NO_FUZZ)
    assert a is not None and a.match in ("date", "exact")
    assert span(text, a) == expected


def test_date_prefers_the_full_date_and_partial_is_opt_in():
    text = "该片2004年开拍，于2004年6月25日上映。"
    a = align_value("2004-06-25", text, cfg=NO_FUZZ)
    assert span(text, a) == "2004年6月25日"
    # A text stating only the year does not state the day ...
    assert align_value("1994年5月27日", "她出生于1994年。", cfg=NO_FUZZ) is None
    # ... unless partial dates are switched on.
    a = align_value("1994年5月27日", "她出生于1994年。", cfg=AlignConfig(fuzzy=False, date_allow_partial=True))
    assert a is not None and a.match == "date"


def test_date_parsing_rejects_impossible_dates():
    assert parse_date("1994年13月2日") is None
    assert parse_date("1994年5月27日") == (1994, 5, 27)
    assert parse_date("周杰伦") is None
    assert [d for _, _, d in find_dates("1990年到2001-3-4")] == [(1990, None, None), (2001, 3, 4)]


# -------------------------------------------------------------- numbers and units

@pytest.mark.parametrize(
    "value,text,expected,relation",
    [
        ("12", "专辑共收录了12首歌曲。", "12", None),  # exact, bare count
        ("12首", "专辑共收录了十二首歌曲。", "十二首", None),  # Chinese numeral
        ("10", "专辑共收录十首歌曲。", "十首", "曲目数量"),  # one-character numeral, counting relation
        ("175cm", "他身高1.75米。", "1.75米", None),  # unit conversion
        ("1.75米", "他身高175厘米。", "175厘米", None),
        ("2900万美元", "影片成本为29,000,000美元。", "29,000,000美元", None),
        ("约300人", "公司有300名员工。", "300名", None),
        ("3.5亿元", "累计票房3.5 亿元。", "3.5 亿元", None),
        ("5000平方米", "占地0.5公顷。", "0.5公顷", None),
    ],
)
def test_numbers_in_other_surface_forms_and_units(value, text, expected, relation):
    a = align_value(value, text, cfg=NO_FUZZ, relation=relation)
    assert a is not None, value
    assert span(text, a) == expected
    assert a.match in ("number", "exact")


def test_numbers_of_another_dimension_or_value_never_match():
    assert align_value("5首", "专辑于5月发行。", cfg=NO_FUZZ) is None  # month is not a count
    assert align_value("12首", "专辑收录12张照片。", cfg=NO_FUZZ) is None  # another counting unit
    assert align_value("2", "他有过两次婚姻。", cfg=NO_FUZZ, relation="孩子") is None  # 两 in a word
    assert align_value("10", "专辑共收录十首歌曲。", cfg=NO_FUZZ) is None  # no counting relation
    assert align_value("1.8米", "他身高175厘米。", cfg=NO_FUZZ) is None
    assert parse_quantity("2900万美元")[1] == "usd"
    assert parse_quantity("周杰伦") is None


# --------------------------------------------------------------------- aliases

def test_alias_from_value_links_and_brackets():
    text = "他与华仔合作拍摄了多部电影。"
    a = align_value("刘德华", text, aliases=["华仔"], cfg=NO_FUZZ)
    assert a == Alignment(2, 4, "alias")
    text = "Ryan Gosling出生于加拿大。"
    a = align_value("瑞恩·高斯林（Ryan Gosling）", text, cfg=NO_FUZZ)
    assert a is not None and a.match == "alias" and span(text, a) == "Ryan Gosling"
    assert value_variants("美国(俄裔)") == ["美国"]  # a Chinese bracket part is a qualifier
    assert align_value("1995年10月27日（美国）", "这部电影在美国首映。", cfg=NO_FUZZ) is None
    assert value_variants("上大（SHU）") == ["上大", "SHU"]
    # Aliases are only a fallback: a direct hit stays exact.
    assert align_value("刘德华", "刘德华主演。", aliases=["华仔"], cfg=NO_FUZZ).match == "exact"
    # One-character aliases are ignored (too ambiguous).
    assert align_value("刘德华", "华人演员。", aliases=["华"], cfg=NO_FUZZ) is None


# ---------------------------------------------------------------------- fuzzy

def test_fuzzy_fallback_tolerates_inserted_and_omitted_characters():
    text = "他生在美国纽约市曼哈顿区。"
    a = align_value("美国纽约曼哈顿", text)  # the text inserts 市
    assert a is not None and a.match == "fuzzy" and span(text, a) == "美国纽约市曼哈顿"
    text = "杰瑞德·莱托因《达拉斯买家俱乐部》拿下第86届奥斯卡最佳男配角，这是他的首座小金人。"
    a = align_value("第86届奥斯卡奖最佳男配角", text)  # the text omits 奖
    assert a is not None and a.match == "fuzzy" and span(text, a) == "第86届奥斯卡最佳男配角"
    # Off means off.
    assert align_value("美国纽约曼哈顿", "他生在美国纽约市曼哈顿区。", cfg=AlignConfig(fuzzy=False)) is None


def test_fuzzy_threshold_and_replaced_characters():
    text = "该片由导演尼克·卡萨维茨执导。"
    value = "尼克·卡索维茨"  # one transliteration character replaced (6 characters)
    # (The transliteration level reads 索/萨 as one sound; off here, to test the fuzzy level alone.)
    assert align_value(value, text, cfg=AlignConfig(transliterations=False)) is None  # replacements need a long value
    loose = AlignConfig(fuzzy_threshold=80, fuzzy_substitution_min_length=6, transliterations=False)
    a = align_value(value, text, cfg=loose)
    assert a is not None and a.match == "fuzzy" and span(text, a) == "尼克·卡萨维茨"
    # One edit in 6 characters is 16.7%: above the 15% a threshold of 85 allows.
    assert align_value(value, text, cfg=AlignConfig(fuzzy_threshold=85, fuzzy_substitution_min_length=6,
                                                    transliterations=False)) is None
    # Another studio, not a spelling variant.
    assert align_value("山东电影制片厂", "由山西电影制片厂出品。", cfg=AlignConfig(fuzzy_threshold=80)) is None


def test_fuzzy_never_runs_on_short_values_or_changes_numbers():
    cfg = AlignConfig(fuzzy_threshold=60, fuzzy_substitution_min_length=1)
    assert align_value("张智尧", "张智霖主演。", cfg=cfg) is None  # shorter than fuzzy_min_length
    # 10.7亿美元 and 10.5亿美元 are different facts however similar the strings.
    assert align_value("10.7亿美元", "全球票房10.5亿美元。", cfg=cfg) is None
    # A counted award is not one win, however close the rest is.
    text = "孙燕姿在2005年赢得台湾金曲奖最佳国语女演唱人，凭的是专辑《Stefanie》。"
    assert align_value("两届台湾金曲奖最佳国语女演唱人", text) is None
    assert align_value("台湾金曲奖最佳国语女演唱人", text.replace("奖最佳", "奖的最佳")).match == "fuzzy"


def test_empty_inputs():
    assert align_value("", "文本") is None
    assert align_value("值", "") is None
    assert align_value("   ", "文本") is None
