"""Crawl settings: depth-first order and politeness are explicit; a site on
this machine is crawled without the delays that protect remote servers."""
from crawlers.settings import CrawlSettings, is_loopback_url, scrapy_settings


def test_loopback_urls_are_recognised():
    assert is_loopback_url("http://127.0.0.1:8000")
    assert is_loopback_url("http://127.3.4.5/item/x")
    assert is_loopback_url("http://localhost:8080")
    assert is_loopback_url("http://[::1]:8000")
    assert not is_loopback_url("https://baike.baidu.com")
    assert not is_loopback_url("http://10.0.0.1:8000")


def test_remote_site_keeps_politeness_and_depth_first_order():
    s = scrapy_settings(CrawlSettings())
    assert s["ROBOTSTXT_OBEY"] is True and s["AUTOTHROTTLE_ENABLED"] is True
    assert s["DOWNLOAD_DELAY"] > 0 and s["CONCURRENT_REQUESTS_PER_DOMAIN"] <= 2
    assert s["DEPTH_PRIORITY"] == 0 and "Lifo" in s["SCHEDULER_MEMORY_QUEUE"]
    assert "cdtp-baike-crawler" in s["USER_AGENT"]


def test_loopback_site_drops_delays_but_still_obeys_robots():
    s = scrapy_settings(CrawlSettings(loopback=True))
    assert s["DOWNLOAD_DELAY"] == 0 and s["AUTOTHROTTLE_START_DELAY"] == 0
    assert s["ROBOTSTXT_OBEY"] is True


def test_user_overrides_win_over_the_loopback_profile():
    s = scrapy_settings(CrawlSettings(loopback=True, overrides={"DOWNLOAD_DELAY": 2.0}))
    assert s["DOWNLOAD_DELAY"] == 2.0
