"""RawEntry: one Baike entry page as the crawler saw it.

This is the contract between the crawl stage (JSON Lines shards
`raw-*.jsonl[.gz]`) and the build stage, which also accepts Parquet files with
the same fields. Field names are fixed; adding a field bumps
RAW_ENTRY_VERSION.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import pyarrow as pa

RAW_ENTRY_VERSION = "1"

INFOBOX_ITEM = pa.struct(
    [
        ("name", pa.string()),
        ("value", pa.string()),
        ("value_links", pa.list_(pa.struct([("title", pa.string()), ("url", pa.string())]))),
    ]
)
LINK = pa.struct([("title", pa.string()), ("url", pa.string())])

RAW_ENTRY_SCHEMA = pa.schema(
    [
        ("url", pa.string()),
        ("source", pa.string()),  # "baidu" | "sogou"
        ("lemma_id", pa.string()),
        ("title", pa.string()),
        ("subtitle", pa.string()),
        ("summary", pa.string()),
        ("infobox", pa.list_(INFOBOX_ITEM)),
        ("links", pa.list_(LINK)),
        ("tags", pa.list_(pa.string())),
        ("depth", pa.int32()),
        ("seed", pa.string()),
        ("fetched_at", pa.string()),  # ISO-8601 UTC
    ],
    metadata={"cdtp.schema": "raw_entry", "cdtp.version": RAW_ENTRY_VERSION},
)

RAW_ENTRY_FIELDS = tuple(RAW_ENTRY_SCHEMA.names)


@dataclass
class RawEntry:
    """One parsed entry page. `infobox` items are dicts {name, value, value_links}."""

    url: str
    source: str
    title: str
    lemma_id: str | None = None
    subtitle: str | None = None
    summary: str = ""
    infobox: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, str]] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    depth: int = 0
    seed: str | None = None
    fetched_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
