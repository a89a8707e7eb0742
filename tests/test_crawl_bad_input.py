"""Bad input over real HTTP: every case is counted by reason, the crawler never crashes.

A programmable server (tests.crawl_support.RecordingServer) answers with what
a real site sometimes does: 404/500, redirect loops, verification pages and
captcha redirects, oversized bodies, GBK with and without a declared charset,
truncated HTML, pages with no content, non-HTML. It records every request, so
the test can also prove what was never fetched (off-site, non-http, robots).
"""
from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.crawl_support import RecordingServer, read_entries, read_stats, run_crawl

pytestmark = pytest.mark.slow

HTML = {"Content-Type": "text/html; charset=utf-8"}


def legacy_page(title: str, summary: str, infobox: dict[str, str], links: list[str] = (), lemma_id: str = "") -> str:
    """A page in the older Baidu markup, with our own sentences."""
    rows = "".join(
        f'<dt class="basicInfo-item name">{k}</dt><dd class="basicInfo-item value">{v}</dd>' for k, v in infobox.items()
    )
    anchors = "".join(f'<a href="{href}">{text}</a>，' for text, href in links)
    summary_html = f'<div class="lemma-summary"><div class="para">{summary}{anchors}</div></div>' if summary else ""
    box = f'<div class="basic-info"><dl class="basicInfo-block basicInfo-left">{rows}</dl></div>' if infobox else ""
    script = f"<script>var conf = {{newLemmaId: '{lemma_id}'}};</script>" if lemma_id else ""
    return (
        f'<html><head><meta charset="utf-8"><title>{title}_百度百科</title>{script}</head><body>'
        f'<div class="main-content"><dl class="lemmaWgt-lemmaTitle"><dd class="lemmaWgt-lemmaTitle-title"><h1>{title}</h1></dd></dl>'
        f"{summary_html}{box}</div></body></html>"
    )


def item(title: str) -> str:
    return f"/item/{title}"


def location(title: str) -> str:
    return "/item/" + quote(title)


@pytest.fixture()
def bad_site():
    offsite = RecordingServer({}, host="127.0.0.1")
    links = [
        ("服务器错误", item("服务器错误")), ("不存在", item("不存在")), ("重定向环", item("重定向环")),
        ("安全验证", item("安全验证")), ("验证码跳转", item("验证码跳转")), ("巨大", item("巨大")),
        ("编码页", item("编码页")), ("无声明编码页", item("无声明编码页")), ("截断", item("截断")),
        ("无信息框", item("无信息框")), ("无摘要", item("无摘要")), ("空页面", item("空页面")),
        ("图片", item("图片")), ("禁止", item("禁止")), ("外跳", item("外跳")),
        ("异地验证码", item("异地验证码")),
        # never fetched: another host, a non-http scheme, a script link
        ("外站", f"http://localhost:{offsite.port}/item/外站"), ("文件", "ftp://127.0.0.1/item/文件"),
        ("脚本", "javascript:void(0)"),
    ]
    routes = {
        "/robots.txt": (200, {"Content-Type": "text/plain"}, b"User-agent: *\nDisallow: /item/%E7%A6%81%E6%AD%A2\n"),
        item("起点"): (200, HTML, legacy_page("起点", "这是一个用于测试的起点词条，链接到各种异常页面：", {"类型": "测试"}, links, "1").encode()),
        item("服务器错误"): (500, HTML, b"<html><body>server error</body></html>"),
        item("重定向环"): (302, {"Location": location("重定向环二")}, b""),
        item("重定向环二"): (302, {"Location": location("重定向环")}, b""),
        item("安全验证"): (200, HTML, "<html><head><title>百度安全验证</title></head><body>请完成下方验证后继续操作</body></html>".encode()),
        item("验证码跳转"): (302, {"Location": "/static/captcha/tuxing.html?ak=x"}, b""),
        item("异地验证码"): (302, {"Location": "https://wappass.baidu.com/static/captcha/tuxing.html?ak=y"}, b""),
        item("巨大"): (200, HTML, legacy_page("巨大", "很长的页面。" * 40000, {"大小": "超过上限"}).encode()),
        item("编码页"): (200, {"Content-Type": "text/html; charset=gbk"},
                       legacy_page("编码页", "这个页面使用国标扩展编码保存。", {"编码": "GBK"}, lemma_id="7").replace('charset="utf-8"', 'charset="gbk"').encode("gbk")),
        item("无声明编码页"): (200, {"Content-Type": "text/html"},
                           legacy_page("无声明编码页", "这个页面没有声明编码。", {"编码": "未声明"}, lemma_id="8").replace('<meta charset="utf-8">', "").encode("gbk")),
        item("截断"): (200, HTML, legacy_page("截断", "页面在传输中被截断了。", {"状态": "不完整", "下一项": "丢失"}, lemma_id="9").encode()[:-120]),
        item("无信息框"): (200, HTML, legacy_page("无信息框", "这个词条只有摘要，没有信息框。", {}, lemma_id="10").encode()),
        item("无摘要"): (200, HTML, legacy_page("无摘要", "", {"说明": "只有信息框"}, lemma_id="11").encode()),
        item("空页面"): (200, HTML, b"<html><head><title>x</title></head><body><p>\xe6\x97\xa0</p></body></html>"),
        item("外跳"): (302, {"Location": f"http://localhost:{offsite.port}/item/%E5%A4%96%E7%AB%99"}, b""),
        item("图片"): (200, {"Content-Type": "image/png"}, b"\x89PNG\r\n\x1a\n" + b"\x00" * 64),
        item("禁止"): (200, HTML, legacy_page("禁止", "不应被抓取。", {"a": "b"}).encode()),
    }
    site = RecordingServer(routes)
    yield site, offsite
    site.stop()
    offsite.stop()


def test_bad_input_is_counted_by_reason_and_never_crashes(bad_site, tmp_path):
    site, offsite = bad_site
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("起点\n", encoding="utf-8")
    out = tmp_path / "out"
    proc = run_crawl(
        seeds, out, site.base_url, "--depth-limit", "2",
        "--set", "DOWNLOAD_MAXSIZE=200000", "--set", "CDTP_BLOCK_RETRIES=1", "--set", "RETRY_TIMES=1",
        "--contact", "mailto:crawl-admin@example.org",
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr

    entries = {e["title"]: e for e in read_entries(out)}
    assert set(entries) == {"起点", "编码页", "无声明编码页", "截断", "无信息框", "无摘要"}
    assert entries["编码页"]["summary"] == "这个页面使用国标扩展编码保存。"
    assert entries["无声明编码页"]["infobox"] == [{"name": "编码", "value": "未声明", "value_links": []}]
    # cut inside the second infobox row: the complete first row is kept, the torn one dropped
    assert entries["截断"]["infobox"] == [{"name": "状态", "value": "不完整", "value_links": []}]
    assert entries["无信息框"]["infobox"] == [] and entries["无摘要"]["summary"] == ""

    stats = read_stats(out)
    errors = stats["errors"]
    assert errors["http_404"] == 1
    assert errors["http_500"] == 1
    assert errors["redirect_loop"] == 1
    assert errors["too_large"] == 1
    assert errors["no_content"] == 1
    assert errors["not_html"] == 1
    assert errors["robots_disallowed"] == 1
    # a redirect to another loopback port is not followed: a private address the crawl did not name
    assert errors["private_address"] == 1 and "offsite" not in errors
    # verification page and captcha redirect: counted as blocked (each tried twice), never parsed
    assert stats["blocked"] == 6
    assert stats["totals"]["blocked_by"] == {"verification_page": 2, "captcha_redirect": 4}
    assert stats["totals"]["backoff_delay"] > 0
    notes = stats["totals"]["notes"]
    assert notes["no_infobox"] == 1 and notes["no_summary"] == 1 and notes["encoding_gbk"] == 1
    assert notes["truncated_html"] == 1

    # never fetched: off-site host, non-http link, robots-disallowed page, the captcha page itself
    assert offsite.hits == []
    assert item("禁止") not in site.hits
    assert not any("captcha" in h for h in site.hits)
    assert not any("文件" in h or "外站" in h for h in site.hits)
    assert stats["totals"]["links_offsite_skipped"] == 1
    assert stats["totals"]["links_refused"] == {"private_address": 1}
    # an identifying User-Agent with the contact address, on every request
    (ua,) = site.user_agents
    assert ua.startswith("cdtp-baike-crawler/") and "mailto:crawl-admin@example.org" in ua


def test_sogou_pages_over_http(tmp_path):
    """A Sogou entry is parsed as source "sogou" and its /v<id>.htm links are followed."""
    from pathlib import Path

    page = (Path(__file__).parent / "fixtures" / "pages" / "sogou_huangpujiang.html").read_bytes()
    lujiazui = legacy_page("陆家嘴", "陆家嘴位于黄浦江东岸。", {"所属地区": "浦东新区"}, lemma_id="800004")
    site = RecordingServer({
        item("黄浦江"): (200, HTML, page),
        "/v800004.htm": (200, HTML, lujiazui.encode()),
    })
    try:
        seeds = tmp_path / "seeds.txt"
        seeds.write_text("黄浦江\n", encoding="utf-8")
        proc = run_crawl(seeds, tmp_path / "out", site.base_url, "--depth-limit", "1")
        assert proc.returncode == 0, proc.stderr[-2000:]
        entries = {e["title"]: e for e in read_entries(tmp_path / "out")}
        assert entries["黄浦江"]["source"] == "sogou" and entries["黄浦江"]["lemma_id"] == "800001"
        assert entries["陆家嘴"]["depth"] == 1
        assert "/v800002.htm" in site.hits  # 上海市: linked, fetched, 404
        assert read_stats(tmp_path / "out")["errors"] == {"http_404": 2}  # 上海市, 长江
    finally:
        site.stop()


def test_max_pages_caps_entries_across_runs(bad_site, tmp_path):
    site, _ = bad_site
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("起点\n", encoding="utf-8")
    out = tmp_path / "out"
    first = run_crawl(seeds, out, site.base_url, "--depth-limit", "2", "--max-pages", "2")
    assert first.returncode == 0, first.stderr[-2000:]
    assert len(read_entries(out)) == 2
    again = run_crawl(seeds, out, site.base_url, "--depth-limit", "2", "--max-pages", "3")
    assert again.returncode == 0, again.stderr[-2000:]
    entries = read_entries(out)
    assert len(entries) == 3 and len({e["title"] for e in entries}) == 3


def test_a_site_that_answers_no_request_is_a_failed_crawl(tmp_path):
    """Every seed refused: Scrapy says "finished", the user gets status 1 and the reason."""
    import socket

    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        base_url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("长江\n黄河\n", encoding="utf-8")
    out = tmp_path / "out"
    r = run_crawl(seeds, out, base_url, "--log-level", "ERROR")
    assert r.returncode == 1, r.stderr[-2000:]
    assert f"no page could be fetched from {base_url} (download_connection_refused_error: 2)" in r.stderr
    assert "Traceback" not in r.stderr
    assert read_stats(out)["last_run"]["errors"] == {"download_error_download_connection_refused_error": 2}


def test_user_errors_are_clear_messages(tmp_path):
    import subprocess
    import sys

    from tests.crawl_support import ROOT, _env

    def cdtp(*args):
        return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], cwd=ROOT, env=_env(), capture_output=True, text=True)

    missing = cdtp("crawl", "--seeds", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "o"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr and "Traceback" not in missing.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("\n# only a comment\n", encoding="utf-8")
    r = cdtp("crawl", "--seeds", str(empty), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "holds no titles" in r.stderr
    r = cdtp("crawl", "--seeds", str(empty), "--out", str(tmp_path / "o"), "--base-url", "ftp://x")
    assert r.returncode == 2 and "http(s)" in r.stderr


def test_two_crawls_never_write_one_directory(bad_site, tmp_path):
    import fcntl

    site, _ = bad_site
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("起点\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    with open(out / ".crawl.lock", "a+") as held:  # as if another crawl were running
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        r = run_crawl(seeds, out, site.base_url)
    assert r.returncode == 2 and "another `cdtp crawl` is writing" in r.stderr
    assert not list(out.glob("raw-*"))


def test_a_host_that_does_not_resolve_is_unreachable():
    """A wrong --base-url host (DNS failure) or a refused connection fails the run like any
    connect error, not "finished" with 0 entries and exit 0."""
    from crawlers.commands import _site_unreachable

    assert _site_unreachable({"fetched": 0, "errors": {"dns_error": 2}}) == "dns_error: 2"
    assert _site_unreachable({"fetched": 0, "errors": {"connection_refused": 1}}) == "connection_refused: 1"
    assert _site_unreachable({"fetched": 1, "errors": {"dns_error": 2}}) is None
    assert _site_unreachable({"fetched": 0, "errors": {"http_404": 2}}) is None
