"""`cdtp demo`: the main job end to end on the embedded default, fully offline.

It serves the bundled sample Baike site on loopback, crawls it depth-first with
the real crawler over HTTP, builds the benchmark with the Beam pipeline on the
DirectRunner, and answers a few DuckDB questions over the shards. Every step is
the same command a user runs by hand; the demo only chains them, so a green
demo means the README's commands work.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pipeline.errors import CdtpError

DEMO_QUERIES = (
    ("pairs per domain and split",
     "SELECT domain, split, count(*) AS pairs, sum(num_triples) AS triples "
     "FROM pairs GROUP BY ALL ORDER BY ALL"),
    ("why were triples dropped?",
     "SELECT stage, reason, count(*) AS n FROM audit WHERE kind = 'triple' AND fate = 'dropped' "
     "GROUP BY ALL ORDER BY n DESC"),
    ("a few aligned triples",
     "SELECT entity, relation, tail, match FROM triples ORDER BY entity, relation LIMIT 8"),
)


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "demo",
        help="serve the bundled sample site, crawl it and build the benchmark (offline)",
        description=__doc__,
    )
    p.add_argument("--out", default="out/demo", metavar="DIR", help="where raw pages and the build go")
    p.add_argument("--depth-limit", type=int, default=3)
    p.set_defaults(handler=run_demo)


def _cdtp(*args: str) -> None:
    """Run a cdtp subcommand in a child process (Scrapy's reactor cannot restart)."""
    cmd = [sys.executable, "-m", "pipeline.cli", *args]
    print("$ cdtp " + " ".join(args), flush=True)
    done = subprocess.run(cmd)
    if done.returncode != 0:
        raise CdtpError(f"`cdtp {args[0]}` failed with exit status {done.returncode}")


def run_demo(args) -> int:
    from crawlers.site import running_site, sample_site_dir

    out = Path(args.out)
    raw_dir, build_dir = out / "raw", out / "build"
    site = sample_site_dir()
    with running_site(site) as (_server, base_url):
        print(f"serving the sample Baike site {site} at {base_url}", flush=True)
        _cdtp("crawl", "--seeds", str(site / "seeds.txt"), "--out", str(raw_dir),
              "--base-url", base_url, "--depth-limit", str(args.depth_limit))
    _cdtp("build", "--input", str(raw_dir / "raw-*.jsonl*"), "--out", str(build_dir), "--overwrite")

    stats = json.loads((build_dir / "stats.json").read_text(encoding="utf-8"))
    print("\nstats.json funnel:")
    print(json.dumps(stats.get("funnel", stats), ensure_ascii=False, indent=1)[:3000])
    for title, sql in DEMO_QUERIES:
        print(f"\n-- {title}")
        _cdtp("query", str(build_dir), sql)
    print(f"\nDone: raw entries in {raw_dir}, shards in {build_dir}.")
    return 0
