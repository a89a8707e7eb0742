"""JsonlStorePipeline: append each RawEntry to the spider's kill-safe EntryStore.

One concern: durable output. The store (crawlers.store) flushes every line and
seals shards atomically; this pipeline only opens, appends and closes it, and
keeps the field order of schemas.raw_entry.
"""
from __future__ import annotations

from typing import Any

from schemas.raw_entry import RAW_ENTRY_FIELDS


class JsonlStorePipeline:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> "JsonlStorePipeline":
        return cls(crawler)

    def open_spider(self, spider: Any = None) -> None:
        self._store = (spider or self.crawler.spider).store
        self._store.open()

    def process_item(self, item: Any, spider: Any = None) -> Any:
        entry = dict(item)
        self._store.append({name: entry.get(name) for name in RAW_ENTRY_FIELDS})
        return item

    def close_spider(self, spider: Any = None) -> None:
        self._store.close()
