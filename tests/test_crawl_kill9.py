"""Fault test: `cdtp crawl` killed with SIGKILL several times in a row, then resumed.

The site is generated (our own sentences) and served with a small delay per
page, so the kills land mid-crawl. However many times the crawler dies, the
stored entries (title, lemma id, depth, summary, infobox, links) must equal an
uninterrupted crawl's, with no duplicate and no torn line. Bounded in time:
each kill comes within a few seconds, and the whole test within two minutes.
"""
from __future__ import annotations

import random
import signal
import time

import pytest

from tests.crawl_support import RecordingServer, read_entries, run_crawl, start_crawl, wait_for
from tests.test_crawl_bad_input import HTML, item, legacy_page

pytestmark = pytest.mark.slow

N_PAGES = 60
KILLS = 5


def _site(delay: float) -> RecordingServer:
    """Page k links to 2k+1, 2k+2 (a tree) and back to k//3 (shorter paths found late)."""
    names = [f"词条{k:02d}" for k in range(N_PAGES)]
    routes = {}
    for k, name in enumerate(names):
        links = [(names[j], item(names[j])) for j in (2 * k + 1, 2 * k + 2, k // 3) if j < N_PAGES and j != k]
        body = legacy_page(name, f"{name}是第{k}个生成的测试词条，它链接到：", {"序号": str(k), "类别": "生成"}, links,
                           lemma_id=str(5000 + k)).encode()

        def route(handler, body=body):
            time.sleep(delay)
            return 200, HTML, body

        routes[item(name)] = route
    return RecordingServer(routes)


def _lines_written(out) -> int:
    """Entries on disk, sealed or still in an open shard (a torn last line counts as none)."""
    n = 0
    for shard in [*out.glob("raw-*.jsonl"), *out.glob(".raw-*.part")]:
        try:
            n += shard.read_bytes().count(b"\n")
        except FileNotFoundError:  # sealed between glob and read
            pass
    return n


def _view(entries: list[dict]) -> dict[str, tuple]:
    return {e["title"]: (e["lemma_id"], e["depth"], e["summary"], str(e["infobox"]), str(e["links"])) for e in entries}


def test_kill9_n_times_in_a_row_then_resume_equals_an_uninterrupted_crawl(tmp_path):
    site = _site(delay=0.25)
    slow = ["--depth-limit", "4", "--set", "CONCURRENT_REQUESTS_PER_DOMAIN=2"]
    started = time.monotonic()
    try:
        seeds = tmp_path / "seeds.txt"
        seeds.write_text("词条00\n", encoding="utf-8")
        ref_out = tmp_path / "reference"
        ref = run_crawl(seeds, ref_out, site.base_url, *slow)
        assert ref.returncode == 0, ref.stderr[-3000:]
        reference = _view(read_entries(ref_out))
        assert len(reference) > 20

        out = tmp_path / "killed"
        rng = random.Random(11)
        kills = 0
        for _ in range(KILLS):
            before = _lines_written(out) if out.exists() else 0
            proc = start_crawl(seeds, out, site.base_url, *slow)
            # kill once this run has stored something, at a random moment after that
            wait_for(lambda: _lines_written(out) > before or proc.poll() is not None, timeout=30)
            time.sleep(rng.uniform(0.0, 0.6))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.wait(30)
        assert kills >= 3, "the crawl finished before it could be killed; raise the page delay"
        final = run_crawl(seeds, out, site.base_url, *slow)
        assert final.returncode == 0, final.stderr[-3000:]
        entries = read_entries(out)  # a torn line would fail json.loads here
        assert len(entries) == len({e["title"] for e in entries})  # never stored twice
        assert _view(entries) == reference
        assert not list(out.glob(".raw-*.part"))
    finally:
        site.stop()
    assert time.monotonic() - started < 120
