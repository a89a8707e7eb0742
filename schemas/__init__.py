"""Explicit, versioned pyarrow schemas: the contracts between cdtp's stages.

Every Parquet output is written with one of these schemas; nothing relies on
schema inference, so a column never changes type because a shard happened to
hold only nulls.
"""
from schemas.raw_entry import RAW_ENTRY_FIELDS, RAW_ENTRY_SCHEMA, RawEntry
from schemas.items import ITEM_SCHEMA, ITEM_TRIPLE_STRUCT, ITEMS_SCHEMA_VERSION, RESULT_SCHEMA
from schemas.outputs import (
    AUDIT_SCHEMA,
    DISCARDED_TRIPLE_SCHEMA,
    PAIR_SCHEMA,
    SCHEMA_VERSION,
    TRIPLE_STRUCT,
)

__all__ = [
    "ITEM_SCHEMA",
    "ITEM_TRIPLE_STRUCT",
    "ITEMS_SCHEMA_VERSION",
    "RESULT_SCHEMA",
    "AUDIT_SCHEMA",
    "DISCARDED_TRIPLE_SCHEMA",
    "PAIR_SCHEMA",
    "RAW_ENTRY_FIELDS",
    "RAW_ENTRY_SCHEMA",
    "RawEntry",
    "SCHEMA_VERSION",
    "TRIPLE_STRUCT",
]
