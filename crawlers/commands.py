"""`cdtp crawl`: the Scrapy Baike crawler's command.

The other crawl-stage commands, `cdtp seeds` and `cdtp site serve`, live in
crawlers.seed_commands and crawlers.site_commands (listed in
pipeline.cli.COMMAND_MODULES beside this module).

Registration stays cheap: Scrapy and Twisted are imported inside the handler.
"""
from __future__ import annotations

import argparse
import difflib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from pipeline.errors import CdtpError
from transforms import safejson

DEFAULT_BASE_URL = "https://baike.baidu.com"


@dataclass
class CrawlConfig:
    """Everything `cdtp crawl` needs; built from the command line, validated once."""

    seeds_file: Path
    out_dir: Path
    base_url: str = DEFAULT_BASE_URL
    allowed_domains: list[str] = field(default_factory=list)
    depth_limit: int | None = None
    max_pages: int | None = None
    contact: str | None = None
    log_level: str = "INFO"
    overrides: dict[str, object] = field(default_factory=dict)

    def validate(self) -> None:
        try:
            parts = urlsplit(self.base_url)
            parts.port  # noqa: B018 - raises on a port that is not a number in range
        except ValueError as exc:
            raise CdtpError(f"--base-url {self.base_url!r} is not a valid URL ({exc})") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CdtpError(f"--base-url must be an http(s) URL, got {self.base_url!r}")
        if self.depth_limit is not None and self.depth_limit < 0:
            raise CdtpError("--depth-limit must be >= 0")
        if self.max_pages is not None and self.max_pages < 1:
            raise CdtpError("--max-pages must be >= 1")
        if self.out_dir.exists() and not self.out_dir.is_dir():
            raise CdtpError(f"--out {self.out_dir} exists and is not a directory")
        from crawlers.hosts import HostPolicy

        try:
            HostPolicy.build(self.base_url, self.allowed_domains)
        except ValueError as exc:
            raise CdtpError(str(exc)) from None


def _setting_value(text: str) -> object:
    try:
        return safejson.loads(text)
    except ValueError:  # not JSON (a bare string), or nested too deeply
        return text


def _check_setting_type(key: str, value: object) -> None:
    """A value of the wrong type for a known setting is a clear error here, not a crash in the reactor."""
    from scrapy.settings import default_settings

    from crawlers.settings import CrawlSettings, scrapy_settings

    known = {k: getattr(default_settings, k) for k in dir(default_settings) if k.isupper()}
    known.update(scrapy_settings(CrawlSettings()))
    if key not in known:
        # A typo (`DOWNLOAD_DELAI=5`) would set nothing and crawl without the delay
        # it meant; a key of no known setting may still be an extension's.
        close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.85)
        if close:
            raise CdtpError(f"--set {key}: no such Scrapy setting; did you mean {close[0]}?")
        print(f"cdtp crawl: --set {key} is no setting of Scrapy's or cdtp's: passed on for an extension",
              file=sys.stderr, flush=True)
        return
    if known[key] is None:
        return
    default = known[key]
    if isinstance(default, bool):
        ok = isinstance(value, bool) or value in (0, 1) or str(value).lower() in ("true", "false", "0", "1")
    elif isinstance(default, (int, float)):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if ok and isinstance(default, int) and not isinstance(default, bool) and isinstance(value, float):
            ok = value.is_integer()
    elif isinstance(default, (dict, list, tuple)):
        ok = isinstance(value, (dict, list, tuple)) or isinstance(value, str)
    else:
        ok = True
    if not ok:
        raise CdtpError(f"--set {key}: expected a {type(default).__name__} like {default!r}, got {value!r}")


def _parse_set(values: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CdtpError(f"--set takes KEY=VALUE (a Scrapy setting), got {item!r}")
        key = key.strip()
        if key.upper() == "JOBDIR":
            # Scrapy keeps a JOBDIR's queues as pickles: whoever can write there can run code.
            raise CdtpError("--set JOBDIR is not supported: --out DIR is the crawl's resume state (no pickled queues)")
        out[key] = _setting_value(value)
        _check_setting_type(key, out[key])
    return out


def _lock_out_dir(out_dir: Path):
    """Create DIR and take an exclusive lock on it: two crawls appending to one DIR would
    interleave shard numbers. The OS drops the lock when the process dies, however it dies."""
    import fcntl

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        fh = open(out_dir / ".crawl.lock", "a+")
    except OSError as exc:
        raise CdtpError(f"cannot write to --out {out_dir}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.close()
        raise CdtpError(f"another `cdtp crawl` is writing to {out_dir}; wait for it or use another --out") from None
    return fh


class _NoTraceback:
    """Logging filter: keep the message, drop the traceback (an expected failure is not a crash)."""

    def filter(self, record) -> bool:  # noqa: A003 (logging API)
        if record.exc_info:
            exc = record.exc_info[1]
            record.msg = f"{record.msg} ({type(exc).__name__}: {exc})" if exc is not None else record.msg
        record.exc_info = None
        record.exc_text = None
        return True


def _quiet_tracebacks() -> None:
    """Scrapy logs a failed robots.txt fetch (host down, refused address) with a traceback;
    the failure is counted by reason, so the log keeps one line."""
    import logging

    logging.getLogger("scrapy.downloadermiddlewares.robotstxt").addFilter(_NoTraceback())


def run_crawl(args: argparse.Namespace) -> int:
    cfg = CrawlConfig(
        seeds_file=Path(args.seeds),
        out_dir=Path(args.out),
        base_url=args.base_url,
        allowed_domains=[d.lower().strip() for d in args.allowed_domain],
        depth_limit=args.depth_limit,
        max_pages=args.max_pages,
        contact=args.contact,
        log_level=args.log_level,
        overrides=_parse_set(args.set),
    )
    cfg.validate()
    from crawlers.seedlist import read_seeds

    seeds = read_seeds(cfg.seeds_file)
    if not seeds:
        raise CdtpError(f"seed file {cfg.seeds_file} holds no titles")
    if getattr(args, "shard", None):  # issue 12: N crawler processes split the seeds by a stable hash
        from crawlers.seedlist import parse_shard, shard_seeds

        i, n = parse_shard(args.shard)
        total = len(seeds)
        seeds = shard_seeds(seeds, i, n)
        print(f"cdtp crawl: shard {i}/{n}: {len(seeds)} of {total} seeds", file=sys.stderr, flush=True)
        if not seeds:
            print(f"cdtp crawl: shard {i}/{n} has no seeds; nothing to do", flush=True)
            return 0
    lock = _lock_out_dir(cfg.out_dir)  # held until the process exits (kill -9 releases it too)

    from scrapy.crawler import CrawlerProcess

    from crawlers.settings import CrawlSettings, is_loopback_url, scrapy_settings
    from crawlers.spiders.baike import BaikeSpider

    loopback = is_loopback_url(cfg.base_url)
    if loopback:
        print(f"cdtp crawl: {cfg.base_url} is on this machine: politeness delays off "
              "(--set DOWNLOAD_DELAY=... restores them)", file=sys.stderr, flush=True)
    from crawlers.hosts import HostPolicy

    policy = HostPolicy.build(cfg.base_url, cfg.allowed_domains)
    settings = CrawlSettings(
        log_level=cfg.log_level, overrides=cfg.overrides, loopback=loopback, explicit_hosts=sorted(policy.explicit_hosts)
    )
    if cfg.contact:
        settings.contact = cfg.contact
    claims = None
    if getattr(args, "redis", None):  # issue 12: one frontier and seen set shared by several crawlers
        from crawlers.shared_frontier import SharedClaims

        claims = SharedClaims(args.redis, args.redis_name, str(cfg.out_dir.resolve()))
    process = CrawlerProcess(scrapy_settings(settings))
    _quiet_tracebacks()
    crawler = process.create_crawler(BaikeSpider)
    process.crawl(
        crawler,
        seeds=seeds,
        out_dir=str(cfg.out_dir),
        base_url=cfg.base_url,
        allowed_domains=cfg.allowed_domains,
        depth_limit=cfg.depth_limit,
        max_pages=cfg.max_pages,
        claims=claims,
    )
    try:
        process.start()  # SIGINT/SIGTERM: Scrapy stops gracefully, pipelines seal the open shard
    finally:
        lock.close()
    stats_path = cfg.out_dir / "crawl-stats.json"
    reason = crawler.stats.get_value("finish_reason") if crawler.stats else None
    unreachable = None
    if stats_path.exists():
        data = json.loads(stats_path.read_text(encoding="utf-8"))
        print(
            f"cdtp crawl: {data.get('entries_stored')} entries in {cfg.out_dir} "
            f"(this run: {data['last_run'].get('parsed', 0)} new, finish reason {reason}); "
            f"stats in {stats_path}",
            flush=True,
        )
        unreachable = _site_unreachable(data["last_run"])
    if reason == "shutdown":
        print("cdtp crawl: interrupted; run the same command again to resume", flush=True)
        return 130
    if unreachable:
        print(f"cdtp crawl: error: no page could be fetched from {cfg.base_url} ({unreachable}); "
              "is the site up? The same command resumes once it is", file=sys.stderr, flush=True)
        return 1
    return 0 if reason in ("finished", "max_pages") else 1


def _site_unreachable(run: dict) -> str | None:
    """The download errors of a run that fetched nothing, else None.

    A run where every request failed to connect "finished" in Scrapy's terms;
    it is a failure to the user (a wrong --base-url, a site that is down). A
    run that fetched nothing because everything was stored already is not.
    """
    errors = {k: v for k, v in (run.get("errors") or {}).items()
              if k.startswith("download_error") or k in ("dns_error", "connection_refused", "timeout")}
    if run.get("fetched", 0) or not errors:
        return None
    return ", ".join(f"{k.removeprefix('download_error_')}: {v}" for k, v in sorted(errors.items()))


def _register_crawl(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "crawl",
        help="crawl Baike entry pages depth-first from seed titles into JSON Lines shards",
        description=(
            "Crawl Baike entry pages depth-first from seed titles. Writes DIR/raw-*.jsonl "
            "(one RawEntry per line) and DIR/crawl-stats.json. Re-running on the same DIR "
            "resumes: stored pages are never refetched nor duplicated."
        ),
    )
    p.add_argument("--seeds", required=True, metavar="FILE", help="one title per line (optionally title<TAB>subtitle)")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory (also the resume state)")
    p.add_argument("--base-url", default=DEFAULT_BASE_URL, metavar="URL", help="Baike-like site; seeds become URL/item/<title>")
    p.add_argument("--allowed-domain", action="append", default=[], metavar="D", help="extra host to fetch from, D or D:PORT (repeatable; no port means 80 and 443; subdomains included). "
                   "The base URL's host:port is always allowed; private and loopback addresses only when named here or in --base-url")
    p.add_argument("--depth-limit", type=int, default=None, metavar="N", help="follow links at most N hops from a seed")
    p.add_argument("--max-pages", type=int, default=None, metavar="N", help="stop once N entries are stored (counting earlier runs)")
    p.add_argument("--contact", default=None, help="contact URL or e-mail put in the User-Agent")
    p.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a Scrapy setting (e.g. AUTOTHROTTLE_START_DELAY=0)")
    p.add_argument("--shard", metavar="i/N", help="crawl only the seeds of shard i of N (stable hash of the seed; "
                   "N processes, each with its own --out, cover every seed exactly once)")
    p.add_argument("--redis", metavar="URL", help="share one frontier and seen set with other crawlers through "
                   "Redis (e.g. redis://127.0.0.1:6379/0); each crawler keeps its own --out")
    p.add_argument("--redis-name", default="cdtp-crawl", metavar="NAME",
                   help="name of the shared crawl in Redis (crawlers with the same name share it)")
    p.set_defaults(handler=run_crawl)


def register(subparsers: argparse._SubParsersAction) -> None:
    _register_crawl(subparsers)
