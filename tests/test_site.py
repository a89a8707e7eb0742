"""The local Baike site: Baike URLs over real HTTP, polysemy, charsets, robots, and the sample site."""
from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter, deque
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from crawlers.parsers import parse_entry, page_identity
from crawlers.site import (
    DEFAULT_ROBOTS_TXT,
    SiteIndex,
    detect_charset,
    make_server,
    parse_item_path,
    running_site,
    sample_site_dir,
    serve_in_thread,
    stop,
)

SAMPLE = sample_site_dir()
ROOT = Path(__file__).resolve().parents[1]


def fetch(url: str, method: str = "GET") -> tuple[int, str, bytes]:
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.headers.get("Content-Type", ""), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Content-Type", ""), err.read()


def item(base: str, title: str, lemma_id: str | int | None = None) -> str:
    url = f"{base}/item/{quote(title, safe='')}"
    return f"{url}/{lemma_id}" if lemma_id is not None else url


def h1_of(body: bytes) -> str | None:
    return page_identity(body)[1]


@pytest.fixture(scope="module")
def sample_site():
    server, base = serve_in_thread(SAMPLE)
    yield server, base
    stop(server)


# --------------------------------------------------------------- pure helpers


@pytest.mark.parametrize(
    "path, expected",
    [
        ("/item/%E9%95%BF%E6%B1%9F", ("长江", None)),
        ("/item/%E9%95%BF%E6%B1%9F/", ("长江", None)),
        ("/item/%E6%9D%9C%E9%B9%83/6406324", ("杜鹃", "6406324")),
        ("/item/AC%2FDC", ("AC/DC", None)),  # encoded slash stays inside the title
        ("/item/%B3%A4%BD%AD", ("长江", None)),  # GBK-encoded link from an old page
        ("/item/长江/abc", None),
        ("/item/", None),
        ("/item/a/1/2", None),
        ("/search/word", None),
    ],
)
def test_parse_item_path(path, expected):
    assert parse_item_path(path) == expected


def test_detect_charset():
    assert detect_charset('<meta charset="utf-8"><h1>长江</h1>'.encode("utf-8")) == "utf-8"
    assert detect_charset('<meta charset="GBK"><h1>长江</h1>'.encode("gbk")) == "gbk"
    # declared UTF-8 but really GBK: announce what decodes
    assert detect_charset('<meta charset="utf-8"><h1>长江</h1>'.encode("gbk")) == "gb18030"
    assert detect_charset("<h1>长江</h1>".encode("utf-8")) == "utf-8"


def test_index_skips_non_entry_files_with_a_reason(tmp_path):
    (tmp_path / "a.html").write_text('<html><body><p>没有标题</p></body></html>', encoding="utf-8")
    (tmp_path / "b.html").write_bytes((SAMPLE / "长江.html").read_bytes())
    (tmp_path / "c.html").write_bytes((SAMPLE / "长江.html").read_bytes())
    (tmp_path / "empty.html").write_bytes(b"")
    index = SiteIndex.build(tmp_path)
    assert [p.title for p in index.pages] == ["长江"]
    assert dict(index.skipped) == {"a.html": "no_entry_title", "c.html": "duplicate_of:b.html", "empty.html": "no_entry_title"}


def test_make_server_rejects_bad_folders(tmp_path):
    with pytest.raises(ValueError, match="not a directory"):
        make_server(tmp_path / "missing")
    with pytest.raises(ValueError, match="no entry page found"):
        make_server(tmp_path)


# ------------------------------------------------------------ the sample site


def test_sample_site_shape():
    index = SiteIndex.build(SAMPLE)
    assert index.skipped == []
    pages = index.pages
    assert len(pages) == 24
    assert len(index.by_title) == 23  # 杜鹃 has two senses
    assert all(p.lemma_id and p.lemma_id.isdigit() for p in pages)
    markups = Counter()
    for p in pages:
        text = p.path.read_bytes()
        markups["current" if b"J-lemma-title" in text else "legacy"] += 1
    assert markups == {"legacy": 12, "current": 12}
    assert sorted(p.charset for p in pages).count("gbk") == 1


def test_sample_pages_parse_with_infobox_tags_and_summary():
    for path in sorted(SAMPLE.glob("*.html")):
        entry = parse_entry(path.read_bytes(), "http://127.0.0.1/item/x")
        assert entry["title"] and entry["lemma_id"], path.name
        assert len(entry["infobox"]) >= 6, path.name
        assert entry["tags"], path.name
        assert entry["summary"] and not re.search(r"\[\d+\]", entry["summary"]), path.name
        assert "&nbsp;" not in "".join(i["name"] for i in entry["infobox"])


def test_item_urls_serve_the_right_page(sample_site):
    _, base = sample_site
    status, ctype, body = fetch(item(base, "长江"))
    assert status == 200 and ctype == "text/html; charset=utf-8"
    assert body == (SAMPLE / "长江.html").read_bytes()
    status, _, body = fetch(item(base, "长江", 6401879))
    assert status == 200 and h1_of(body) == "长江"
    # unknown id for a known title, unknown title, other paths: 404
    assert fetch(item(base, "长江", 1))[0] == 404
    assert fetch(item(base, "黄河"))[0] == 404
    assert fetch(base + "/")[0] == 404
    assert fetch(base + "/search/word?word=长江".replace("长江", quote("长江")))[0] == 404
    # query strings (?fromModule=...) and trailing slashes are ignored, as on Baike
    assert fetch(item(base, "长江") + "?fromModule=lemma_inlink")[0] == 200
    assert fetch(item(base, "长江", 6401879) + "/")[0] == 200


def test_old_view_urls_redirect_to_item_urls(sample_site):
    _, base = sample_site
    status, _, body = fetch(base + "/view/6401879.htm")  # urllib follows the 301
    assert status == 200 and h1_of(body) == "长江"
    opener = urllib.request.build_opener(_NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as err:
        opener.open(base + "/view/6406324.htm", timeout=10)
    assert err.value.code == 301
    assert err.value.headers["Location"] == "/item/%E6%9D%9C%E9%B9%83/6406324"
    assert fetch(base + "/view/1.htm")[0] == 404


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_head_request(sample_site):
    _, base = sample_site
    status, ctype, body = fetch(item(base, "长江"), method="HEAD")
    assert status == 200 and body == b"" and ctype.startswith("text/html")


def test_width_and_case_variants_of_a_title_resolve(tmp_path):
    page = (
        '<html><head><meta charset="utf-8"></head><body><dl><dd class="lemmaWgt-lemmaTitle-title">'
        "<h1>Python</h1></dd></dl>"
        '<div class="lemma-summary"><div class="para">Python是一种解释型编程语言。</div></div>'
        '<div class="zhixin-box" data-newLemmaId="4242"></div></body></html>'
    )
    (tmp_path / "p.html").write_text(page, encoding="utf-8")
    with running_site(tmp_path) as (_, base):
        assert fetch(item(base, "Python", 4242))[0] == 200
        assert fetch(item(base, "python"))[0] == 200
        assert fetch(item(base, "ＰＹＴＨＯＮ", 4242))[0] == 200
        assert fetch(item(base, "Pyth0n"))[0] == 404


def test_polysemous_title(sample_site):
    _, base = sample_site
    plant = fetch(item(base, "杜鹃", 6405213))
    bird = fetch(item(base, "杜鹃", 6406324))
    assert page_identity(plant[2])[2] == "杜鹃花科杜鹃花属植物"
    assert page_identity(bird[2])[2] == "杜鹃科杜鹃属鸟类"
    default = fetch(item(base, "杜鹃"))
    assert default[0] == 200 and default[2] == plant[2]  # the smallest lemma id is the default sense
    assert fetch(item(base, "杜鹃", 6101237))[0] == 404  # 秦始皇's id is no sense of 杜鹃


def test_gbk_page_is_served_as_is_with_its_charset(sample_site):
    _, base = sample_site
    status, ctype, body = fetch(item(base, "深圳证券交易所"))
    assert status == 200 and ctype == "text/html; charset=gbk"
    assert body == (SAMPLE / "深圳证券交易所.html").read_bytes()
    assert "深交所" in body.decode("gbk")
    with pytest.raises(UnicodeDecodeError):
        body.decode("utf-8")


def test_robots_txt(sample_site, tmp_path):
    _, base = sample_site
    status, ctype, body = fetch(base + "/robots.txt")
    assert status == 200 and ctype == "text/plain; charset=utf-8"
    assert body.decode() == DEFAULT_ROBOTS_TXT
    assert "Allow: /item/" in DEFAULT_ROBOTS_TXT and "Disallow: /search/" in DEFAULT_ROBOTS_TXT
    # a robots.txt in the folder replaces the default (tests can forbid entries)
    (tmp_path / "长江.html").write_bytes((SAMPLE / "长江.html").read_bytes())
    (tmp_path / "robots.txt").write_text("User-agent: *\nDisallow: /item/\n", encoding="utf-8")
    with running_site(tmp_path) as (_, other):
        assert fetch(other + "/robots.txt")[2] == b"User-agent: *\nDisallow: /item/\n"


def test_every_entry_link_of_the_sample_site_resolves(sample_site):
    """Every /item/ href in every page (summary, infobox, body, polysemy lists) answers 200."""
    _, base = sample_site
    hrefs: set[str] = set()
    for path in SAMPLE.glob("*.html"):
        raw = path.read_bytes()
        text = raw.decode(detect_charset(raw))
        hrefs.update(re.findall(r'href="(/item/[^"]+)"', text))
    assert len(hrefs) > 50
    bad = [h for h in sorted(hrefs) if fetch(base + h.split("#")[0])[0] != 200]
    assert bad == []


def _crawl_depths(base_dir: Path, seeds: list[str]) -> dict[tuple[str, str], int]:
    """Smallest link depth of every entry reachable from the seeds (the crawl's depth rule)."""
    index = SiteIndex.build(base_dir)
    depth: dict[tuple[str, str], int] = {}
    queue: deque = deque()
    for s in seeds:
        page = index.find(s)
        assert page is not None, s
        depth[(page.title, page.lemma_id)] = 0
        queue.append(page)
    while queue:
        page = queue.popleft()
        entry = parse_entry(page.path.read_bytes(), "http://site" + page.item_path())
        for link in entry["links"]:
            target = index.resolve(urlsplit(link["url"]).path)
            assert target is not None, f"{page.title} links to missing {link['url']}"
            key = (target.title, target.lemma_id)
            if key not in depth:
                depth[key] = depth[(page.title, page.lemma_id)] + 1
                queue.append(target)
    return depth


def test_seeds_reach_every_sample_page_within_depth_3():
    seeds = (SAMPLE / "seeds.txt").read_text(encoding="utf-8").split()
    assert 2 <= len(seeds) <= 3
    depth = _crawl_depths(SAMPLE, seeds)
    assert len(depth) == 24
    assert max(depth.values()) <= 3


# ------------------------------------------------------------------ real pages


@pytest.mark.shared
def test_real_pages_are_served_and_linked(shared_data):
    pages = shared_data / "baike-baidu-2019" / "pages"
    with running_site(pages) as (server, base):
        index = server.index
        assert len(index.pages) == 18 and index.skipped == []
        status, ctype, body = fetch(item(base, "上海大学"))
        assert status == 200 and ctype == "text/html; charset=utf-8"
        assert body == (pages / "上海大学_百度百科.html").read_bytes()
        assert fetch(item(base, "上海大学", 319190))[0] == 200
        # h1 title, not the file name: the file carries the subtitle, the URL does not
        status, _, body = fetch(item(base, "徐彬", 17960756))
        assert status == 200 and page_identity(body)[2] == "云南省政协副主席、民盟省委主委"
        assert fetch(item(base, "徐彬（云南省政协副主席、民盟省委主委）"))[0] == 404
        # polysemy-list links to senses that were never saved are 404, like any unknown entry
        assert fetch(item(base, "徐彬", 19997))[0] == 404
    # the crawl from 上海大学 reaches 16 of the 18 pages within depth 3
    depth = {}
    index = SiteIndex.build(pages)
    start = index.find("上海大学")
    depth[start.title] = 0
    queue = deque([start])
    while queue:
        page = queue.popleft()
        if depth[page.title] == 3:
            continue
        entry = parse_entry(page.path.read_bytes(), "http://site" + page.item_path())
        for link in entry["links"]:
            target = index.resolve(urlsplit(link["url"]).path)
            if target is not None and target.title not in depth:
                depth[target.title] = depth[page.title] + 1
                queue.append(target)
    assert len(depth) == 16
    assert {"基础科学研究", "项目信息管理"}.isdisjoint(depth)


# --------------------------------------------------------------------------- CLI


def test_cli_serves_until_sigterm(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "site", "serve", str(SAMPLE), "--port", "0", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        first = proc.stdout.readline()
        m = re.search(r"serving 24 entry pages from .* at (http://127\.0\.0\.1:\d+)/item/", first)
        assert m, first
        base = m.group(1)
        deadline = time.time() + 10
        while True:
            try:
                assert fetch(item(base, "秦始皇"))[0] == 200
                break
            except urllib.error.URLError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err


def test_cli_errors_are_clear(tmp_path, capsys):
    from pipeline.cli import main

    assert main(["site", "serve", str(tmp_path / "nope"), "--port", "0"]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert main(["site", "serve", str(tmp_path), "--port", "0"]) == 2
    assert "no entry page found" in capsys.readouterr().err
    assert main(["site", "serve", str(SAMPLE), "--port", "70000"]) == 2
    assert "not a TCP port" in capsys.readouterr().err
    # An empty host binds every interface in http.server: refused, not served to the network.
    assert main(["site", "serve", str(SAMPLE), "--port", "0", "--host", " "]) == 2
    assert "--host is empty" in capsys.readouterr().err


def test_the_worker_pool_refuses_an_address_it_would_bind_wrongly(capsys):
    """gRPC binds port 99999 as 34463 (modulo 65536) and calls an empty host a traceback."""
    from pipeline.cli import main

    assert main(["workers", "--port", "99999"]) == 2
    assert "--port 99999 is not a TCP port" in capsys.readouterr().err
    assert main(["workers", "--port", "0", "--host", ""]) == 2
    assert "--host is empty" in capsys.readouterr().err


def test_a_host_other_than_loopback_is_said(capsys):
    from pipeline.listen import listen_address

    assert listen_address(" 127.0.0.1 ", 0) == ("127.0.0.1", 0)
    assert listen_address("::1", 8000) == ("::1", 8000)
    assert capsys.readouterr().err == ""
    assert listen_address("0.0.0.0", 8000) == ("0.0.0.0", 8000)
    assert "reachable from other machines" in capsys.readouterr().err


def test_two_files_claiming_one_entry_are_refused_whatever_their_names(tmp_path):
    """Different contents for one entry: 409 naming both files, never the first by name."""
    page = (SAMPLE / "长江.html").read_bytes()
    for names in (("a.html", "b.html"), ("b.html", "a.html")):
        folder = tmp_path / names[0][0]
        folder.mkdir()
        (folder / names[0]).write_bytes(page)
        (folder / names[1]).write_bytes(page.replace("长江".encode(), "长江".encode(), 1) + "<!-- 另一份不同的副本 -->".encode())
        (folder / "copy.html").write_bytes(page)  # byte-identical: one page, listed as a copy
        (folder / "杜甫.html").write_bytes((SAMPLE / "杜甫.html").read_bytes())
        index = SiteIndex.build(folder)
        reasons = dict(index.skipped)
        original = names[0]
        assert reasons["copy.html"] == f"duplicate_of:{original}"
        assert "conflicting_claim" in reasons["b.html"] and "a.html" in reasons["b.html"]
        with running_site(folder) as (_, base):
            status, _, body = fetch(base + "/item/" + quote("长江"))
            assert status == 409 and b"a.html" in body and b"b.html" in body
            assert fetch(base + "/item/" + quote("长江") + "/6401879")[0] == 409
            assert fetch(base + "/item/" + quote("杜甫"))[0] == 200


def test_one_lemma_id_claimed_by_two_titles(tmp_path):
    page = (SAMPLE / "长江.html").read_text(encoding="utf-8")
    (tmp_path / "real.html").write_text(page, encoding="utf-8")
    (tmp_path / "fake.html").write_text(page.replace("长江", "假长江"), encoding="utf-8")
    index = SiteIndex.build(tmp_path)
    assert index.id_conflicts == {"6401879": ("fake.html", "real.html")}
    with running_site(tmp_path) as (_, base):
        assert fetch(base + "/view/6401879.htm")[0] == 409  # the id alone names no single entry
        status, _, body = fetch(base + "/item/" + quote("长江") + "/6401879")
        assert status == 200 and h1_of(body) == "长江"
