"""The frontier under any fetch order, 404s and kills: the stored entry set is the reachable set.

Property-based (hypothesis), in process: a random link graph of entries,
some links dead (404), a random order in which responses arrive, and random
"kill -9" moments after which a fresh Frontier is rebuilt from what was stored
(entries, aliases, remembered 404s), exactly as the spider restores itself.
Whatever happens, the entries stored are those within the depth limit of the
seed through live pages, each once, and no 404 is asked for after a restart.
"""
from __future__ import annotations

from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from crawlers.frontier import Frontier

BASE = "http://127.0.0.1:9"


def url(k: int) -> str:
    return f"{BASE}/item/页{k}/{1000 + k}"


def entry(k: int, graph: dict[int, list[int]]) -> dict:
    return {"source": "baidu", "lemma_id": str(1000 + k), "title": f"页{k}", "subtitle": None, "url": url(k),
            "links": [{"url": url(j)} for j in graph[k]], "seed": "页0"}


def reachable(graph: dict[int, list[int]], dead: set[int], limit: int) -> set[int]:
    depth = {0: 0}
    queue = deque([0])
    while queue:
        k = queue.popleft()
        if k in dead or depth[k] >= limit:
            continue
        for j in graph[k]:
            if j not in depth:
                depth[j] = depth[k] + 1
                queue.append(j)
    return {k for k in depth if k not in dead}


@st.composite
def crawls(draw):
    n = draw(st.integers(2, 14))
    graph = {k: draw(st.lists(st.integers(0, n - 1), max_size=4, unique=True)) for k in range(n)}
    dead = set(draw(st.lists(st.integers(1, n - 1), max_size=3, unique=True)))
    limit = draw(st.integers(1, 4))
    return graph, dead, limit


@settings(max_examples=150, deadline=None)
@given(crawl=crawls(), data=st.data())
def test_stored_set_is_the_reachable_set_whatever_the_order_and_kills(crawl, data):
    graph, dead, limit = crawl
    stored: list[dict] = []  # the durable output: entries
    aliases: list[tuple[str, str]] = []
    failures: list[str] = []  # remembered 404 keys
    fetched_404_after_restart = []
    restarts = 0
    while True:
        f = Frontier(depth_limit=limit)
        for e in stored:
            f.restore(e)
        for key, canon in aliases:
            f.add_alias(key, canon)
        for key in failures:
            f.mark_dead(key)
        inflight = list(f.offer(url(0), 0, "页0"))
        killed = False
        while inflight:
            if restarts < 3 and data.draw(st.integers(0, 9)) == 0:  # kill -9: in-flight requests are lost
                restarts += 1
                killed = True
                break
            offer = inflight.pop(data.draw(st.integers(0, len(inflight) - 1)))
            k = int(offer.url.split("/")[-2][1:])
            if k in dead:
                if restarts:
                    fetched_404_after_restart.append(offer.key) if offer.key in failures else None
                f.fail(offer.key)
                failures.append(offer.key)
                continue
            e = entry(k, graph)
            status, _, more = f.accept(e, offer.key, offer.depth, [offer.url])
            if status in ("new", "conflict"):
                stored.append(e)
            canon = f.aliases.get(offer.key)
            if canon and canon != offer.key:
                aliases.append((offer.key, canon))
            inflight.extend(more)
        if not killed:
            break
    titles = [e["title"] for e in stored]
    assert len(titles) == len(set(titles))  # each entry stored once
    assert {int(t[1:]) for t in titles} == reachable(graph, dead, limit)
    assert fetched_404_after_restart == []  # a remembered 404 is never asked for again
    assert f.pending == {}  # nothing left pending once the crawl is over
