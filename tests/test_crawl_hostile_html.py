"""Hostile HTML, property-based: every page body is parsed or refused with a reason, never a traceback.

`crawlers.parsers.read_page` is the whole decision the spider makes about a
body, so hypothesis throws at it: random bytes, real entry pages (our sample
site) truncated, spliced, byte-flipped and mislabelled in charset, pages
nested deeper than libxml2's limits, pages that are not Baike at all, the
verification page. An entry that comes out must fit the RawEntry schema.
The site server's indexer (`page_identity`) and the anti-bot test see the
same inputs.
"""
from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crawlers.middlewares.antibot import block_reason
from crawlers.parsers import page_identity, read_page
from crawlers.site import SiteIndex, sample_site_dir
from schemas.raw_entry import RAW_ENTRY_SCHEMA

SAMPLE_PAGES = sorted(sample_site_dir().glob("*.html"))
PAGES = {p.name: p.read_bytes() for p in SAMPLE_PAGES}
URL = "http://127.0.0.1:9/item/x"
REASONS = {"html_too_deep", "parser_exception", "unparseable", "no_content"}
CHARSETS = [None, "utf-8", "gbk", "gb2312", "gb18030", "big5", "latin-1", "utf-16", "shift_jis", "x-no-such", "", "utf8;"]
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check(body: bytes, charset: str | None) -> tuple[dict | None, str | None]:
    entry, reason = read_page(body, charset, URL)
    assert (entry is None) != (reason is None)
    if entry is None:
        assert reason in REASONS and reason != "parser_exception", reason
        return entry, reason
    assert entry["title"] and (entry["summary"] or entry["infobox"])
    row = {**entry, "depth": 0, "seed": "x", "fetched_at": "2026-01-01T00:00:00Z"}
    pa.Table.from_pylist([{k: row.get(k) for k in RAW_ENTRY_SCHEMA.names}], schema=RAW_ENTRY_SCHEMA)  # types hold
    return entry, reason


@FUZZ
@given(body=st.binary(max_size=4000), charset=st.sampled_from(CHARSETS))
def test_random_bytes(body, charset):
    check(body, charset)
    page_identity(body)
    block_reason(URL, 200, body.decode("utf-8", "replace"))


@FUZZ
@given(name=st.sampled_from(sorted(PAGES)), cut=st.floats(0, 1), charset=st.sampled_from(CHARSETS))
def test_truncated_real_pages(name, cut, charset):
    body = PAGES[name]
    check(body[: int(len(body) * cut)], charset)


@FUZZ
@given(name=st.sampled_from(sorted(PAGES)), data=st.data())
def test_spliced_and_flipped_pages(name, data):
    body = bytearray(PAGES[name])
    for _ in range(data.draw(st.integers(1, 8))):
        op = data.draw(st.sampled_from(["flip", "delete", "insert", "dup"]))
        i = data.draw(st.integers(0, max(len(body) - 1, 0)))
        j = min(len(body), i + data.draw(st.integers(1, 400)))
        if op == "flip" and body:
            body[i] ^= data.draw(st.integers(1, 255))
        elif op == "delete":
            del body[i:j]
        elif op == "insert":
            body[i:i] = data.draw(st.sampled_from([b"<div>", b"</dd>", b"<dl><dt>", b"\x00", b"<!--", b"<script>", b"]]>",
                                                   "<h1>插入</h1>".encode(), b"\xff\xfe", b"<?xml version='1.0'?>"]))
        else:
            body[i:i] = body[i:j]
    check(bytes(body), data.draw(st.sampled_from(CHARSETS)))
    page_identity(bytes(body))


@FUZZ
@given(name=st.sampled_from(sorted(PAGES)), wrong=st.sampled_from(["gbk", "utf-8", "big5", "latin-1", "utf-16", "x-no-such"]))
def test_mislabelled_encodings(name, wrong):
    """A GBK page declared UTF-8 and the reverse: decoded by what decodes, never garbled into a crash."""
    text = PAGES[name].decode("utf-8", "replace") if b"charset=\"gbk\"" not in PAGES[name][:2000].lower() else PAGES[name].decode("gb18030")
    for body in (text.encode("utf-8"), text.encode("gb18030", "replace")):
        entry, _ = check(body, wrong)
        if entry is not None and wrong in ("gbk", "utf-8") and "\ufffd" not in text:
            assert "\ufffd" not in entry["title"]


@settings(max_examples=25, deadline=None)
@given(depth=st.integers(200, 6000), tag=st.sampled_from(["div", "span", "b", "table", "ul"]))
def test_deeply_nested_pages_keep_their_infobox_or_are_refused(depth, tag):
    body = PAGES["长江.html"]
    marker = b"<body>"
    at = body.index(marker) + len(marker)
    deep = body[:at] + f"<{tag}>".encode() * depth + b"x" + f"</{tag}>".encode() * depth + body[at:]
    entry, reason = check(deep, "utf-8")
    if entry is None:
        assert reason == "html_too_deep"
    else:
        reference, _ = read_page(body, "utf-8", URL)
        assert entry["infobox"] == reference["infobox"] and entry["summary"] == reference["summary"]


def test_huge_page_parses_without_losing_the_entry():
    body = PAGES["长江.html"]
    at = body.index(b"</body>")
    huge = body[:at] + b"<p>" + "长江流域很大。".encode() * 400_000 + b"</p>" + body[at:]  # ~8 MB
    entry, reason = check(huge, "utf-8")
    assert reason is None and entry["title"] == "长江" and entry["infobox"]


@pytest.mark.parametrize(
    "body, reason",
    [
        (b"", "unparseable"),
        (b"   \n\t ", "unparseable"),
        ("<html><head><title>购物网站</title></head><body><p>今日特价</p></body></html>".encode(), "no_content"),
        (b'{"title": "json, not html"}', "no_content"),
        (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj", "no_content"),
        ("<html><head><title>百度安全验证</title></head><body>请完成下方验证后继续操作</body></html>".encode(), "no_content"),
        (b"<html><body><h1></h1><div class='lemma-summary'></div></body></html>", "no_content"),
    ],
)
def test_not_baike_at_all(body, reason):
    assert check(body, None) == (None, reason)


def test_verification_page_is_recognised_before_parsing():
    page = "<html><head><title>百度安全验证</title></head><body>请完成下方验证后继续操作</body></html>"
    assert block_reason("http://baike.baidu.com/item/x", 200, page) == "verification_page"


def test_site_index_lists_hostile_files_with_reasons(tmp_path):
    (tmp_path / "empty.html").write_bytes(b"")
    (tmp_path / "binary.html").write_bytes(bytes(range(256)) * 10)
    (tmp_path / "deep.html").write_bytes(b"<html><body>" + b"<div>" * 5000 + b"<h1>x</h1></body></html>")
    (tmp_path / "shop.html").write_text("<html><body><p>今日特价</p></body></html>", encoding="utf-8")
    (tmp_path / "长江.html").write_bytes(PAGES["长江.html"])
    index = SiteIndex.build(tmp_path)
    reasons = dict(index.skipped)
    assert [p.title for p in index.pages] == ["长江"]
    assert reasons["deep.html"] == "unparseable: HtmlTooDeep"
    assert reasons["empty.html"] == reasons["binary.html"] == reasons["shop.html"] == "no_entry_title"


def test_an_unbalanced_bracket_in_a_link_is_no_entry_link_not_a_parser_failure():
    """Found by this suite: an href like http://[x/item/… made urlsplit raise inside the parser."""
    from crawlers.parsers.common import item_path_parts

    assert item_path_parts("http://[baike.baidu.com/item/上海大学/12345") == (None, None)
    page = ('<html><head><link rel="canonical" href="https://[baike.baidu.com/item/上海/1"></head><body>'
            '<h1 class="J-lemma-title">上海</h1><div class="J-summary">上海是中国的直辖市。</div>'
            '<a href="http://[x/item/北京/2">北京</a></body></html>').encode()
    entry, reason = read_page(page, "utf-8", "http://127.0.0.1:9/item/上海")
    assert reason != "parser_exception"
