"""The crawler on the bundled sample site (own pages, both Baidu markups), served by `cdtp site serve`.

Checks what the real 2019 pages cannot: a polysemous seed resolved to the
asked sense, and a restart on a completed output directory fetching nothing.
"""
from __future__ import annotations

import pytest

from crawlers.site import sample_site_dir
from tests.crawl_support import SiteProcess, read_entries, read_stats, run_crawl

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sample_site():
    site = SiteProcess(sample_site_dir())
    yield site
    site.stop()


def test_polysemous_seed_and_restart_without_refetch(sample_site, tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("杜鹃\t杜鹃科杜鹃属鸟类\n长江\n", encoding="utf-8")
    out = tmp_path / "out"
    first = run_crawl(seeds, out, sample_site.base_url, "--depth-limit", "1")
    assert first.returncode == 0, first.stderr[-3000:]
    entries = read_entries(out)
    by_seed = {e["seed"]: e for e in entries if e["depth"] == 0}
    bird = by_seed["杜鹃（杜鹃科杜鹃属鸟类）"]
    assert (bird["title"], bird["subtitle"]) == ("杜鹃", "杜鹃科杜鹃属鸟类")  # not the default sense
    assert bird["url"].endswith("/" + bird["lemma_id"])
    assert read_stats(out)["totals"]["notes"]["seed_sense_redirected"] == 1
    ids = [e["lemma_id"] for e in entries]
    assert len(ids) == len(set(ids))
    assert {e["source"] for e in entries} == {"baidu"}

    again = run_crawl(seeds, out, sample_site.base_url, "--depth-limit", "1")
    assert again.returncode == 0, again.stderr[-3000:]
    stats = read_stats(out)
    assert stats["last_run"]["fetched"] == 0  # every entry (and the sense seed) known from disk
    assert stats["last_run"]["restored_entries"] == len(entries)
    assert read_entries(out) == entries and stats["runs"] == 2


def test_resume_after_the_site_moved_to_another_port(sample_site, tmp_path):
    """Stored links are absolute; a restart against a new --base-url still follows them."""
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("长江\n", encoding="utf-8")
    out = tmp_path / "out"
    first = run_crawl(seeds, out, sample_site.base_url, "--depth-limit", "0")
    assert first.returncode == 0, first.stderr[-3000:]
    assert len(read_entries(out)) == 1
    moved = SiteProcess(sample_site_dir())
    try:
        again = run_crawl(seeds, out, moved.base_url, "--depth-limit", "1")
        assert again.returncode == 0, again.stderr[-3000:]
    finally:
        moved.stop()
    entries = read_entries(out)
    assert len(entries) > 1 and all(e["depth"] <= 1 for e in entries)
    assert read_stats(out)["totals"].get("links_offsite_skipped", 0) == 0
