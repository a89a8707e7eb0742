"""The SearXNG client against hostile servers (issue 11, defect 9 and the server suite).

A raw TCP server on 127.0.0.1 misbehaves in one way per test: it hangs,
drips one byte at a time, sends a huge body (with or without a length),
garbage instead of HTTP, a cut-off body, 429 and 5xx, a redirect, deeply
nested or non-UTF-8 JSON. Every case must end, within the client's overall
deadline, in a SearchFailure with a stable reason (so a triple becomes
`unverified` with that reason), and `cdtp search web` in a clear error:
never a traceback, never an IncompleteRead, never gigabytes of memory.
"""
from __future__ import annotations

import socket
import threading
import time

import pytest

from pipeline.cli import main
from transforms.search.searxng import SearxngBackend
from transforms.search.types import FAILURE_REASONS, SearchFailure

GOOD = b'{"results": [{"url": "https://example.org/luxun", "title": "\xe9\xb2\x81\xe8\xbf\x85", "content": "x"}]}'


def _http(status: str, body: bytes, headers: dict[str, str] | None = None, length: bool = True) -> bytes:
    head = [f"HTTP/1.1 {status}", "Content-Type: application/json", "Connection: close"]
    if length:
        head.append(f"Content-Length: {len(body)}")
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class HostileServer:
    """Accepts connections and runs `behave(conn)` for each, in a thread."""

    def __init__(self, behave):
        self.behave = behave
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.stop = threading.Event()
        self.connections = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self):
        self.sock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            self.connections += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn):
        try:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            self.behave(conn, self.stop)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def close(self):
        self.stop.set()
        self.sock.close()
        self.thread.join(timeout=2)


def drip(conn, stop):
    """A valid start, then one byte every 0.3 s, for ever."""
    conn.sendall(_http("200 OK", b"", {"Content-Length": "100000"}, length=False))
    while not stop.is_set():
        conn.sendall(b" ")
        time.sleep(0.3)


def drip_headers(conn, stop):
    """Headers that never end."""
    conn.sendall(b"HTTP/1.1 200 OK\r\n")
    while not stop.is_set():
        conn.sendall(b"X: y\r\n")
        time.sleep(0.3)


def hang(conn, stop):
    stop.wait(30)


def huge_declared(conn, stop):
    conn.sendall(_http("200 OK", b"", {"Content-Length": str(1_500_000_000)}, length=False))
    block = b"0" * 65536
    while not stop.is_set():
        conn.sendall(block)


def huge_chunked(conn, stop):
    conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
    block = b"0" * 65536
    while not stop.is_set():
        conn.sendall(b"%x\r\n" % len(block) + block + b"\r\n")


def garbage(conn, stop):
    conn.sendall(b"\x00\xffthis is not HTTP at all\r\n\r\n")


def cut_body(conn, stop):
    conn.sendall(_http("200 OK", GOOD, {"Content-Length": "5000"}, length=False))


def status(code: str, headers=None, body=b"{}"):
    def behave(conn, stop):
        conn.sendall(_http(code, body, headers))
    return behave


CASES = [
    # (behaviour, expected reason, whether retried)
    (drip, "timeout", True),
    (drip_headers, "timeout", True),
    (hang, "timeout", True),
    (huge_declared, "too_large", False),
    (huge_chunked, "too_large", False),
    (garbage, "bad_response", True),
    (cut_body, "bad_response", True),
    (status("429 Too Many Requests", {"Retry-After": "3600"}), "http_429", True),
    (status("503 Service Unavailable"), "http_5xx", True),
    (status("302 Found", {"Location": "http://169.254.169.254/latest/meta-data/"}), "http_4xx", False),
    (status("200 OK", body=b'{"results": ' + b"[" * 5000 + b"]" * 5000 + b"}"), "bad_json", False),
    (status("200 OK", body=b'{"results": [{"url": "\xff\xfe"}]}'), "bad_json", False),
    (status("200 OK", body=b"<html>not json</html>"), "bad_json", False),
]

TIMEOUT = 1.0


@pytest.mark.parametrize("behave, reason, retried", CASES, ids=[c[0].__name__ if hasattr(c[0], "__name__") else str(i)
                                                                for i, c in enumerate(CASES)])
def test_every_misbehaviour_is_a_reason_within_the_deadline(behave, reason, retried):
    assert reason in FAILURE_REASONS
    server = HostileServer(behave)
    sleeps: list[float] = []
    backend = SearxngBackend(server.url, timeout=TIMEOUT, retries=1, backoff=0.01, max_backoff=0.05,
                             sleep=sleeps.append, max_bytes=1_000_000)
    started = time.monotonic()
    try:
        with pytest.raises(SearchFailure) as info:
            backend.search("鲁迅 绍兴", 10)
    finally:
        elapsed = time.monotonic() - started
        server.close()
    assert info.value.reason == reason, info.value
    attempts = 2 if retried else 1
    assert server.connections == attempts
    # The overall deadline holds per attempt (plus a little for the scheduler).
    assert elapsed < attempts * TIMEOUT + 0.8, elapsed
    # Retry-After 3600 is honoured but capped by max_backoff, never slept in full.
    assert all(s <= 0.05 for s in sleeps)


def test_a_good_server_still_answers():
    server = HostileServer(status("200 OK", body=GOOD))
    try:
        results = SearxngBackend(server.url, timeout=TIMEOUT, retries=0).search("鲁迅", 10)
    finally:
        server.close()
    assert [r.url for r in results] == ["https://example.org/luxun"] and results[0].title == "鲁迅"


@pytest.mark.parametrize("behave, reason", [(drip, "timeout"), (huge_chunked, "too_large"), (garbage, "bad_response")])
def test_search_web_command_is_a_clear_error(behave, reason, capsys):
    server = HostileServer(behave)
    started = time.monotonic()
    try:
        rc = main(["search", "web", "--url", server.url, "--timeout", "1", "鲁迅 绍兴"])
    finally:
        server.close()
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("cdtp: error: search failed: " + reason), err
    assert "Traceback" not in err and "IncompleteRead" not in err
    assert time.monotonic() - started < 2 * 1 + 2.5  # retries=1 in the command, plus back-off


# ------------------------------------------------ the local index: hostile corpora

def test_search_index_skips_corrupt_files_with_their_names(tmp_path, capsys):
    import gzip
    import json

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    good = {"url": "https://example.org/yangtze", "title": "长江", "text": "长江发源于唐古拉山脉，最终注入东海。"}
    (corpus / "a.jsonl").write_text(json.dumps(good, ensure_ascii=False) + "\n"
                                    + '{"url": "u", "text": ' + "[" * 3000 + "]" * 3000 + "}\n"
                                    + "not json\n", encoding="utf-8")
    (corpus / "b.parquet").write_bytes(b"PAR1 not really PAR1")
    (corpus / "c.parquet").write_bytes(b"")
    whole = gzip.compress(("\n".join(json.dumps(dict(good, url=f"https://example.org/{i}"), ensure_ascii=False)
                                     for i in range(3000)) + "\n").encode())
    (corpus / "d.jsonl.gz").write_bytes(whole[: len(whole) // 2])
    index = tmp_path / "corpus.duckdb"
    rc = main(["search", "index", "--input", str(corpus / "*"), "--out", str(index)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    assert "Traceback" not in captured.err
    assert "b.parquet: unreadable Parquet file" in captured.err
    assert "c.parquet: unreadable Parquet file" in captured.err
    assert ":2: bad JSON (JSON nested more than 64 levels deep)" in captured.err
    assert "d.jsonl.gz: unreadable after line" in captured.err
    assert main(["search", "query", str(index), "长江 东海"]) == 0
    assert "example.org" in capsys.readouterr().out


def test_a_port_or_a_worker_count_out_of_range_is_refused_up_front(tmp_path, capsys):
    # port 99999 was a ValueError traceback; --workers 100000 forked until the machine stalled
    assert main(["search", "web", "--url", "http://127.0.0.1:99999", "长江"]) == 2
    assert "searxng URL must be http(s)://host[:port][/path]" in capsys.readouterr().err
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"url": "u", "title": "长江", "text": "长江注入东海。"}\n', encoding="utf-8")
    for workers in ("0", "100000"):
        assert main(["search", "index", "--input", str(corpus), "--out", str(tmp_path / "i.duckdb"),
                     "--workers", workers]) == 2
        assert "--workers must be between 1 and" in capsys.readouterr().err
    assert not (tmp_path / "i.duckdb").exists()


def test_search_query_on_a_file_that_is_no_index(tmp_path, capsys):
    bogus = tmp_path / "bogus.duckdb"
    bogus.write_bytes(b"\x00" * 4096)
    assert main(["search", "query", str(bogus), "长江"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cdtp: error: ") and "Traceback" not in err


# ------------------------------------------- through the search co-occurrence stage

@pytest.mark.parametrize("behave, reason", [(drip, "timeout"), (huge_chunked, "too_large"), (garbage, "bad_response")])
def test_the_stage_marks_triples_unverified_with_the_reason(behave, reason, tmp_path):
    """What the build does with them: every triple kept as `unverified` with the reason (policy keep)."""
    from transforms.search.types import SearchConfig
    from transforms.search.validate import make_backend, validate_pairs

    server = HostileServer(behave)
    cfg = SearchConfig(enabled=True, backend="searxng", searxng_url=server.url, cache_dir=str(tmp_path / "cache"),
                       timeout=TIMEOUT, retries=0, backoff=0.01, max_backoff=0.05, max_concurrency=2)
    pairs = [{"pair_id": "p-yangtze", "entity": "长江", "source_url": "https://baike.example/yangtze",
              "num_triples": 2, "triples": [
                  {"head": "长江", "relation": "发源地", "tail": "唐古拉山脉", "start": 0, "end": 2, "match": "exact"},
                  {"head": "长江", "relation": "注入", "tail": "东海", "start": 3, "end": 5, "match": "exact"}]}]
    backend = make_backend(cfg)
    try:
        out = validate_pairs(pairs, backend, cfg)
    finally:
        backend.close()
        server.close()
    statuses = [(t["search_status"], t["search_evidence"]) for p in out.pairs for t in p["triples"]]
    assert statuses == [("unverified", reason)] * 2
