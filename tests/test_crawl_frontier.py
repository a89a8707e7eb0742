"""Frontier (depth, dedup, re-expansion, restore) and EntryStore (kill-safe shards), in process."""
from __future__ import annotations

import json

from crawlers.frontier import Frontier
from crawlers.keys import entry_keys, link_key
from crawlers.store import EntryStore, read_json_lines

BASE = "http://127.0.0.1:9"


def url(name: str, lemma_id: str | None = None) -> str:
    return f"{BASE}/item/{name}/{lemma_id}" if lemma_id else f"{BASE}/item/{name}"


# A graph where depth-first order meets C first at depth 3 (via A, A2) and only later at
# depth 2 (via B). C's link D is within the limit only through the shorter path.
GRAPH = {"S": ["A", "B"], "A": ["A2"], "A2": ["C"], "B": ["C"], "C": ["D"], "D": ["E"], "E": []}
IDS = {name: str(100 + i) for i, name in enumerate(GRAPH)}


def entry(name: str) -> dict:
    return {
        "source": "baidu", "lemma_id": IDS[name], "title": name, "subtitle": None,
        "url": url(name, IDS[name]), "links": [{"title": t, "url": url(t, IDS[t])} for t in GRAPH[name]],
    }


def drive(frontier: Frontier, order: list[str], seed: str = "S") -> list[str]:
    """Fetch pages in the given order (when requested), return names stored."""
    requested = {o.url: o for o in frontier.offer(url(seed), 0, seed)}
    stored = []
    for name in order:
        hit = next((o for u, o in requested.items() if u in (url(name), url(name, IDS[name]))), None)
        if hit is None:
            continue
        requested.pop(hit.url)
        status, depth, offers = frontier.accept(entry(name), hit.key, hit.depth, [hit.url])
        if status == "new":
            stored.append(name)
        requested.update({o.url: o for o in offers})
    return stored


def test_entry_reached_shallower_later_is_re_expanded_without_refetch():
    f = Frontier(depth_limit=3)
    stored = drive(f, ["S", "A", "A2", "C", "B", "D", "E"])
    # D (distance 3 via S-B-C-D) is reached even though C was first stored at depth 3.
    assert stored == ["S", "A", "A2", "C", "B", "D"]
    assert "E" not in stored  # distance 4
    assert f.nodes[entry_keys(entry("C"))[0]].depth == 2


def test_entry_set_does_not_depend_on_order():
    a = drive(Frontier(depth_limit=3), ["S", "A", "A2", "C", "B", "D", "E"])
    b = drive(Frontier(depth_limit=3), ["S", "B", "C", "D", "A", "A2", "E"])
    assert sorted(a) == sorted(b)


def test_duplicate_entry_through_other_url_is_skipped_and_aliased():
    f = Frontier(depth_limit=2)
    (seed,) = f.offer(url("S"), 0, "S")
    assert f.accept(entry("S"), seed.key, 0, [seed.url])[0] == "new"
    # /item/S/<id> names the same entry: not requested again
    assert f.offer(url("S", IDS["S"]), 1, "S") == []
    # a bare /item/<title> resolves without fetching to a stored entry that has no subtitle
    f.accept(entry("A"), link_key(url("A", IDS["A"])), 1, [url("A", IDS["A"])])
    assert f.offer(url("A"), 1, "S") == []
    # ... but not to one sense of a polysemous name: fetched, it turns out to be a duplicate
    cao = {"source": "baidu", "lemma_id": "24657", "title": "曹渊", "subtitle": "革命烈士", "links": []}
    f.accept(cao, link_key(url("曹渊", "24657")), 1, [url("曹渊", "24657")])
    (bare,) = f.offer(url("曹渊"), 1, "S")
    status, _, _ = f.accept(cao, bare.key, 1, [bare.url])
    assert status == "duplicate"
    assert f.offer(url("曹渊"), 1, "S") == []  # from now on an alias of the stored sense


def test_polysemous_senses_stay_apart():
    one = {"source": "baidu", "lemma_id": "1", "title": "曹渊", "subtitle": "革命烈士"}
    two = {"source": "baidu", "lemma_id": "2", "title": "曹渊", "subtitle": "另一人"}
    assert entry_keys(one)[0] != entry_keys(two)[0]
    f = Frontier()
    assert f.accept(one, "k1", 0)[0] == "new"
    assert f.accept(two, "k2", 0)[0] == "new"
    # without lemma ids, title + subtitle is the key
    assert entry_keys({"title": "曹 渊", "subtitle": "革命烈士"})[0] == entry_keys({"title": "曹渊", "subtitle": "革命烈士 "})[0]


def test_restore_re_seeds_only_links_never_stored():
    f = Frontier(depth_limit=3)
    drive(f, ["S", "A", "A2", "C"])  # then killed: B, D never stored
    g = Frontier(depth_limit=3)
    for name in ["S", "A", "A2", "C"]:
        assert g.restore(entry(name))
    assert not g.restore(entry("C"))  # a duplicate line on disk is reported, not restored twice
    offers = g.offer(url("S"), 0, "S", key=link_key(url("S")))
    assert sorted(o.url for o in offers) == [url("B", IDS["B"])]
    # continuing gives the same set as an uninterrupted crawl
    requested = {o.url: o for o in offers}
    (b,) = requested.values()
    status, _, more = g.accept(entry("B"), b.key, b.depth, [b.url])
    assert status == "new" and [o.url for o in more] == [url("D", IDS["D"])]


def test_max_pages_caps_new_entries():
    f = Frontier(max_pages=2)
    assert f.accept(entry("S"), "a", 0)[0] == "new"
    assert f.accept(entry("A"), "b", 1)[0] == "new"
    assert f.accept(entry("B"), "c", 1)[0] == "cap"
    assert f.accept(entry("A"), "d", 1)[0] == "duplicate"


# --- store ------------------------------------------------------------------------


def test_store_seals_shards_atomically_and_recovers_torn_line(tmp_path):
    store = EntryStore(tmp_path, shard_size=2)
    store.open()
    for i in range(5):
        store.append({"title": f"t{i}"})
    # two full shards sealed, the fifth entry still in an open .part shard
    assert sorted(p.name for p in tmp_path.glob("raw-*")) == ["raw-00001.jsonl", "raw-00002.jsonl"]
    assert (tmp_path / ".raw-00003.jsonl.part").exists()  # invisible to `raw-*` globs
    # simulate kill -9 in the middle of writing the sixth line
    with open(tmp_path / ".raw-00003.jsonl.part", "a", encoding="utf-8") as fh:
        fh.write('{"title": "t5", "summ')
    again = EntryStore(tmp_path)
    report = again.recover()
    assert report.truncated_lines_dropped == 1 and report.recovered_part_shards == 1
    assert [e["title"] for e in again.iter_entries()] == ["t0", "t1", "t2", "t3", "t4"]
    assert not list(tmp_path.glob(".*.part"))
    again.open()
    again.append({"title": "t5"})
    again.close()
    assert (tmp_path / "raw-00004.jsonl").exists()


def test_read_json_lines_skips_corrupt_lines(tmp_path):
    p = tmp_path / "raw-00001.jsonl"
    p.write_text('{"a": 1}\nnot json\n[1, 2]\n{"b": 2}\n{"c":', encoding="utf-8")
    records, bad = read_json_lines(p)
    assert records == [{"a": 1}, {"b": 2}] and bad == 3


def test_empty_part_shard_is_removed(tmp_path):
    (tmp_path / ".raw-00001.jsonl.part").write_text("", encoding="utf-8")
    store = EntryStore(tmp_path)
    store.recover()
    assert list(tmp_path.iterdir()) == []
    assert json.dumps(list(store.iter_entries())) == "[]"


def test_settings_make_the_crawl_depth_first_and_polite():
    from crawlers.settings import CrawlSettings, scrapy_settings

    s = scrapy_settings(CrawlSettings(contact="mailto:me@example.org"))
    assert s["DEPTH_PRIORITY"] == 0
    assert s["SCHEDULER_MEMORY_QUEUE"].endswith("LifoMemoryQueue")
    assert s["SCHEDULER_DISK_QUEUE"].endswith("PickleLifoDiskQueue")
    assert s["ROBOTSTXT_OBEY"] is True and s["AUTOTHROTTLE_ENABLED"] is True
    assert s["CONCURRENT_REQUESTS_PER_DOMAIN"] >= 1 and s["DOWNLOAD_MAXSIZE"] > 0
    assert "mailto:me@example.org" in s["USER_AGENT"]
    assert "JOBDIR" not in s  # the output directory is the state


def test_torn_alias_line_does_not_corrupt_the_next_one(tmp_path):
    (tmp_path / "aliases.jsonl").write_text('{"key": "title:a", "canon": "id:item:1"}\n{"key": "ti', encoding="utf-8")
    store = EntryStore(tmp_path)
    store.open()
    store.add_alias("title:b", "id:item:2")
    store.close()
    assert list(EntryStore(tmp_path).iter_aliases()) == [("title:a", "id:item:1"), ("title:b", "id:item:2")]


def test_block_reason_recognises_verification_pages_only():
    from crawlers.middlewares.antibot import block_reason

    assert block_reason("https://wappass.baidu.com/static/captcha/tuxing.html?ak=1", 200, "") == "captcha_url"
    assert block_reason("https://baike.baidu.com/item/x", 200, "<title>百度安全验证</title>") == "verification_page"
    assert block_reason("https://baike.sogou.com/antispider/?from=x", 200, "") == "captcha_url"
    # an entry that merely mentions verification in its text is not a block page
    page = "<title>图灵测试_百度百科</title><p>验证码是一种图灵测试。</p>"
    assert block_reason("https://baike.baidu.com/item/%E5%9B%BE%E7%81%B5", 200, page) is None
    assert block_reason("https://baike.baidu.com/item/x", 200, "<title>验证码_百度百科</title>") is None
