"""SearXNG backend against a local HTTP server with fault injection.

The server (127.0.0.1, a thread) speaks SearXNG's JSON API over a tiny corpus
of our own sentences, and replays a per-query script of faults before it
answers normally: timeouts, 429 with Retry-After, 5xx, garbage JSON. It counts
requests and the maximum number in flight.
"""
from __future__ import annotations

import json
import select
import socket
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from transforms.search.types import SearchConfig
from transforms.search.validate import make_backend, validate_pairs

CORPUS = [
    {"url": "https://example.org/luxun", "title": "鲁迅简介", "content": "鲁迅生于浙江绍兴，原名周树人。"},
    {"url": "https://example.org/novel", "title": "现代文学", "content": "《狂人日记》是鲁迅发表的第一篇白话小说。"},
    {"url": "https://example.org/yangtze", "title": "长江", "content": "长江发源于唐古拉山脉，最终注入东海。"},
    {"url": "https://example.org/panda", "title": "大熊猫", "content": "大熊猫主要生活在四川的山区。"},
]

CLIENT_TIMEOUT = 0.4


class FaultServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, faults: dict[str, list[str]]):
        super().__init__(("127.0.0.1", 0), Handler)
        self.faults = {q: list(f) for q, f in faults.items()}
        self.requests: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: FaultServer

    def log_message(self, *args):  # keep test output clean
        pass

    def _done(self):
        """Leave the in-flight count BEFORE answering: once the client has the
        answer it may start its next request at once."""
        if getattr(self, "_counted", False):
            self._counted = False
            with self.server.lock:
                self.server.in_flight -= 1

    def _send(self, code: int, body: bytes, headers: dict[str, str] | None = None):
        self._done()
        try:
            self.send_response(code)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
            pass

    def _client_gone(self) -> bool:
        ready, _, _ = select.select([self.connection], [], [], 0)
        if not ready:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def do_GET(self):
        srv = self.server
        parsed = urllib.parse.urlsplit(self.path)
        params = urllib.parse.parse_qs(parsed.query)
        query = params.get("q", [""])[0]
        with srv.lock:
            srv.requests.append(query)
            srv.in_flight += 1
            srv.max_in_flight = max(srv.max_in_flight, srv.in_flight)
            self._counted = True
            fault = srv.faults.get(query, []).pop(0) if srv.faults.get(query) else None
        try:
            if parsed.path != "/search" or params.get("format") != ["json"]:
                return self._send(403, b"json format not enabled")
            if fault == "timeout":
                # Answer too late; stop as soon as the client hangs up, so that
                # in-flight counts open connections, not abandoned handlers.
                deadline = time.monotonic() + CLIENT_TIMEOUT * 2
                while time.monotonic() < deadline and not self._client_gone():
                    time.sleep(0.01)
                return self._send(200, b'{"results": []}')
            time.sleep(0.05)  # so that concurrent requests overlap
            if fault == "429":
                return self._send(429, b"slow down", {"Retry-After": "1"})
            if fault in ("500", "502", "503"):
                return self._send(int(fault), b"upstream error")
            if fault == "garbage":
                return self._send(200, b"<html>not json</html>", {"Content-Type": "text/html"})
            terms = query.split()
            hits = [r for r in CORPUS if any(t in r["title"] + r["content"] for t in terms)]
            return self._send(200, json.dumps({"query": query, "results": hits}, ensure_ascii=False).encode())
        finally:
            self._done()


def _triple(head, relation, tail):
    return {"head": head, "relation": relation, "tail": tail, "start": 0, "end": 1, "match": "exact",
            "tail_type": None, "search_status": None}


def _pairs():
    return [
        {"pair_id": "p-luxun", "entity": "鲁迅", "source_url": "https://baike.example/luxun",
         "triples": [_triple("鲁迅", "出生地", "绍兴"), _triple("鲁迅", "代表作品", "狂人日记"),
                     _triple("鲁迅", "原名", "周树人")], "num_triples": 3},
        # Its source page is the only one stating its triples.
        {"pair_id": "p-yangtze", "entity": "长江", "source_url": "https://example.org/yangtze",
         "triples": [_triple("长江", "发源地", "唐古拉山脉"), _triple("长江", "注入", "东海")], "num_triples": 2},
        {"pair_id": "p-panda", "entity": "大熊猫", "source_url": "https://baike.example/panda",
         "triples": [_triple("大熊猫", "分布", "四川"), _triple("大熊猫", "食物", "竹子")], "num_triples": 2},
    ]


FAULTS = {
    "鲁迅 绍兴": ["timeout", "timeout"],  # retried, then verified
    "鲁迅 狂人日记": ["429"],  # Retry-After: 1 honoured, then verified
    "鲁迅 周树人": ["500", "503"],  # retried, then verified
    "长江 唐古拉山脉": ["garbage"],  # not retried: unverified bad_json
    "长江 东海": ["502"] * 4,  # retries exhausted: unverified http_5xx
    "大熊猫 四川": ["timeout"] * 4,  # retries exhausted: unverified timeout
}


@pytest.fixture
def server():
    srv = FaultServer(FAULTS)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _cfg(server, tmp_path, policy="keep"):
    return SearchConfig(enabled=True, backend="searxng", searxng_url=server.url, cache_dir=str(tmp_path / "cache"),
                        timeout=CLIENT_TIMEOUT, retries=3, backoff=0.02, max_backoff=5.0, max_concurrency=2,
                        unverified_policy=policy)


def _fates(out):
    """(head, tail) -> (status or drop reason, evidence or detail) for every input triple."""
    fates = {}
    for pair in out.pairs:
        for t in pair["triples"]:
            fates[(t["head"], t["tail"])] = (t["search_status"], t["search_evidence"])
    for drops in out.drops:
        for t, reason, detail in drops.triples:
            fates[(t["head"], t["tail"])] = (reason, detail)
    return fates


def test_faults_retries_bounded_concurrency_and_cache(server, tmp_path):
    cfg = _cfg(server, tmp_path)
    backend = make_backend(cfg)
    started = time.perf_counter()
    out = validate_pairs(_pairs(), backend, cfg)
    elapsed = time.perf_counter() - started
    fates = _fates(out)
    assert len(fates) == 7  # every input triple is accounted for, with its status
    assert fates[("鲁迅", "绍兴")] == ("verified", "https://example.org/luxun")
    assert fates[("鲁迅", "狂人日记")] == ("verified", "https://example.org/novel")
    assert fates[("鲁迅", "周树人")] == ("verified", "https://example.org/luxun")
    assert fates[("长江", "唐古拉山脉")] == ("unverified", "bad_json")
    assert fates[("长江", "东海")] == ("unverified", "http_5xx")
    assert fates[("大熊猫", "四川")] == ("unverified", "timeout")
    reason, detail = fates[("大熊猫", "竹子")]
    assert reason == "no_cooccurrence" and detail["query"] == "大熊猫 竹子" and detail["results_checked"] == 1
    assert [p["pair_id"] for p in out.pairs] == ["p-luxun", "p-yangtze", "p-panda"]
    # Retries happened: 2+1+2 transient faults recovered, 3+3 on the exhausted ones.
    assert backend.backend.stats.retries == 2 + 1 + 2 + 3 + 3
    assert server.requests.count("鲁迅 绍兴") == 3 and server.requests.count("长江 唐古拉山脉") == 1
    assert elapsed >= 1.0  # the 429's Retry-After: 1 was respected
    assert out.counts["unverified_timeout"] == 1 and out.counts["triples_verified"] == 3
    backend.close()

    # Rerun: only the failed queries are asked again (failures are not cached).
    server.requests.clear()
    backend = make_backend(cfg)
    out2 = validate_pairs(_pairs(), backend, cfg)
    assert sorted(server.requests) == sorted(["长江 唐古拉山脉", "长江 东海", "大熊猫 四川"])
    fates2 = _fates(out2)
    # Now answered: 长江's triples are stated only on its own page, so the pair goes.
    assert fates2[("长江", "唐古拉山脉")][0] == "no_cooccurrence"
    assert fates2[("长江", "东海")][0] == "no_cooccurrence"
    assert fates2[("大熊猫", "四川")] == ("verified", "https://example.org/panda")
    (yangtze,) = [d for d in out2.drops if d.pair["pair_id"] == "p-yangtze"]
    assert yangtze.pair_reason == "no_triple_left"
    assert [p["pair_id"] for p in out2.pairs] == ["p-luxun", "p-panda"]
    backend.close()

    # Third run: served entirely from the cache.
    server.requests.clear()
    backend = make_backend(cfg)
    out3 = validate_pairs(_pairs(), backend, cfg)
    assert server.requests == []
    assert backend.stats.hits == 7 and backend.stats.misses == 0
    assert _fates(out3) == fates2
    backend.close()


def test_concurrency_is_bounded(tmp_path):
    srv = FaultServer({})
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        cfg = _cfg(srv, tmp_path)
        cfg.max_concurrency = 3
        pairs = [{"pair_id": f"p{i}", "entity": "鲁迅", "source_url": "https://x.example",
                  "triples": [_triple("鲁迅", "关系", f"作品{i}")], "num_triples": 1} for i in range(12)]
        validate_pairs(pairs, make_backend(cfg), cfg)
        assert len(srv.requests) == 12
        assert srv.max_in_flight == 3  # used, and never exceeded
    finally:
        srv.shutdown()
        srv.server_close()


def test_unverified_policy_drop_drops_with_the_failure_reason(server, tmp_path):
    cfg = _cfg(server, tmp_path, policy="drop")
    cfg.retries = 0
    backend = make_backend(cfg)
    out = validate_pairs(_pairs(), backend, cfg)
    fates = _fates(out)
    assert len(fates) == 7
    assert fates[("长江", "东海")] == ("search_unverified", {"query": "长江 东海", "failure": "http_5xx"})
    assert fates[("鲁迅", "狂人日记")] == ("search_unverified", {"query": "鲁迅 狂人日记", "failure": "http_429"})
    (yangtze,) = [d for d in out.drops if d.pair["pair_id"] == "p-yangtze"]
    assert yangtze.pair_reason == "no_triple_left" and len(yangtze.triples) == 2
    backend.close()


def test_unreachable_service_and_disabled_json_are_reasons_not_crashes(tmp_path):
    cfg = SearchConfig(enabled=True, backend="searxng", searxng_url="http://127.0.0.1:9", timeout=0.5, retries=1,
                       backoff=0.01, max_concurrency=2)
    out = validate_pairs(_pairs()[:1], make_backend(cfg), cfg)
    assert {t["search_evidence"] for t in out.pairs[0]["triples"]} == {"connection_error"}
    with pytest.raises(ValueError, match="http"):
        make_backend(SearchConfig(enabled=True, backend="searxng", searxng_url="ftp://x"))


def test_cdtp_search_web_command(server, capsys):
    from pipeline.cli import main

    assert main(["search", "web", "--url", server.url, "--head", "大熊猫", "--tail", "竹子", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["query"] == "大熊猫 竹子" and shown["decision"]["status"] == "not_cooccurring"
    # 长江 东海 answers 502 four times: one retry is not enough -> a clear error, no traceback.
    assert main(["search", "web", "--url", server.url, "长江 东海"]) == 2
    assert "http_5xx" in capsys.readouterr().err


def test_a_service_that_is_down_is_not_asked_query_after_query():
    """An unreachable service once took two minutes of timeouts and retries over a
    102-triple build: after some queries in a row fail to reach it, the rest fail at once."""
    from transforms.search.searxng import SearxngBackend
    from transforms.search.types import SearchFailure

    backend = SearxngBackend("http://127.0.0.1:9", timeout=0.5, retries=1, backoff=0.0, unreachable_after=2)
    reasons = []
    for q in ("长江 青海", "黄河 甘肃", "珠江 广东", "淮河 河南"):
        with pytest.raises(SearchFailure) as failure:
            backend.search(q, 5)
        reasons.append((failure.value.reason, "not asked" in str(failure.value)))
    # the 4th query (the 2nd since) asks again: a service back up would be used again
    assert reasons == [("connection_error", False)] * 2 + [("connection_error", True), ("connection_error", False)]
    assert backend.stats.requests == 6 and backend.stats.failures == 4  # three queries of two attempts each
    # a reply that reached the service, even an error, says it is up: the count starts again
    backend = SearxngBackend("http://127.0.0.1:9", timeout=0.5, retries=0, unreachable_after=2)
    backend._unreachable_in_row = 1
    backend._once = lambda url: (None, "http_5xx", None)
    with pytest.raises(SearchFailure):
        backend.search("长江 青海", 5)
    assert backend._unreachable_in_row == 0
