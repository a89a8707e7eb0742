"""CrawlProgress: one status line on a terminal, periodic log lines otherwise.

On a TTY (stderr) the line is redrawn in place every CDTP_PROGRESS_INTERVAL
seconds; when stderr is a file or pipe (CI, nohup) a plain log line is written
every CDTP_PROGRESS_LOG_INTERVAL seconds instead, so logs stay readable.
"""
from __future__ import annotations

import logging
import sys
import time
from typing import Any

from scrapy import signals
from twisted.internet import task

logger = logging.getLogger(__name__)


class CrawlProgress:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.tty = sys.stderr.isatty()
        s = crawler.settings
        self.interval = s.getfloat("CDTP_PROGRESS_INTERVAL", 0.5) if self.tty else s.getfloat("CDTP_PROGRESS_LOG_INTERVAL", 30.0)
        self.loop: task.LoopingCall | None = None
        self.started = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler: Any) -> "CrawlProgress":
        ext = cls(crawler)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def line(self) -> str:
        st = self.crawler.stats
        g = lambda k: st.get_value("cdtp/" + k, 0)  # noqa: E731
        errors = sum(v for k, v in st.get_stats().items() if k.startswith("cdtp/errors/"))
        spider = self.crawler.spider
        stored = spider.frontier.stored_count if spider is not None else 0
        pending = len(spider.frontier.pending) if spider is not None else 0
        rate = g("fetched") / max(time.monotonic() - self.started, 1e-6)
        return (
            f"crawl: stored {stored} | fetched {g('fetched')} ({rate:.1f}/s) | new {g('parsed')} | "
            f"dup {g('duplicates_skipped')} | blocked {g('blocked')} | errors {errors} | pending {pending}"
        )

    def tick(self) -> None:
        if self.tty:
            sys.stderr.write("\r" + self.line() + "\x1b[K")
            sys.stderr.flush()
        else:
            logger.info(self.line())

    def spider_opened(self, spider: Any) -> None:
        self.loop = task.LoopingCall(self.tick)
        self.loop.start(self.interval, now=False)

    def spider_closed(self, spider: Any, reason: str) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()
        if self.tty:
            sys.stderr.write("\r" + self.line() + "\x1b[K\n")
        else:
            logger.info("%s (%s)", self.line(), reason)
