"""Pure crawl decisions against hostile input, in process (no reactor).

* which URLs may be fetched: host:port pairs, private/loopback/link-local
  addresses (in every spelling the resolver accepts), junk --allowed-domain;
* Retry-After parsing;
* a page claiming another page's lemma id, links that failed for good, the
  pending count;
* HTML nested past libxml2's default depth.
"""
from __future__ import annotations

import pytest

from crawlers.frontier import Frontier
from crawlers.hosts import HostPolicy, is_private_host, parse_allowed_domain
from crawlers.middlewares.retry_after import retry_after_seconds
from crawlers.parsers import parse_entry
from crawlers.parsers.common import HtmlTooDeep, raw_text, to_tree
from crawlers.store import EntryStore

BASE = "http://127.0.0.1:8000"


# -- host:port ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "url, reason",
    [
        ("http://127.0.0.1:8000/item/长江", None),
        ("https://127.0.0.1:8000/item/长江", None),
        ("http://127.0.0.1:8001/item/长江", "offsite"),  # another port of the mirror
        ("http://127.0.0.1/item/长江", "offsite"),  # port 80
        ("http://localhost:8000/item/长江", "private_address"),  # the same machine, not the host named
        ("http://127.0.0.2:8000/", "private_address"),
        ("http://[::1]:8000/", "private_address"),
        ("http://169.254.169.254/latest/meta-data/", "private_address"),
        ("http://10.0.0.5/", "private_address"),
        ("http://192.168.1.1:8000/", "private_address"),
        ("http://0.0.0.0:8000/", "private_address"),
        ("http://2130706433:8000/", None),  # 127.0.0.1 as one number: the mirror itself
        ("http://2130706433:8001/", "offsite"),  # ... but not its other ports
        ("http://0x7f000002:8000/", "private_address"),
        ("http://127.2:8000/", "private_address"),
        ("http://[::ffff:127.0.0.1]:8000/", "private_address"),
        ("http://foo.localhost:8000/", "private_address"),
        ("http://baike.baidu.com/item/x", "offsite"),
        ("ftp://127.0.0.1:8000/item/x", "bad_scheme"),
        ("http://127.0.0.1:99999/", "bad_url"),
        # judged as Scrapy sends them: a backslash ends the host (WHATWG), full-width digits fold
        ("http://10.0.0.1\\@127.0.0.1:8000/item/x", "private_address"),
        ("http://127.0.0.1:8000\\@10.0.0.1/item/x", None),
        ("http://127.0.0.1%3A8000@10.0.0.1/", "private_address"),
        ("http://①②⑦.0.0.1:8000/item/x", None),
        ("http://①②⑦.0.0.1:8001/item/x", "offsite"),
    ],
)
def test_loopback_mirror_allows_only_its_own_host_and_port(url, reason):
    assert HostPolicy.build(BASE).refusal(url) == reason


def test_public_site_allows_default_ports_and_subdomains_only():
    policy = HostPolicy.build("https://baike.baidu.com", ["baike.sogou.com:8443", "example.org"])
    assert policy.refusal("http://baike.baidu.com/item/x") is None
    assert policy.refusal("https://m.baike.baidu.com/item/x") is None
    assert policy.refusal("https://baike.baidu.com:8080/item/x") == "offsite"
    assert policy.refusal("https://evilbaike.baidu.com.attacker.net/") == "offsite"
    assert policy.refusal("https://baike.sogou.com:8443/v1.htm") is None
    assert policy.refusal("https://baike.sogou.com/v1.htm") == "offsite"  # only the port named
    assert policy.refusal("https://www.example.org/") is None
    assert policy.refusal("http://10.1.2.3/") == "private_address"
    assert not policy.allows_private_host("internal.baike.baidu.com")
    assert policy.allows_private_host("baike.baidu.com")


def test_a_private_host_is_reachable_when_named_explicitly():
    policy = HostPolicy.build(BASE, ["10.0.0.5:9200"])
    assert policy.refusal("http://10.0.0.5:9200/item/x") is None
    assert policy.refusal("http://10.0.0.5:9201/item/x") == "offsite"
    assert policy.refusal("http://10.0.0.6:9200/item/x") == "private_address"


@pytest.mark.parametrize(
    "junk",
    ["1", "10.0.0", "com", ".", "", "*.baidu.com", "http://baike.baidu.com", "baike.baidu.com/item",
     "a..b", "-a.com", "baike.baidu.com:0", "baike.baidu.com:70000", "baike.baidu.com:x", "[::1", "user@host.com",
     "0x7f000001", "a b.com"],
)
def test_junk_allowed_domains_are_refused_with_a_reason(junk):
    with pytest.raises(ValueError, match="--allowed-domain"):
        parse_allowed_domain(junk)


def test_allowed_domain_forms():
    assert parse_allowed_domain("Baike.Baidu.com").host == "baike.baidu.com"
    assert parse_allowed_domain("baike.baidu.com:8080").ports == frozenset({8080})
    assert parse_allowed_domain("127.0.0.1:9000").subdomains is False
    assert parse_allowed_domain("[::1]:9000").host == "::1"
    assert parse_allowed_domain("localhost:9000").host == "localhost"
    assert parse_allowed_domain("百科.中国").host == "百科.中国".encode("idna").decode()


def test_private_host_spellings():
    for host in ("localhost", "127.0.0.1", "127.1", "2130706433", "0177.0.0.1", "::1", "fe80::1", "fc00::1",
                 "100.64.0.1", "169.254.1.1", "224.0.0.1", "::ffff:10.0.0.1"):
        assert is_private_host(host), host
    for host in ("8.8.8.8", "baike.baidu.com", "1.1.1.1", "2001:4860:4860::8888"):
        assert not is_private_host(host), host


# -- Retry-After --------------------------------------------------------------------
def test_retry_after_seconds():
    assert retry_after_seconds(b"3600") == 3600.0
    assert retry_after_seconds("0") == 0.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412480.0 - 60) == 60.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412480.0 + 60) == 0.0
    for bad in (None, "", "soon", "-5", "1.5e3", "Wed, 99 Foo"):
        assert retry_after_seconds(bad) is None, bad


# -- identity, failures, pending ---------------------------------------------------
def _entry(title: str, lemma_id: str | None, links: list[str] = ()) -> dict:
    return {"source": "baidu", "lemma_id": lemma_id, "title": title, "subtitle": None,
            "url": f"{BASE}/item/{title}" + (f"/{lemma_id}" if lemma_id else ""),
            "links": [{"url": u} for u in links]}


def test_a_page_claiming_another_pages_lemma_id_does_not_displace_it():
    """假 (served at /item/假) claims 真's id 123; 真 is still fetched and stored, under the id it owns."""
    f = Frontier()
    (start,) = f.offer(f"{BASE}/item/假", 0, "假")
    fake = _entry("假", "123", [f"{BASE}/item/真/123"])
    status, _, offers = f.accept(fake, start.key, 0, [start.url])
    assert status == "new"
    # the link names 真, the id's holder is 假: not the same entry, so it is requested
    assert [o.url for o in offers] == [f"{BASE}/item/真/123"]
    real = _entry("真", "123")
    status, _, _ = f.accept(real, offers[0].key, 1, [offers[0].url])
    assert status == "conflict" and real["lemma_id"] is None  # stored, under its title
    assert f.stored_count == 2
    # the same page again is a duplicate of what was stored, not a third entry
    again = _entry("真", "123")
    assert f.accept(again, "title:真", 1)[0] == "duplicate"


def test_same_id_same_title_is_still_one_entry():
    f = Frontier()
    (a,) = f.offer(f"{BASE}/item/长江", 0, "长江")
    assert f.accept(_entry("长江", "5"), a.key, 0, [a.url])[0] == "new"
    assert f.offer(f"{BASE}/item/长江/5", 1, "长江") == []  # known by its id, no refetch


def test_failed_links_leave_pending_and_permanent_ones_are_remembered(tmp_path):
    f = Frontier()
    offers = f.offer(f"{BASE}/item/缺", 0, "缺") + f.offer(f"{BASE}/item/坏", 0, "坏")
    assert len(f.pending) == 2
    for o in offers:
        f.fail(o.key)
    assert f.pending == {}
    assert f.offer(f"{BASE}/item/缺", 0, "缺") == []  # not asked twice in one run

    store = EntryStore(tmp_path)
    store.open()
    store.add_failure(offers[0].key, offers[0].url, "http_404")
    store.add_failure(offers[1].key, offers[1].url, "http_503")  # transient: not remembered
    store.close()
    resumed = Frontier()
    for key, _ in EntryStore(tmp_path).iter_failures():
        resumed.mark_dead(key)
    assert resumed.offer(f"{BASE}/item/缺", 0, "缺") == [] and resumed.dead_skipped == 1
    assert [o.url for o in resumed.offer(f"{BASE}/item/坏", 0, "坏")] == [f"{BASE}/item/坏"]


# -- deep HTML ---------------------------------------------------------------------
def _deep_page(depth: int) -> str:
    """A legacy-markup entry whose infobox follows a run of `depth` nested divs."""
    return (
        '<html><head><meta charset="utf-8"><title>深层_百度百科</title></head><body>'
        '<dl class="lemmaWgt-lemmaTitle"><dd class="lemmaWgt-lemmaTitle-title"><h1>深层</h1></dd></dl>'
        + "<div>" * depth + "嵌套" + "</div>" * depth
        + '<div class="lemma-summary"><div class="para">深层是一个用于测试嵌套深度的词条。</div></div>'
        '<div class="basic-info"><dl class="basicInfo-block basicInfo-left">'
        '<dt class="basicInfo-item name">用途</dt><dd class="basicInfo-item value">测试</dd></dl></div>'
        "</body></html>"
    )


@pytest.mark.parametrize("depth", [300, 1500])
def test_html_nested_past_256_keeps_its_infobox(depth):
    entry = parse_entry(_deep_page(depth), f"{BASE}/item/深层")
    assert entry["summary"] == "深层是一个用于测试嵌套深度的词条。"
    assert entry["infobox"] == [{"name": "用途", "value": "测试", "value_links": []}]


def test_html_nested_past_the_parser_limit_is_refused_not_half_parsed():
    with pytest.raises(HtmlTooDeep):
        parse_entry(_deep_page(5000), f"{BASE}/item/深层")


def test_text_of_a_deep_tree_needs_no_recursion():
    tree = to_tree("<html><body>" + "<span>" * 1900 + "深" + "</span>" * 1900 + "</body></html>")
    assert raw_text(tree).strip() == "深"


# -- no code from data -----------------------------------------------------------
def test_crawler_and_benchmarks_never_unpickle_or_eval():
    """Nothing a server or a user supplies is unpickled, eval'd or loaded as unsafe YAML (checked on the AST)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    unsafe = {("pickle", "load"), ("pickle", "loads"), ("marshal", "loads"), ("marshal", "load"), ("yaml", "load"),
              ("yaml", "unsafe_load"), ("dill", "loads"), ("shelve", "open")}
    found = []
    for path in [*root.glob("crawlers/**/*.py"), *root.glob("benchmarks/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Name) and f.id in ("eval", "exec"):
                    found.append(f"{path.name}: {f.id}")
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and (f.value.id, f.attr) in unsafe:
                    found.append(f"{path.name}: {f.value.id}.{f.attr}")
    assert found == []


def test_jobdir_with_its_pickled_queues_is_refused():
    from crawlers.commands import _parse_set
    from pipeline.errors import CdtpError

    with pytest.raises(CdtpError, match="JOBDIR is not supported"):
        _parse_set(["JOBDIR=/tmp/shared-bucket"])


def test_a_misspelt_setting_is_refused_and_an_extension_s_is_passed_on(capsys):
    # `DOWNLOAD_DELAI=5` was taken without a word, and the crawl ran without its delay.
    from crawlers.commands import _parse_set
    from pipeline.errors import CdtpError

    with pytest.raises(CdtpError, match="no such Scrapy setting; did you mean DOWNLOAD_DELAY"):
        _parse_set(["DOWNLOAD_DELAI=5"])
    assert _parse_set(["SCHEDULER_PERSIST=true"]) == {"SCHEDULER_PERSIST": True}
    assert "SCHEDULER_PERSIST is no setting of Scrapy's or cdtp's: passed on" in capsys.readouterr().err
    assert _parse_set(["DOWNLOAD_DELAY=2"]) == {"DOWNLOAD_DELAY": 2}
