"""Parse-and-extract throughput of the Baike parsers on the real 2019 pages (not a timed test).

What is timed is exactly what the spider does per fetched page: decode the
bytes (`decode_html`), build the tree, pick the markup, extract title,
subtitle, lemma id, summary, infobox, links and tags (`parse_entry`), and the
usable-content check. Pages are read once from
../shared/data/baike-baidu-2019/pages (80-430 KB each, 18 pages) and parsed
round after round in one process; the figure is pages per second of this
process's CPU time (so it is per core and robust to a busy machine). The
median round is reported against the target of 200 pages/s/core.

    python benchmarks/bench_parse.py [--rounds 15] [--pages DIR] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from crawlers.parsers import decode_html, has_content, parse_entry  # noqa: E402

DEFAULT_PAGES = ROOT.parent / "shared" / "data" / "baike-baidu-2019" / "pages"
TARGET = 200.0


def one_round(pages: list[bytes]) -> tuple[float, int, int]:
    start = time.process_time()
    pairs = 0
    for body in pages:
        entry = parse_entry(decode_html(body), "https://baike.baidu.com/item/x")
        if has_content(entry):
            pairs += len(entry["infobox"])
    return time.process_time() - start, len(pages), pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    ap.add_argument("--json", action="store_true", help="print one JSON line instead of text")
    args = ap.parse_args(argv)
    files = sorted(args.pages.glob("*.html"))
    if not files:
        from benchmarks.results import skip

        return skip("parse", f"no pages in {args.pages}")
    pages = [f.read_bytes() for f in files]
    mb = sum(map(len, pages)) / 1e6
    one_round(pages)  # warm-up (imports, lxml caches)
    rates = []
    for _ in range(args.rounds):
        cpu, n, pairs = one_round(pages)
        rates.append(n / cpu)
    median = statistics.median(rates)
    result = {
        "pages": len(pages),
        "megabytes": round(mb, 2),
        "rounds": args.rounds,
        "median_pages_per_s_per_core": round(median, 1),
        "min": round(min(rates), 1),
        "max": round(max(rates), 1),
        "median_mb_per_s": round(median * mb / len(pages), 2),
        "target": TARGET,
        "meets_target": median >= TARGET,
    }
    from benchmarks.results import emit, figure

    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"parse+extract: {result['median_pages_per_s_per_core']} pages/s/core (median of {args.rounds} rounds, "
            f"min {result['min']}, max {result['max']}; {len(pages)} pages, {mb:.1f} MB, "
            f"{result['median_mb_per_s']} MB/s); target {TARGET:.0f}: {'met' if result['meets_target'] else 'NOT met'}"
        )
    emit("parse", [
        figure("parse + extract, real 2019 pages", result["median_pages_per_s_per_core"], "pages/s/core", f">= {TARGET:.0f}",
               note=f"median of {args.rounds} rounds, min {result['min']}, max {result['max']}"),
        figure("parse + extract bytes", result["median_mb_per_s"], "MB/s/core"),
    ])
    return 0


if __name__ == "__main__":
    sys.exit(main())
