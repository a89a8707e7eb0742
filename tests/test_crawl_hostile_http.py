"""Hostile crawl targets over real HTTP: every case counted by reason, nothing fetched that was not allowed.

Each test starts its servers on 127.0.0.1 and runs `cdtp crawl` in a
subprocess (a Twisted reactor cannot restart). A second server on another
loopback port stands for "any other local service": the test proves it was
never asked for anything.
"""
from __future__ import annotations

import gzip
import json
import re
import time
from urllib.parse import unquote

import pytest

from tests.crawl_support import RecordingServer, read_entries, read_stats, run_crawl
from tests.test_crawl_bad_input import HTML, item, legacy_page

pytestmark = pytest.mark.slow

FAST_FAIL = ["--set", "RETRY_TIMES=1", "--set", "CDTP_RETRY_BACKOFF=0.05"]


def seeds_file(tmp_path, *titles: str):
    path = tmp_path / "seeds.txt"
    path.write_text("".join(t + "\n" for t in titles), encoding="utf-8")
    return path


def start_page(title: str, links: list[tuple[str, str]], lemma_id: str = "1") -> tuple[int, dict, bytes]:
    return 200, HTML, legacy_page(title, f"{title}是测试用的起点词条：", {"类型": "测试"}, links, lemma_id).encode()


# -- defect 4: host:port, private addresses -------------------------------------------
def test_links_and_redirects_to_other_local_ports_are_never_fetched(tmp_path):
    other = RecordingServer({})  # another service on this machine
    secret = f"http://127.0.0.1:{other.port}"
    site = RecordingServer({})
    site.routes.update({
        item("起点"): start_page("起点", [
            ("别的端口", f"{secret}/item/别的端口"), ("本机名", f"http://localhost:{other.port}/item/本机名"),
            ("元数据", "http://169.254.169.254/item/元数据"), ("内网", "http://10.255.255.1/item/内网"),
            ("整数地址", f"http://2130706433:{other.port}/item/整数地址"),
            ("跳别的端口", item("跳别的端口")), ("跳元数据", item("跳元数据")), ("正常", item("正常")),
        ]),
        item("跳别的端口"): (302, {"Location": f"{secret}/item/%E7%A7%98%E5%AF%86"}, b""),
        item("跳元数据"): (301, {"Location": "http://169.254.169.254/latest/meta-data/iam"}, b""),
        item("正常"): (200, HTML, legacy_page("正常", "正常是一个普通词条。", {"类型": "普通"}, lemma_id="2").encode()),
    })
    try:
        out = tmp_path / "out"
        proc = run_crawl(seeds_file(tmp_path, "起点"), out, site.base_url, "--depth-limit", "1", *FAST_FAIL)
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "Traceback" not in proc.stderr
        assert other.hits == []  # the other port was never asked for anything
        assert {e["title"] for e in read_entries(out)} == {"起点", "正常"}
        stats = read_stats(out)
        # offsite: the mirror's host on another port, written as 127.0.0.1 and as 2130706433;
        # private: localhost, 169.254.169.254, 10.255.255.1 (none of them named by the crawl)
        assert stats["totals"]["links_refused"] == {"private_address": 3, "offsite": 2}
        assert stats["errors"]["offsite"] == 1  # 302 to the mirror's host, other port
        assert stats["errors"]["private_address"] == 1  # 301 to the metadata address
    finally:
        site.stop()
        other.stop()


def test_junk_allowed_domain_is_a_clear_error(tmp_path):
    for junk in ("1", "com", "http://x.org", "*.baidu.com", "a..b"):
        proc = run_crawl(seeds_file(tmp_path, "起点"), tmp_path / "out", "http://127.0.0.1:9", "--allowed-domain", junk)
        assert proc.returncode == 2, (junk, proc.stderr)
        assert "cdtp: error: --allowed-domain" in proc.stderr and "Traceback" not in proc.stderr


# -- defect 8: Retry-After, hangs, drips, bombs, huge and garbage bodies --------------------
def test_retry_after_is_honoured_and_bounded(tmp_path):
    times: dict[str, list[float]] = {"稍后": [], "很久以后": [], "一直忙": []}

    def later(handler):
        times["稍后"].append(time.monotonic())
        if len(times["稍后"]) == 1:
            return 429, {"Retry-After": "2", **HTML}, b"<html><body>slow down</body></html>"
        return 200, HTML, legacy_page("稍后", "稍后是一个要求等待的词条。", {"等待": "两秒"}, lemma_id="3").encode()

    def much_later(handler):
        times["很久以后"].append(time.monotonic())
        return 429, {"Retry-After": "3600", **HTML}, b"<html><body>come back in an hour</body></html>"

    def busy(handler):
        times["一直忙"].append(time.monotonic())
        return 503, {"Retry-After": "0", **HTML}, b"<html><body>busy</body></html>"

    site = RecordingServer({
        item("起点"): start_page("起点", [("稍后", item("稍后")), ("很久以后", item("很久以后")), ("一直忙", item("一直忙"))]),
        item("稍后"): later, item("很久以后"): much_later, item("一直忙"): busy,
    })
    try:
        out = tmp_path / "out"
        proc = run_crawl(seeds_file(tmp_path, "起点"), out, site.base_url, "--depth-limit", "1", *FAST_FAIL,
                         "--set", "CDTP_RETRY_AFTER_MAX=30")
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert {e["title"] for e in read_entries(out)} == {"起点", "稍后"}
        first, second = times["稍后"]
        assert second - first >= 1.9  # waited as asked
        assert len(times["很久以后"]) == 1  # an hour is beyond the max wait: given up, not hammered
        assert len(times["一直忙"]) == 2  # RETRY_TIMES=1: once more, then counted
        stats = read_stats(out)
        assert stats["errors"]["retry_after_too_long"] == 1
        assert stats["errors"]["http_503"] == 1
        assert stats["totals"]["retry_after"]["retried"] == 2
        assert stats["totals"]["retry_after"]["too_long"] == 1
    finally:
        site.stop()


def _hang(handler):
    time.sleep(6)
    return 200, HTML, b"<html></html>"


def _drip(handler):
    """Headers at once, then one byte every half second: never finishes within the timeout."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    try:
        for _ in range(40):
            handler.wfile.write(b" ")
            handler.wfile.flush()
            time.sleep(0.5)
    except OSError:
        pass
    return None


def _endless(handler):
    """No Content-Length, body streamed until the client hangs up."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Connection", "close")
    handler.end_headers()
    chunk = b"<div>" + "很长".encode() * 8000 + b"</div>"
    try:
        for _ in range(2000):
            handler.wfile.write(chunk)
    except OSError:
        pass
    handler.close_connection = True
    return None


def _cut_short(handler):
    """Announces more than it sends, then closes: data loss."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", "5000")
    handler.end_headers()
    handler.wfile.write(b"<html><body>")
    handler.close_connection = True
    return None


GZIP_BOMB = gzip.compress(b"<html><body>" + b"0" * 60_000_000 + b"</body></html>", compresslevel=9)


def test_hangs_drips_bombs_and_garbage_are_counted_by_reason(tmp_path):
    deep_ok = legacy_page("深页", "深页的内容在三百层嵌套之后。", {"层数": "三百"}, lemma_id="21")
    deep_ok = deep_ok.replace('<div class="lemma-summary">', "<div>" * 300 + "</div>" * 300 + '<div class="lemma-summary">')
    too_deep = legacy_page("太深", "太深的内容在五千层嵌套之后。", {"层数": "五千"}, lemma_id="22")
    too_deep = too_deep.replace('<div class="lemma-summary">', "<div>" * 5000 + '<div class="lemma-summary">')
    cases = {
        "挂起": _hang, "滴漏": _drip, "无尽": _endless, "截短": _cut_short,
        "炸弹": (200, {**HTML, "Content-Encoding": "gzip"}, GZIP_BOMB),
        "巨大": (200, HTML, b"<html><body>" + b"x" * 400_000 + b"</body></html>"),
        "乱码": (200, HTML, bytes(range(256)) * 50),
        "不是百科": (200, HTML, "<html><head><title>购物</title></head><body><p>今日特价</p></body></html>".encode()),
        "验证": (200, HTML, "<html><head><title>百度安全验证</title></head><body>请完成验证</body></html>".encode()),
        "错标编码": (200, {"Content-Type": "text/html; charset=utf-8"},
                     legacy_page("错标编码", "这个页面声明了错误的编码。", {"编码": "国标"}, lemma_id="23").encode("gbk")),
        "深页": (200, HTML, deep_ok.encode()),
        "太深": (200, HTML, too_deep.encode()),
    }
    site = RecordingServer({item("起点"): start_page("起点", [(t, item(t)) for t in cases]),
                            **{item(t): route for t, route in cases.items()}})
    try:
        out = tmp_path / "out"
        started = time.monotonic()
        proc = run_crawl(seeds_file(tmp_path, "起点"), out, site.base_url, "--depth-limit", "1", *FAST_FAIL,
                         "--set", "DOWNLOAD_TIMEOUT=3", "--set", "DOWNLOAD_MAXSIZE=200000", "--set", "CDTP_BLOCK_RETRIES=0",
                         "--set", "RETRY_TIMES=0", "--log-level", "INFO")
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert time.monotonic() - started < 90
        assert "Traceback" not in proc.stderr
        entries = {e["title"]: e for e in read_entries(out)}
        assert set(entries) == {"起点", "错标编码", "深页"}
        assert entries["错标编码"]["summary"] == "这个页面声明了错误的编码。"
        assert entries["深页"]["infobox"] == [{"name": "层数", "value": "三百", "value_links": []}]
        errors = read_stats(out)["errors"]
        assert errors["timeout"] == 2  # hang, drip
        assert errors["too_large"] == 3  # gzip bomb, declared huge body, endless body
        assert errors["data_loss"] == 1
        assert errors["html_too_deep"] == 1
        assert errors["no_content"] == 2  # garbage bytes, a page that is not an entry
        assert read_stats(out)["blocked"] == 1
        # every request that ended is out of the pending count
        last = [line for line in proc.stderr.splitlines() if "crawl: stored" in line][-1]
        assert re.search(r"pending 0\b", last), last
    finally:
        site.stop()


# -- defect 11: 404s are remembered across a resume ------------------------------------------
def test_resumed_crawl_does_not_refetch_earlier_404s(tmp_path):
    site = RecordingServer({
        item("起点"): start_page("起点", [("缺失", item("缺失")), ("也缺失", item("也缺失")), ("坏了", item("坏了"))]),
        item("坏了"): (500, HTML, b"<html><body>oops</body></html>"),
    })
    try:
        out = tmp_path / "out"
        seeds = seeds_file(tmp_path, "起点")
        first = run_crawl(seeds, out, site.base_url, "--depth-limit", "1", *FAST_FAIL)
        assert first.returncode == 0, first.stderr[-3000:]
        assert read_stats(out)["errors"]["http_404"] == 2
        site.hits.clear()
        again = run_crawl(seeds, out, site.base_url, "--depth-limit", "1", *FAST_FAIL)
        assert again.returncode == 0, again.stderr[-3000:]
        assert item("缺失") not in site.hits and item("也缺失") not in site.hits
        assert item("坏了") in site.hits  # a 500 may be transient: asked again
        stats = read_stats(out)
        assert stats["errors"]["http_404"] == 2  # not counted twice
        assert stats["last_run"]["known_failures_skipped"] == 2
        failures = [json.loads(line) for line in (out / "failures.jsonl").read_text(encoding="utf-8").splitlines()]
        assert sorted(f["reason"] for f in failures) == ["http_404", "http_404"]
    finally:
        site.stop()


def test_a_name_resolving_to_a_private_address_is_not_connected_to(tmp_path):
    """The resolver is the last line: `localhost` resolves to 127.0.0.1; with no host named explicitly
    (CDTP_EXPLICIT_HOSTS emptied, as for a public name that turns out to point inside), nothing is fetched."""
    site = RecordingServer({item("甲"): (200, HTML, legacy_page("甲", "甲是测试。", {"a": "b"}, lemma_id="1").encode())})
    try:
        out = tmp_path / "out"
        proc = run_crawl(seeds_file(tmp_path, "甲"), out, f"http://localhost:{site.port}", *FAST_FAIL,
                         "--set", 'CDTP_EXPLICIT_HOSTS=["nothing.example"]', "--set", "RETRY_TIMES=0")
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "Traceback" not in proc.stderr
        assert site.hits == []  # not even robots.txt
        assert read_stats(out)["errors"] == {"private_address": 1}
    finally:
        site.stop()


def test_robots_txt_is_honoured(tmp_path):
    site = RecordingServer({
        "/robots.txt": (200, {"Content-Type": "text/plain"}, b"User-agent: *\nDisallow: /item/\n"),
        item("甲"): (200, HTML, legacy_page("甲", "甲是测试。", {"a": "b"}, lemma_id="1").encode()),
    })
    try:
        out = tmp_path / "out"
        proc = run_crawl(seeds_file(tmp_path, "甲"), out, site.base_url, *FAST_FAIL)
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert site.hits == ["/robots.txt"]
        assert read_stats(out)["errors"] == {"robots_disallowed": 1} and read_entries(out) == []
    finally:
        site.stop()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--base-url", "http://[::1"], "--base-url 'http://[::1' is not a valid URL"),
        (["--base-url", "http://127.0.0.1:9", "--set", "RETRY_TIMES=abc"], "--set RETRY_TIMES: expected a int"),
        (["--base-url", "http://127.0.0.1:9", "--set", "DOWNLOAD_TIMEOUT=soon"], "--set DOWNLOAD_TIMEOUT: expected a float"),
    ],
)
def test_bad_crawl_options_are_clear_errors_not_reactor_crashes(tmp_path, args, message):
    import subprocess
    import sys

    from tests.crawl_support import ROOT, _env

    proc = subprocess.run([sys.executable, "-m", "pipeline.cli", "crawl", "--seeds", str(seeds_file(tmp_path, "甲")),
                           "--out", str(tmp_path / "out"), *args], cwd=ROOT, env=_env(), capture_output=True, text=True)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr[-2000:]


def test_entries_are_recorded_under_their_lemma_id_url_unless_the_id_is_disputed(tmp_path):
    """`/item/甲` is recorded as `/item/甲/100` (its page's id), so crawl order
    never decides source_url; 乙 claims the same id, keeps no id, and so is
    recorded under the URL it was fetched by, never under 甲's."""
    site = RecordingServer({
        item("起点"): start_page("起点", [("甲", item("甲")), ("乙", item("乙"))]),
        item("甲"): start_page("甲", [], lemma_id="100"),
        item("乙"): start_page("乙", [], lemma_id="100"),
    })
    try:
        out = tmp_path / "out"
        done = run_crawl(seeds_file(tmp_path, "起点"), out, site.base_url, "--depth-limit", "1",
                         "--set", "CONCURRENT_REQUESTS=1", *FAST_FAIL)
        assert done.returncode == 0, done.stderr[-3000:]
        urls = {e["title"]: (unquote(e["url"].removeprefix(site.base_url)), e["lemma_id"]) for e in read_entries(out)}
        first = min(("甲", "乙"), key=lambda t: site.hits.index(item(t)))
        second = "乙" if first == "甲" else "甲"
        assert urls["起点"] == ("/item/起点/1", "1")
        assert urls[first] == (f"/item/{first}/100", "100")
        assert urls[second] == (f"/item/{second}", None)
        assert read_stats(out)["totals"]["notes"] == {"lemma_id_conflict": 1}
    finally:
        site.stop()
