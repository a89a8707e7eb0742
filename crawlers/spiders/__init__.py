"""Scrapy spiders of the crawl stage."""
