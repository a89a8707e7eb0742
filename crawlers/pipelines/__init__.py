"""Item pipelines of the crawl stage, one concern per module."""
