"""Seed aggregation: every format, normalisation, dedup, and malformed lines counted by reason."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from crawlers.seed_lines import (
    Malformed,
    Seed,
    clean_text,
    parse_kgclue_line,
    parse_list_line,
    parse_nlpcc_line,
    seed_from_head,
    split_trailing_group,
)
from crawlers.seeds import aggregate, detect_format, read_seed_file, read_source, write_seed_file
from pipeline.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "seeds"


def _balanced(stats) -> bool:
    return stats.lines == stats.seeds + stats.skipped + sum(stats.malformed.values())


# ----------------------------------------------------------------- normalisation


def test_clean_text_applies_nfkc_and_collapses_whitespace():
    assert clean_text("  ＣＣＴＶ　１ ") == "CCTV 1"
    assert clean_text("Shanghai \t  University") == "Shanghai University"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("龙井茶（绿茶品种）", ("龙井茶", "绿茶品种")),
        ("杜鹃（杜鹃科（鸟类））", ("杜鹃", "杜鹃科（鸟类）")),  # nested: balanced from the end
        ("完美（中国）有限公司", ("完美（中国）有限公司", None)),  # group in the middle is part of the name
        ("（仅有括号）", ("（仅有括号）", None)),  # nothing before the group
        ("半个括号）", ("半个括号）", None)),  # unbalanced
        ("星际穿越(Interstellar)", ("星际穿越(Interstellar)", None)),  # ASCII brackets are not Baike's
    ],
)
def test_split_trailing_group_only_takes_a_trailing_balanced_full_width_group(text, expected):
    assert split_trailing_group(text, "（", "）") == expected


def test_seed_from_head_normalises_title_and_subtitle():
    assert seed_from_head(" 长江（中国第一长河） ") == Seed("长江", "中国第一长河")
    # NFKC also folds the subtitle's inner brackets: compare subtitles normalised the same way
    assert seed_from_head("杜鹃（杜鹃科（鸟类））") == Seed("杜鹃", "杜鹃科(鸟类)")
    assert seed_from_head("红楼梦[古典小说]", square_brackets=True) == Seed("红楼梦", "古典小说")
    assert seed_from_head("红楼梦[古典小说]") == Seed("红楼梦[古典小说]")


@pytest.mark.parametrize(
    "line, reason",
    [
        ("!!!", "no_word_characters"),
        ("a\tb\tc", "too_many_columns"),
        ("长" * 101, "title_too_long"),
        ("坏\x07字符", "bad_characters"),
        ("替换\ufffd字符", "bad_characters"),
        ("长江 ||| 长度 ||| 6300千米", "unsplit_triple"),
        ("\t有义项无标题", "empty_title"),
    ],
)
def test_garbage_titles_are_rejected_with_a_reason(line, reason):
    assert parse_list_line(line) == Malformed(reason)


@pytest.mark.parametrize(
    "line, expected",
    [
        ("https://baike.baidu.com/item/%E9%95%BF%E6%B1%9F/6401879", Seed("长江")),
        ("http://127.0.0.1:8000/item/%E9%95%BF%E6%B1%9F?fromModule=lemma_inlink", Seed("长江")),
        ("https://baike.baidu.com/item/%B3%A4%BD%AD", Seed("长江")),  # GBK-encoded old link
        ("https://baike.baidu.com/search/word?word=x", Malformed("not_an_entry_url")),
        ('{"id": 1, "answer": "长江 ||| 长度 ||| 6300千米"}', Malformed("looks_like_markup")),
        ("<h1>长江</h1>", Malformed("looks_like_markup")),
    ],
)
def test_list_lines_with_urls_and_markup(line, expected):
    assert parse_list_line(line) == expected


def test_seed_key_is_case_insensitive_and_line_round_trips():
    assert Seed("iPhone").key() == Seed("IPHONE").key()
    assert Seed("杜鹃", "鸟类").line() == "杜鹃\t鸟类"
    assert parse_list_line(Seed("杜鹃", "鸟类").line()) == Seed("杜鹃", "鸟类")


# ----------------------------------------------------------------- line parsers


@pytest.mark.parametrize(
    "line, expected",
    [
        ('{"answer": "银杏（银杏科植物） ||| 别名 ||| 白果"}', Seed("银杏", "银杏科植物")),
        ('{"answer": "黄河"}', Malformed("answer_not_a_triple")),
        ('{"question": "无答案"}', Malformed("missing_answer")),
        ('{"answer": 42}', Malformed("missing_answer")),
        ('{"answer": "a ||| b', Malformed("bad_json")),
        ("[1, 2]", Malformed("not_an_object")),
        ("", None),
    ],
)
def test_parse_kgclue_line(line, expected):
    assert parse_kgclue_line(line) == expected


@pytest.mark.parametrize(
    "line, expected",
    [
        ("<triple id=7>\t黄河 ||| 长度 ||| 5464千米", Seed("黄河")),
        ("<question id=7>\t黄河有多长？", None),
        ("<answer id=7>\t5464千米", None),
        ("=" * 50, None),
        ("<triple id=8>\t ||| 别名 ||| 无名", Malformed("empty_head")),
        ("<triple id=9>\t黄河 ||| 长度", Malformed("triple_not_three_fields")),
        ("随便一行文字", Malformed("unrecognised_line")),
    ],
)
def test_parse_nlpcc_line(line, expected):
    assert parse_nlpcc_line(line) == expected


# --------------------------------------------------------------- fixture files


@pytest.mark.parametrize(
    "name, fmt",
    [
        ("titles.txt", "list"),
        ("qa.json", "kgclue"),
        ("kbqa-sample.txt", "nlpcc"),
        ("ownthink.csv", "triples"),
        ("cndbpedia.tsv", "triples"),
        ("kb-dump.txt", "triples"),
    ],
)
def test_format_is_detected_per_file(name, fmt):
    assert detect_format(FIXTURES / name) == fmt


def test_plain_list_file():
    seeds, stats = read_source(FIXTURES / "titles.txt")
    assert seeds == [Seed("秦始皇"), Seed("李白"), Seed("李白"), Seed("CCTV"), Seed("杜鹃", "杜鹃花科杜鹃花属植物")]
    assert stats.skipped == 2  # comment + blank line
    assert dict(stats.malformed) == {"no_word_characters": 1, "too_many_columns": 1}
    assert _balanced(stats)


def test_kgclue_file_splits_disambiguation_and_counts_bad_lines_by_reason():
    seeds, stats = read_source(FIXTURES / "qa.json")
    assert seeds == [
        Seed("长江", "中国第一长河"),
        Seed("大熊猫"),
        Seed("星际穿越(Interstellar)"),
        Seed("华为(中国)投资有限公司"),
        Seed("杜鹃", "杜鹃科(鸟类)"),
    ]
    assert dict(stats.malformed) == {
        "answer_not_a_triple": 1,
        "bad_json": 1,
        "empty_head": 1,
        "missing_answer": 1,
        "not_an_object": 1,
    }
    assert stats.examples["bad_json"][0].startswith("line 5:")
    assert _balanced(stats)


def test_nlpcc_file_with_crlf_takes_only_triple_heads_unsplit():
    seeds, stats = read_source(FIXTURES / "kbqa-sample.txt")
    assert seeds == [Seed("长江"), Seed("清华大学学报(自然科学版)")]
    assert stats.skipped == 6
    assert dict(stats.malformed) == {"empty_head": 1, "triple_not_three_fields": 1, "unrecognised_line": 1}
    assert _balanced(stats)


def test_ownthink_csv_skips_header_and_splits_square_bracket_disambiguation():
    seeds, stats = read_source(FIXTURES / "ownthink.csv")
    assert seeds == [Seed("红楼梦", "中国古典长篇小说"), Seed("银杏"), Seed("京剧"), Seed("长江")]
    assert stats.skipped == 1
    assert dict(stats.malformed) == {"too_few_columns": 1}
    assert _balanced(stats)


def test_cndbpedia_tsv_and_kb_dump():
    seeds, stats = read_source(FIXTURES / "cndbpedia.tsv")
    assert seeds == [Seed("刘翔", "中国男子田径运动员"), Seed("华为技术有限公司")]
    assert dict(stats.malformed) == {"too_few_columns": 1}
    assert stats.skipped == 1
    seeds, stats = read_source(FIXTURES / "kb-dump.txt")
    assert [s.title for s in seeds] == ["长江", "黄河", "长江"]


def test_format_override(tmp_path):
    # a list of titles that happen to contain commas is not a CSV when forced
    src = tmp_path / "names.csv"
    src.write_text("你好,世界,再见\n", encoding="utf-8")
    assert read_source(src)[0] == [Seed("你好")]
    assert read_source(src, "list")[0] == [Seed("你好,世界,再见")]
    with pytest.raises(ValueError, match="unknown seed format"):
        read_source(src, "yaml")


def test_gbk_file_and_undecodable_lines(tmp_path):
    src = tmp_path / "gbk.txt"
    src.write_bytes("长江\n黄河\n".encode("gbk") + b"\xff\xff\xff\n")
    seeds, stats = read_source(src)
    assert stats.encoding == "gb18030"
    assert seeds == [Seed("长江"), Seed("黄河")]
    assert dict(stats.malformed) == {"undecodable_bytes": 1}
    assert _balanced(stats)


def test_gzip_and_truncated_gzip(tmp_path):
    src = tmp_path / "t.txt.gz"
    with gzip.open(src, "wt", encoding="utf-8") as fh:
        fh.write("长江\n黄河\n" * 2000)
    seeds, stats = read_source(src)
    assert len(seeds) == 4000 and not stats.malformed
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(src.read_bytes()[:-20])
    seeds, stats = read_source(cut)
    assert stats.malformed["truncated_file"] == 1  # counted, not raised


def test_aggregate_deduplicates_across_sources_in_order(tmp_path):
    result = aggregate([FIXTURES / "titles.txt", FIXTURES / "kbqa-sample.txt", FIXTURES / "kb-dump.txt"])
    titles = [s.line() for s in result.seeds]
    assert titles[:5] == ["秦始皇", "李白", "CCTV", "杜鹃\t杜鹃花科杜鹃花属植物", "长江"]
    assert titles.count("长江") == 1
    first, second, third = result.sources
    assert (first.new, first.duplicates) == (4, 1)
    assert (second.new, second.duplicates) == (2, 0)
    assert (third.new, third.duplicates) == (1, 2)  # 黄河 new; 长江 seen in kbqa-sample and twice here
    out = tmp_path / "seeds.txt"
    stats_path = write_seed_file(out, result)
    assert read_seed_file(out) == result.seeds
    stats = json.loads(stats_path.read_text(encoding="utf-8"))
    assert stats["seeds"] == len(result.seeds) and stats["with_subtitle"] == 1
    assert stats["sources"][1]["malformed"] == {"empty_head": 1, "triple_not_three_fields": 1, "unrecognised_line": 1}


# --------------------------------------------------------------------------- CLI


def test_cli_writes_seed_file_and_stats(tmp_path, capsys):
    out = tmp_path / "out" / "seeds.txt"
    assert main(["seeds", "--out", str(out), str(FIXTURES / "qa.json"), str(FIXTURES / "ownthink.csv")]) == 0
    printed = capsys.readouterr().out
    assert "qa.json [kgclue, utf-8]: 10 lines, 5 seeds (5 new, 0 duplicates)" in printed
    assert "bad_json=1" in printed
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "长江\t中国第一长河"
    assert "红楼梦\t中国古典长篇小说" in lines
    assert (tmp_path / "out" / "seeds.txt.stats.json").is_file()


def test_cli_errors_are_clear(tmp_path, capsys):
    assert main(["seeds", "--out", str(tmp_path / "s.txt"), str(tmp_path / "missing.txt")]) == 2
    assert "is not a file" in capsys.readouterr().err
    junk = tmp_path / "junk.txt"
    junk.write_text("!!!\n???\n", encoding="utf-8")
    assert main(["seeds", "--out", str(tmp_path / "s.txt"), str(junk)]) == 2
    assert "no seed found" in capsys.readouterr().err
    assert not (tmp_path / "s.txt").exists()


# --------------------------------------------------------------------- real data


@pytest.mark.shared
def test_real_kgclue_and_nlpcc(shared_data):
    kg = shared_data / "kgclue"
    nl = shared_data / "nlpcc2016-kbqa"
    result = aggregate([kg / "train.json", kg / "dev.json", nl / "nlpcc-iccpol-2016.kbqa.training-data"])
    train, dev, nlpcc = result.sources
    assert (train.format, dev.format, nlpcc.format) == ("kgclue", "kgclue", "nlpcc")
    assert (train.lines, train.seeds, sum(train.malformed.values())) == (18000, 18000, 0)
    assert dev.seeds == 2000
    # 14,609 QA groups of question/triple/answer/separator lines; one triple has an empty head
    assert nlpcc.seeds + sum(nlpcc.malformed.values()) == 14609
    assert dict(nlpcc.malformed) == {"empty_head": 1}
    assert all(_balanced(s) for s in result.sources)
    with_subtitle = sum(1 for s in result.seeds if s.subtitle)
    assert 5000 < with_subtitle < 6000  # about a quarter of KgCLUE heads carry a disambiguation
    assert 25000 < len(result.seeds) < 40000
    assert nlpcc.duplicates > 1000  # NLPCC asks several questions about the same head
    assert Seed("端午节", "中国四大传统节日之一") in result.seeds
    assert all(s.title == s.title.strip() and "（" not in (s.subtitle or "") for s in result.seeds)
