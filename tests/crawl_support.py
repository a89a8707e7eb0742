"""Helpers for crawl tests: run `cdtp crawl` / `cdtp site serve` in subprocesses, read shards.

Each crawl runs in its own process (a Twisted reactor cannot restart), against
a server on 127.0.0.1 started by the test.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
CDTP = [sys.executable, "-m", "pipeline.cli"]

# Loopback crawls: AutoThrottle stays on but may go fast; no politeness delay.
FAST = [
    "--set", "DOWNLOAD_DELAY=0",
    "--set", "AUTOTHROTTLE_START_DELAY=0",
    "--set", "AUTOTHROTTLE_MAX_DELAY=0.05",
    "--set", "AUTOTHROTTLE_TARGET_CONCURRENCY=8",
    "--set", "CONCURRENT_REQUESTS_PER_DOMAIN=8",
    "--set", "CDTP_BLOCK_BACKOFF=0.05",
    "--set", "DOWNLOAD_TIMEOUT=10",
    "--log-level", "WARNING",
]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("http_proxy", None)
    env.pop("HTTP_PROXY", None)
    return env


def crawl_cmd(seeds: Path, out: Path, base_url: str, *extra: str) -> list[str]:
    return [*CDTP, "crawl", "--seeds", str(seeds), "--out", str(out), "--base-url", base_url, *FAST, *extra]


def run_crawl(seeds: Path, out: Path, base_url: str, *extra: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(
        crawl_cmd(seeds, out, base_url, *extra), cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=timeout
    )


def start_crawl(seeds: Path, out: Path, base_url: str, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        crawl_cmd(seeds, out, base_url, *extra), cwd=ROOT, env=_env(),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


class SiteProcess:
    """`cdtp site serve DIR --port 0` in a subprocess; base_url parsed from its first line."""

    def __init__(self, folder: Path) -> None:
        self.proc = subprocess.Popen(
            [*CDTP, "site", "serve", str(folder), "--port", "0", "--quiet"],
            cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = self.proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+)", line)
        if not m:
            self.stop()
            raise RuntimeError(f"site server did not start: {line!r} {self.proc.stderr.read()}")
        self.base_url = m.group(1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def read_entries(out: Path) -> list[dict]:
    """Every entry in the sealed shards (raw-*.jsonl); a torn line would fail the test."""
    entries = []
    for shard in sorted(out.glob("raw-*.jsonl")):
        for line in shard.read_text(encoding="utf-8").splitlines():
            entries.append(json.loads(line))
    return entries


def read_stats(out: Path) -> dict:
    return json.loads((out / "crawl-stats.json").read_text(encoding="utf-8"))


Route = Callable[[BaseHTTPRequestHandler], tuple[int, dict[str, str], bytes]]


class RecordingServer:
    """A tiny HTTP server on 127.0.0.1 with programmable routes; records every path asked for.

    Used where the test needs responses a Baike site would not give on
    purpose (5xx, redirect loops, verification pages, oversized bodies). A
    callable route returns (status, headers, body), or None when it wrote the
    whole answer itself (a hang, a drip, a body without Content-Length).
    """

    def __init__(self, routes: dict[str, Route | tuple[int, dict[str, str], bytes]], host: str = "127.0.0.1") -> None:
        self.routes = routes
        self.hits: list[str] = []
        self.user_agents: set[str] = set()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802
                from urllib.parse import unquote

                path = unquote(self.path)
                outer.hits.append(path)
                outer.user_agents.add(self.headers.get("User-Agent", ""))
                route = outer.routes.get(path)
                if route is None:
                    status, headers, body = 404, {"Content-Type": "text/html; charset=utf-8"}, b"<html><body>not found</body></html>"
                elif callable(route):
                    answer = route(self)
                    if answer is None:
                        return
                    status, headers, body = answer
                else:
                    status, headers, body = route
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address) -> None:
                pass  # the crawler hanging up on an oversized body is expected

        self.server = Server((host, 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.port = self.server.server_address[1]
        self.base_url = f"http://{host}:{self.port}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def wait_for(predicate: Callable[[], bool], timeout: float = 30.0, step: float = 0.05) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return False
