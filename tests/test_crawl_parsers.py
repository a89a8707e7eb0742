"""Parsers: real 2019 Baidu pages (older markup) and own fixtures (current Baidu, Sogou)."""
from __future__ import annotations

from pathlib import Path

import pytest

from crawlers.parsers import has_content, page_identity, parse_entry
from crawlers.parsers.common import clean_inline, clean_lines, clean_name, decode_html, entry_link
from tests.baike_reference import norm, reference_pairs, reference_summary, strip_punct

FIXTURES = Path(__file__).parent / "fixtures" / "pages"


def _pages(shared_data: Path) -> list[Path]:
    pages = sorted((shared_data / "baike-baidu-2019" / "pages").glob("*.html"))
    assert len(pages) == 18
    return pages


def _parse(path: Path, url: str = "http://127.0.0.1:8000/item/x") -> dict:
    entry = parse_entry(path.read_bytes(), url)
    assert entry is not None
    return entry


# --- text rules -------------------------------------------------------------


def test_text_rules_citations_spaces_and_names():
    assert clean_inline("上海大学[1]是一所 大学[2-4]。 ") == "上海大学是一所大学。"
    assert clean_inline("Shanghai  University\n of Science") == "Shanghai University of Science"
    assert clean_name("简\u00a0\u00a0\u00a0\u00a0称") == "简称"
    assert clean_name("国 籍") == "国籍"
    assert clean_lines("宝山校区\n  延长校区 [3]\n\n嘉定校区") == "宝山校区\n延长校区\n嘉定校区"


def test_entry_links_only_http_entry_pages():
    base = "http://127.0.0.1:9/item/a"
    assert entry_link("/item/%E5%BE%90%E5%BD%AC/17960756", base)["url"].endswith("/17960756")
    assert entry_link("javascript:;", base) is None
    assert entry_link("mailto:a@b.c", base) is None
    assert entry_link("ftp://127.0.0.1/item/x", base) is None
    assert entry_link("/wikitag/taglist?tagId=1", base) is None
    assert entry_link("/item/x#anchor", base)["url"] == "http://127.0.0.1:9/item/x"


def test_gbk_bytes_are_decoded():
    html = '<html><head><meta charset="gbk"></head><body><h1>黄浦江</h1></body></html>'.encode("gbk")
    assert "黄浦江" in decode_html(html)
    undeclared = "<html><body><h1>黄浦江</h1></body></html>".encode("gbk")
    assert "黄浦江" in decode_html(undeclared)  # falls back to GB18030


# --- older Baidu markup, real pages ------------------------------------------------


@pytest.mark.shared
def test_identity_of_real_pages(shared_data):
    ids = {page_identity(p.read_bytes())[1:] for p in _pages(shared_data)}
    assert ("上海大学", None, "319190") in ids
    # polysemous names: h2 subtitle without brackets, lemma id as in /item/<name>/<id>
    assert ("徐彬", "云南省政协副主席、民盟省委主委", "17960756") in ids
    assert ("曹渊", "革命烈士", "24657") in ids
    assert ("李振声", "中国科学院院士、国家最高科学技术奖获得者", "6094") in ids
    assert len({i[2] for i in ids}) == 18  # every page has its own lemma id


@pytest.mark.shared
def test_real_page_expanded_value_taken_once_without_toggles(shared_data):
    entry = _parse(shared_data / "baike-baidu-2019" / "pages" / "上海大学_百度百科.html")
    box = {i["name"]: i for i in entry["infobox"]}
    assert "简称" in box and "校训" in box  # &nbsp; removed from names
    attr = box["属性"]["value"].split("\n")
    assert attr[0] == "211工程" and attr[-1] == "全国地方高水平大学联盟"
    assert len(attr) == len(set(attr)) == 8  # the full expanded list, once
    assert all("展开" not in i["value"] and "收起" not in i["value"] for i in entry["infobox"])
    assert box["地址"]["value"].count("\n") == 2  # three campuses, three lines
    assert {"title": "省部共建大学"} .items() <= box["属性"]["value_links"][0].items()
    assert entry["tags"][:3] == ["中国高校", "公办高校", "211高校"]
    assert "[1]" not in entry["summary"] and "211工程" in entry["summary"]


@pytest.mark.shared
def test_real_pages_infobox_agrees_with_independent_extraction(shared_data):
    """>= 98% of reference pairs equal after whitespace normalisation (see baike_reference)."""
    root = shared_data / "baike-baidu-2019"
    total = agree = 0
    disagreements = []
    for page in _pages(shared_data):
        entry = _parse(page)
        ref, _ = reference_pairs(root / "extracted" / "info-table" / f"{entry['title']}.txt")
        ours = {i["name"]: norm(i["value"]) for i in entry["infobox"]}
        assert set(ours) == set(ref), entry["title"]  # no attribute invented or lost
        for name, value in ref.items():
            total += 1
            if ours.get(name) == value:
                agree += 1
            else:
                disagreements.append((entry["title"], name, value, ours.get(name)))
    assert total >= 140
    assert agree / total >= 0.98, disagreements


@pytest.mark.shared
def test_real_pages_summaries_agree_with_summary_paragraphs(shared_data):
    """Our summary is the start of info-para. The reference drops punctuation that follows a
    link (`伍朝枢</a>、<a>` -> `伍朝枢瞿秋白`), so exact agreement is required on most pages and
    punctuation-insensitive agreement on all of them."""
    root = shared_data / "baike-baidu-2019"
    exact = 0
    empty = []
    for page in _pages(shared_data):
        entry = _parse(page)
        ref = reference_summary(root / "extracted" / "info-para" / f"{entry['title']}.txt")
        ours = norm(entry["summary"])
        if not ours:
            empty.append(entry["title"])
            continue
        assert strip_punct(ref).startswith(strip_punct(ours)), entry["title"]
        exact += ref.startswith(ours)
    # the one page whose summary block is empty on the site ("本词条缺少概述")
    assert empty == ["省部共建高品质特殊钢冶金与制备国家重点实验室"]
    assert exact >= 12


@pytest.mark.shared
def test_real_page_links_are_content_links_only(shared_data):
    entry = _parse(shared_data / "baike-baidu-2019" / "pages" / "上海大学_百度百科.html")
    titles = [link["title"] for link in entry["links"]]
    assert "秒懂星课堂" not in titles  # site navigation is not part of the entry
    assert "211工程" in titles and "曹渊" in titles
    assert len({link["url"] for link in entry["links"]}) == len(entry["links"])


# --- current Baidu markup and Sogou, own fixtures ------------------------------------------


def test_current_markup_fixture():
    entry = _parse(FIXTURES / "baidu_current_fudan.html")
    assert (entry["source"], entry["title"], entry["subtitle"], entry["lemma_id"]) == ("baidu", "复旦大学", None, "900001")
    assert entry["summary"].split("\n") == [
        "复旦大学位于上海市，是一所综合性研究型大学，前身是创办于1905年的复旦公学。学校名称取自《尚书大传》中的“日月光华，旦复旦兮”。",
        "学校是双一流建设高校，校训为“博学而笃志，切问而近思”。",
    ]
    box = {i["name"]: i for i in entry["infobox"]}
    assert box["简称"]["value"] == "复旦"
    assert box["创办时间"]["value"] == "1905年"  # citation mark removed from the value
    assert box["校区"]["value"] == "邯郸校区\n枫林校区\n江湾校区\n张江校区"
    assert box["所在城市"]["value_links"][0]["url"].endswith("/900002")
    assert [link["title"] for link in entry["links"]] == ["上海市", "双一流", "马相伯"]  # body paragraphs too; no nav, no off-site
    assert entry["tags"] == ["中国高校", "综合类高校"]


def test_an_entry_is_recorded_under_its_lemma_id_url_whichever_link_reached_it(shared_data):
    """Crawl order decides whether `/item/<t>` or `/item/<t>/<id>` fetches a
    page first; the recorded URL (the pairs' source_url) must not depend on it."""
    for path, url in [(FIXTURES / "baidu_current_fudan.html", "http://127.0.0.1:8000/item/%E5%A4%8D%E6%97%A6%E5%A4%A7%E5%AD%A6"),
                      (_pages(shared_data)[0], "https://baike.baidu.com/item/x?fromModule=lemma_search-box#2")]:
        bare = _parse(path, url)
        lemma = bare["lemma_id"]
        assert lemma and bare["url"] == url.split("?")[0].split("#")[0] + f"/{lemma}"
        assert _parse(path, bare["url"])["url"] == bare["url"]
    sogou = "http://127.0.0.1:9/v800001.htm"
    assert _parse(FIXTURES / "sogou_huangpujiang.html", sogou)["url"] == sogou
    assert _parse(FIXTURES / "baidu_current_fudan.html", "http://127.0.0.1:8000/item/x/5")["url"].endswith("/item/x/5")


def test_current_markup_polysemous_subtitle():
    entry = _parse(FIXTURES / "baidu_current_libai.html")
    assert (entry["title"], entry["subtitle"], entry["lemma_id"]) == ("李白", "唐代诗人", "900010")
    assert {i["name"]: i["value"] for i in entry["infobox"]}["代表作品"] == "《静夜思》\n《将进酒》\n《蜀道难》"


def test_sogou_fixture():
    entry = _parse(FIXTURES / "sogou_huangpujiang.html", "http://127.0.0.1:9/v800001.htm")
    assert (entry["source"], entry["title"], entry["subtitle"], entry["lemma_id"]) == ("sogou", "黄浦江", "上海市河流", "800001")
    assert entry["summary"] == "黄浦江是流经上海市的主要河流，全长约113千米。\n它在吴淞口汇入长江，被称为上海的“母亲河”。"
    box = {i["name"]: i["value"] for i in entry["infobox"]}
    assert box == {
        "中文名称": "黄浦江", "外文名称": "Huangpu River", "长度": "约113千米",
        "流经地区": "上海市", "主要支流": "苏州河\n大治河", "河口": "吴淞口",
    }
    assert [link["title"] for link in entry["links"]] == ["上海市", "长江", "陆家嘴"]
    assert entry["tags"] == ["河流", "上海地理"]


# --- bad input ----------------------------------------------------------------------------


def test_truncated_page_still_parses_what_it_has():
    html = (FIXTURES / "baidu_current_libai.html").read_text(encoding="utf-8")
    cut = html[: html.index("代表作品")]
    entry = parse_entry(cut, "http://127.0.0.1:9/item/x")
    assert entry["title"] == "李白" and entry["summary"]
    assert [i["name"] for i in entry["infobox"]] == ["本名", "字", "所处时代"]  # the cut row is dropped


@pytest.mark.parametrize(
    "html",
    ["", "   ", "<html><body><p>nothing here</p></body></html>", "<<<>>>\x00garbage", b"\xff\xfe\x00\x00"],
)
def test_pages_without_usable_content_are_not_entries(html):
    entry = parse_entry(html, "http://127.0.0.1:9/item/x")
    assert not has_content(entry)


def test_title_without_summary_or_infobox_is_not_content():
    html = '<html><body><h1 class="lemmaTitle_x J-lemma-title">空词条</h1><div class="J-summary"></div></body></html>'
    entry = parse_entry(html, "http://127.0.0.1:9/item/x")
    assert entry["title"] == "空词条" and not has_content(entry)
