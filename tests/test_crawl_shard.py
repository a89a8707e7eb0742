"""`cdtp crawl --shard i/N` (issue 12, point 4): N crawler processes split the seeds by a stable hash.

The hash is crc32 of the seed key, so the split is the same on every machine
and Python version; the pinned shard numbers below would change if it were
Python's salted hash().
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from crawlers.seedlist import Seed, parse_shard, shard_of, shard_seeds
from crawlers.site import sample_site_dir
from pipeline.cli import main
from pipeline.errors import CdtpError
from tests.crawl_support import SiteProcess, read_entries, start_crawl

# The sample site's entries with one sense (a polysemous title needs its subtitle).
TITLES = ["京剧", "京沪高速铁路", "任正非", "华为", "卧龙国家级自然保护区", "唐太宗", "唐朝", "大熊猫", "曹操",
          "曹雪芹", "李白", "杜甫", "梅兰芳", "深圳", "深圳证券交易所", "秦始皇", "红楼梦", "赤壁之战", "银杏",
          "长城", "长江", "高速铁路"]


def test_every_seed_is_in_exactly_one_shard():
    seeds = [Seed(t) for t in TITLES] + [Seed("杜鹃", "植物"), Seed("杜鹃", "鸟类")]
    for n in (1, 2, 3, 7):
        shards = [shard_seeds(seeds, i, n) for i in range(n)]
        assert Counter(s for shard in shards for s in shard) == Counter(seeds)
    # Stable across processes and machines (crc32 of the seed key), pinned here.
    # Changing the hash would silently reshuffle every running crawl's seeds.
    assert [shard_of(Seed(t), 1000) for t in ("长江", "李白", "华为")] == [896, 49, 116]
    assert shard_of(Seed("杜鹃", "植物"), 1000) != shard_of(Seed("杜鹃", "鸟类"), 1000)


def test_pinned_shards_do_not_depend_on_the_python_hash_seed():
    import subprocess
    import sys

    code = ("from crawlers.seedlist import Seed, shard_of; "
            "print([shard_of(Seed(t), 5) for t in ('长江', '李白', '华为', '红楼梦')])")
    root = Path(__file__).resolve().parents[1]
    outs = {subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}).stdout for seed in ("1", "2")}
    assert len(outs) == 1


@pytest.mark.parametrize("bad", ["3/3", "-1/2", "1", "a/b", "0/0"])
def test_bad_shard_is_a_clear_error(bad, tmp_path, capsys):
    with pytest.raises(CdtpError, match="--shard takes i/N"):
        parse_shard(bad)
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("长江\n", encoding="utf-8")
    assert main(["crawl", "--seeds", str(seeds), "--out", str(tmp_path / "o"), f"--shard={bad}"]) == 2
    assert "--shard takes i/N" in capsys.readouterr().err


@pytest.mark.slow
def test_three_sharded_crawlers_store_every_seed_entry_exactly_once(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join(TITLES) + "\n", encoding="utf-8")
    site = SiteProcess(sample_site_dir())
    try:
        procs = [start_crawl(seeds, tmp_path / f"shard{i}", site.base_url, "--depth-limit", "0", "--shard", f"{i}/3")
                 for i in range(3)]
        assert [p.wait(timeout=240) for p in procs] == [0, 0, 0]
    finally:
        site.stop()
    stored = [e["title"] for i in range(3) for e in read_entries(tmp_path / f"shard{i}")]
    assert Counter(stored) == Counter(TITLES)  # every seed entry, exactly once over the three crawlers
    for i in range(3):
        mine = {e["title"] for e in read_entries(tmp_path / f"shard{i}")}
        assert mine == {s.title for s in shard_seeds([Seed(t) for t in TITLES], i, 3)}


def test_a_seed_line_that_holds_no_seed_is_named_not_dropped(tmp_path):
    # a 100,000-character title was dropped by Scrapy's URL limit with no trace in the
    # crawl's stats; a third column was ignored and `<TAB>subtitle` crawled as a title
    from crawlers.seedlist import read_seeds
    from pipeline.errors import CdtpError

    f = tmp_path / "seeds.txt"
    f.write_text("李白\n" + "长" * 100_001 + "\n李白\t\t\textra\n\tonlysub\n杜甫\t唐代诗人\n", encoding="utf-8")
    with pytest.raises(CdtpError, match="3 line\\(s\\) hold no seed \\(line 2: title_too_long; "
                                        "line 3: too_many_columns; line 4: empty_title\\)"):
        read_seeds(f)
    f.write_text("# comment\n李白\n\n杜甫\t唐代诗人\n李白\nhttps://baike.baidu.com/item/%E9%95%BF%E6%B1%9F\n",
                 encoding="utf-8")
    assert read_seeds(f) == [Seed("李白"), Seed("杜甫", "唐代诗人"), Seed("长江")]
