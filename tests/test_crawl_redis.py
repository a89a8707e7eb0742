"""Two crawler processes on one Redis frontier (issue 12, point 4).

Debian's redis-server is started on 127.0.0.1 on a free port (skipped with a
reason when it is not installed; `make test` installs it as root). Both
crawlers start from the same seeds with their own --out; one is killed with
-9 in the middle and restarted. Together they must store every page a single
crawler stores, each exactly once, and no page twice in one store.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from crawlers.site import sample_site_dir
from tests.crawl_support import SiteProcess, read_entries, run_crawl, start_crawl, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

SEEDS = ["秦始皇", "李白", "华为", "长江", "大熊猫", "京剧"]
# Slow enough that a crawler can be killed in the middle of the 24-page site.
SLOW = ["--set", "DOWNLOAD_DELAY=0.5", "--set", "CONCURRENT_REQUESTS=1", "--set", "AUTOTHROTTLE_ENABLED=false"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    server = shutil.which("redis-server")
    if not server:
        pytest.skip("redis-server is not installed (Debian package redis-server; `make test` installs it as root)")
    port = _free_port()
    d = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen([server, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
                             "--dir", str(d)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def up() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0
        assert wait_for(up, timeout=20), "redis-server did not start"
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def site():
    s = SiteProcess(sample_site_dir())
    yield s
    s.stop()


def _lines(out: Path) -> int:
    """Entries written so far, the open `.part` shard included (sealed shards alone lag behind)."""
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in out.glob("*raw-*.jsonl*")) \
        if out.is_dir() else 0


def _titles(out: Path) -> list[str]:
    return [f"{e['title']}（{e['subtitle']}）" if e.get("subtitle") else e["title"] for e in read_entries(out)]


def test_two_crawlers_one_killed_store_every_page_exactly_once(redis_url, site, tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join(SEEDS) + "\n", encoding="utf-8")
    alone = run_crawl(seeds, tmp_path / "alone", site.base_url)
    assert alone.returncode == 0, alone.stderr[-2000:]
    reference = Counter(_titles(tmp_path / "alone"))
    assert len(reference) >= 20 and max(reference.values()) == 1

    shared = ["--redis", redis_url, "--redis-name", "rehearsal", *SLOW]
    a_out, b_out = tmp_path / "a", tmp_path / "b"
    a = start_crawl(seeds, a_out, site.base_url, *shared)
    b = start_crawl(seeds, b_out, site.base_url, *shared)
    try:
        assert wait_for(lambda: _lines(a_out) >= 2 and _lines(b_out) >= 1, timeout=180), "a crawler stored nothing"
        os.kill(a.pid, signal.SIGKILL)
        a.wait(timeout=30)
        stored_before = _lines(a_out)
        time.sleep(0.5)
        a = start_crawl(seeds, a_out, site.base_url, *shared)  # same --out: same owner of its claims
        assert a.wait(timeout=300) == 0
        assert b.wait(timeout=300) == 0
    finally:
        for p in (a, b):
            if p.poll() is None:
                p.kill()
                p.wait()
    a_titles, b_titles = _titles(a_out), _titles(b_out)
    assert 2 <= stored_before < len(reference), "A was not killed in the middle of the crawl"
    assert a_titles and b_titles  # both did part of the work
    together = Counter(a_titles) + Counter(b_titles)
    assert together == reference  # every page, exactly once over both crawlers, after a kill -9


def test_unreachable_redis_is_a_clear_error(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("李白\n", encoding="utf-8")
    done = run_crawl(seeds, tmp_path / "o", "http://127.0.0.1:9", "--redis", f"redis://127.0.0.1:{_free_port()}/0",
                     timeout=60)
    assert done.returncode == 2
    assert "cannot reach Redis" in done.stderr
    # a URL that is no Redis URL was a ValueError traceback
    for url, said in (("notaurl", "must specify one of the following schemes"),
                      ("redis://127.0.0.1:abc/0", "Port could not be cast")):
        done = run_crawl(seeds, tmp_path / "o2", "http://127.0.0.1:9", "--redis", url, timeout=60)
        assert done.returncode == 2 and f"cdtp: error: --redis {url}: " in done.stderr and said in done.stderr
        assert "Traceback" not in done.stderr
