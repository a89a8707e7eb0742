"""CrawlStatsFile: `DIR/crawl-stats.json`, cumulative across restarts, written atomically.

The counters a dataset builder needs to judge a crawl (fetched, parsed,
blocked, duplicates skipped, errors by reason) must add up over a crawl that
was killed and resumed several times, so the file holds the totals: at start
the previous totals are read back, and every write is previous totals + this
run's counters (Scrapy's `cdtp/*` stats). The file is rewritten (temp file +
os.replace) after every stored entry, at most every CDTP_STATS_INTERVAL seconds
for other events, and at close; a kill loses at most the last interval of
fetch/error counts, never the file. On restart `parsed` is reconciled with
the entries actually on disk (it can never be lower), so a kill between
storing an entry and rewriting the file does not under-count.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from scrapy import signals

from crawlers.store import write_json_atomic
from pipeline.provenance import code_version

STATS_FILE = "crawl-stats.json"
_TOP = ("fetched", "parsed", "blocked", "duplicates_skipped")


def _counters(stats: dict[str, Any]) -> dict[str, Any]:
    """This run's `cdtp/*` stats as a nested dict {fetched, ..., errors: {reason: n}, ...}."""
    out: dict[str, Any] = {k: 0 for k in _TOP}
    out["errors"] = {}
    for key, value in stats.items():
        if not key.startswith("cdtp/") or not isinstance(value, (int, float)):
            continue
        name = key[len("cdtp/") :]
        if "/" in name:
            group, sub = name.split("/", 1)
            out.setdefault(group, {})[sub] = value
        else:
            out[name] = value
    return out


def _add(base: dict[str, Any], run: dict[str, Any], gauges: frozenset[str]) -> dict[str, Any]:
    total = dict(base)
    for key, value in run.items():
        if isinstance(value, dict):
            total[key] = _add(base.get(key) or {}, value, frozenset())
        elif key in gauges:
            total[key] = value
        elif isinstance(value, (int, float)):
            total[key] = (base.get(key) or 0) + value
    return total


GAUGES = frozenset({"restored_entries", "backoff_delay"})


class CrawlStatsFile:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.interval = crawler.settings.getfloat("CDTP_STATS_INTERVAL", 1.0)
        self.path: Path | None = None
        self.base: dict[str, Any] = {}
        self.runs = 0
        self._last = 0.0

    @classmethod
    def from_crawler(cls, crawler: Any) -> "CrawlStatsFile":
        ext = cls(crawler)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(ext.response_received, signal=signals.response_received)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.maybe_write, signal=signals.request_dropped)
        return ext

    def spider_opened(self, spider: Any) -> None:
        self.path = Path(spider.store.out_dir) / STATS_FILE
        if self.path.exists():
            try:
                prev = json.loads(self.path.read_text(encoding="utf-8"))
                self.base = prev.get("totals") or {}
                self.runs = int(prev.get("runs") or 0)
            except (ValueError, OSError, AttributeError):
                self.base = {}
        restored = getattr(spider, "restored", 0)
        if restored > (self.base.get("parsed") or 0):
            self.base["parsed"] = restored  # entries on disk were parsed, whatever the last write said
        self.write(finished=False)

    def item_scraped(self, *args: Any, **kwargs: Any) -> None:
        self.write(finished=False)

    def response_received(self, response: Any, request: Any, spider: Any = None) -> None:
        if "cdtp_key" in request.meta:
            self.crawler.stats.inc_value("cdtp/fetched")
        self.maybe_write()

    def maybe_write(self, *args: Any, **kwargs: Any) -> None:
        if time.monotonic() - self._last >= self.interval:
            self.write(finished=False)

    def spider_closed(self, spider: Any, reason: str) -> None:
        self.write(finished=reason == "finished", reason=reason)

    def snapshot(self) -> dict[str, Any]:
        run = _counters(self.crawler.stats.get_stats())
        totals = _add(self.base, run, GAUGES)
        for key in _TOP:
            totals.setdefault(key, 0)
        totals.setdefault("errors", {})
        return {"run": run, "totals": totals}

    def _config(self) -> dict[str, Any]:
        """What this run crawled with (the last run's, on a resumed directory)."""
        spider = self.crawler.spider
        if spider is None:
            return {}
        frontier = spider.frontier
        return {"base_url": spider.base_url, "allowed_domains": list(spider.allowed_domains),
                "depth_limit": frontier.depth_limit, "max_pages": frontier.max_pages,
                "seeds": len(spider.seeds), "shared_frontier": frontier.claims is not None}

    def write(self, finished: bool, reason: str | None = None) -> None:
        if self.path is None:
            return
        snap = self.snapshot()
        totals = snap["totals"]
        data = {
            # The headline counters, cumulative over every run on this directory.
            **{k: totals[k] for k in _TOP},
            "errors": totals["errors"],
            "totals": totals,
            "last_run": snap["run"],
            "runs": self.runs + 1,
            "entries_stored": self.crawler.spider.frontier.stored_count if self.crawler.spider else None,
            "finished": finished,
            "finish_reason": reason,
            "code_version": code_version(),  # issue 12: every output records the code that made it
            "config": self._config(),
        }
        write_json_atomic(self.path, data, fsync=finished or reason is not None)
        self._last = time.monotonic()
