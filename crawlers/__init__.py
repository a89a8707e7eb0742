"""Scrapy Baike crawler: spiders, parsers, pipelines, middlewares and the local Baike site."""
