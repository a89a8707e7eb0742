"""Chinese word segmentation for the full-text index.

DuckDB's FTS tokenizer splits on whitespace after applying its `ignore`
pattern; Chinese has no spaces, so unsegmented text indexes as clause-long
"words" (40 characters on average on the real Baike pages) and a query word
matches only a run that is exactly that word: "吴明红 上海大学副校长" finds
nothing. (The issue saw the default pattern strip CJK altogether; either way
nothing useful matches.) So documents and queries are both segmented with
jieba (search mode, which also emits the sub-words of long words, e.g.
上海大学 -> 上海 / 大学 / 上海大学) and joined with spaces; the index is created
with an `ignore` pattern that only strips control characters, because an
empty pattern splits every character apart.
"""
from __future__ import annotations

import logging
import threading
import unicodedata

from transforms.search.cooccur import normalise

# Passed to create_fts_index: tokens are already clean, strip only controls.
FTS_IGNORE = r"[\x00-\x1f]+"

_lock = threading.Lock()
_ready = False


def _jieba():
    """Import and initialise jieba once per process (it loads a 5 MB
    dictionary; its log chatter is silenced)."""
    global _ready
    import jieba

    if not _ready:
        with _lock:
            if not _ready:
                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _ready = True
    return jieba


def _is_token(tok: str) -> bool:
    """Keep tokens holding at least one letter or digit (drops punctuation)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in tok)


def tokens(text: str | None) -> list[str]:
    """Normalised jieba search-mode tokens of `text`."""
    norm = normalise(text)
    if not norm:
        return []
    return [tok for tok in _jieba().cut_for_search(norm) if tok.strip() and _is_token(tok)]


def segment(text: str | None) -> str:
    """Space-joined tokens: what goes into (and is matched against) the index."""
    return " ".join(tokens(text))
