"""Downloader middlewares of the crawl stage, one concern per module."""
