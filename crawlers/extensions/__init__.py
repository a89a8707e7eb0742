"""Scrapy extensions of the crawl stage, one concern per module."""
