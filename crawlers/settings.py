"""Scrapy settings of the crawl stage, as one function of a typed config.

Everything that shapes the crawl is set here explicitly rather than left to
Scrapy defaults, because later stages and reproducibility depend on it:

* depth-first order: LIFO memory and disk queues, DEPTH_PRIORITY = 0 and a
  plain priority queue (entry depth itself is tracked by crawlers.frontier);
* politeness: robots.txt obeyed, AutoThrottle on, per-domain concurrency, an
  identifying User-Agent carrying a contact address;
* safety: only allowed host:port pairs, no private addresses unless named
  (crawlers.hosts, checked on links, redirects, every request and every DNS
  answer), response size cap, bounded redirects, retries that honour
  Retry-After, no cookies;
* no JOBDIR: the output directory is the durable state (crawlers.store).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DEFAULT_CONTACT = "https://github.com/cdtp/cdtp (set --contact to your own address)"


@dataclass
class CrawlSettings:
    contact: str = DEFAULT_CONTACT
    obey_robots: bool = True
    concurrency_per_domain: int = 2
    autothrottle_start_delay: float = 1.0
    autothrottle_max_delay: float = 60.0
    autothrottle_target_concurrency: float = 1.0
    download_delay: float = 0.5
    max_response_bytes: int = 8 * 1024 * 1024
    download_timeout: float = 30.0
    redirect_max_times: int = 5
    retry_times: int = 2
    block_backoff_seconds: float = 30.0
    block_retries: int = 2
    retry_after_max_seconds: float = 120.0
    retry_backoff_seconds: float = 1.0
    # Hosts named explicitly (the base URL's, --allowed-domain): only these may
    # resolve to a private or loopback address (crawlers.resolver).
    explicit_hosts: list[str] = field(default_factory=list)
    log_level: str = "INFO"
    # A site on this machine (a `cdtp site serve` mirror, a test server):
    # politeness delays protect remote servers and only slow a local crawl
    # down (814 loopback fetches took 8 minutes with them), so they are off.
    loopback: bool = False
    overrides: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.loopback:
            self.download_delay = 0.0
            self.autothrottle_start_delay = 0.0
            self.autothrottle_max_delay = 0.05
            self.autothrottle_target_concurrency = 8.0
            self.concurrency_per_domain = 8


def is_loopback_url(url: str) -> bool:
    """True for http(s) URLs on 127.0.0.0/8, ::1 or localhost."""
    import ipaddress
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def user_agent(contact: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("cdtp")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        v = "dev"
    return f"cdtp-baike-crawler/{v} (+{contact}; research dataset construction)"


def scrapy_settings(cfg: CrawlSettings) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "BOT_NAME": "cdtp",
        "LOG_LEVEL": cfg.log_level,
        "TELNETCONSOLE_ENABLED": False,
        # Depth-first: newest request first.
        "DEPTH_PRIORITY": 0,
        "DEPTH_LIMIT": 0,  # depth is enforced by crawlers.frontier (see spider docstring)
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.LifoMemoryQueue",
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleLifoDiskQueue",
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue",
        "SCHEDULER_START_MEMORY_QUEUE": "scrapy.squeues.LifoMemoryQueue",
        "SCHEDULER_START_DISK_QUEUE": "scrapy.squeues.PickleLifoDiskQueue",
        # Politeness.
        "ROBOTSTXT_OBEY": cfg.obey_robots,
        "USER_AGENT": user_agent(cfg.contact),
        "CONCURRENT_REQUESTS": max(8, cfg.concurrency_per_domain * 4),
        "CONCURRENT_REQUESTS_PER_DOMAIN": cfg.concurrency_per_domain,
        "DOWNLOAD_DELAY": cfg.download_delay,
        "DOWNLOAD_DELAY_JITTER": 0.5,
        "AUTOTHROTTLE_ENABLED": True,
        "AUTOTHROTTLE_START_DELAY": cfg.autothrottle_start_delay,
        "AUTOTHROTTLE_MAX_DELAY": cfg.autothrottle_max_delay,
        "AUTOTHROTTLE_TARGET_CONCURRENCY": cfg.autothrottle_target_concurrency,
        "COOKIES_ENABLED": False,
        # Safety.
        "DOWNLOAD_MAXSIZE": cfg.max_response_bytes,
        "DOWNLOAD_WARNSIZE": cfg.max_response_bytes // 2,
        "DOWNLOAD_TIMEOUT": cfg.download_timeout,
        "REDIRECT_MAX_TIMES": cfg.redirect_max_times,
        "RETRY_TIMES": cfg.retry_times,
        "METAREFRESH_ENABLED": False,
        "CDTP_BLOCK_BACKOFF": cfg.block_backoff_seconds,
        "CDTP_BLOCK_RETRIES": cfg.block_retries,
        "CDTP_RETRY_AFTER_MAX": cfg.retry_after_max_seconds,
        "CDTP_RETRY_BACKOFF": cfg.retry_backoff_seconds,
        "CDTP_EXPLICIT_HOSTS": list(cfg.explicit_hosts),
        "TWISTED_DNS_RESOLVER": "crawlers.resolver.PublicOnlyResolver",
        # Components, one concern each.
        "DOWNLOADER_MIDDLEWARES": {
            "crawlers.middlewares.host_guard.HostGuardMiddleware": 30,
            "crawlers.middlewares.shared_claims.SharedClaimsMiddleware": 35,
            "crawlers.middlewares.antibot.AntiBotMiddleware": 40,
            "crawlers.middlewares.retry_after.RetryAfterMiddleware": 560,
            "crawlers.middlewares.offsite_redirect.OffsiteRedirectMiddleware": 650,
            "crawlers.middlewares.antibot.CaptchaRedirectMiddleware": 660,
        },
        "ITEM_PIPELINES": {"crawlers.pipelines.jsonl_store.JsonlStorePipeline": 300},
        "EXTENSIONS": {
            "crawlers.extensions.crawl_stats.CrawlStatsFile": 500,
            "crawlers.extensions.progress.CrawlProgress": 510,
            "scrapy.extensions.logstats.LogStats": None,
        },
        "FEEDS": {},
    }
    settings.update(cfg.overrides)
    return settings
