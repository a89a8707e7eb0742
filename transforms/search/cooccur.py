"""The co-occurrence decision of paper §3.2, as pure functions.

A triple (head, relation, tail) is corroborated when one search result for
"head tail" mentions BOTH head and tail (in its title, snippet or text). The
triple's own source page is not evidence: it is where the triple came from.
Matching is done after normalisation (full/half width via NFKC, case, runs of
whitespace) because search results and infoboxes disagree on exactly these.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from transforms.search.types import SearchResult

VERIFIED = "verified"
NOT_COOCCURRING = "not_cooccurring"
UNVERIFIED = "unverified"

_SPACES = re.compile(r"\s+")


def normalise(text: str | None) -> str:
    """NFKC (full-width -> half-width), casefold, collapse whitespace."""
    if not text:
        return ""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def build_query(head: str | None, tail: str | None) -> str:
    """The query sent for a triple: head and tail, space separated, as a user
    would type them (the relation is left out, as in the paper)."""
    return normalise(f"{head or ''} {tail or ''}")


def cache_key_query(query: str) -> str:
    """The normalised form a cache is keyed by, so "上海大学  ＳＨＵ" and
    "上海大学 shu" are one query."""
    return normalise(query)


def normalise_url(url: str | None) -> str:
    """Compare URLs loosely: scheme, host case, percent-encoding, trailing
    slash, query-free fragment. Baike URLs reach us both percent-encoded and
    not, over http and https."""
    if not url:
        return ""
    parts = urlsplit(url.strip())
    path = unquote(parts.path).rstrip("/")
    query = f"?{unquote(parts.query)}" if parts.query else ""
    return f"{parts.netloc.lower()}{path}{query}"


@dataclass(frozen=True)
class Decision:
    """status: verified | not_cooccurring | unverified. reason: cooccurs,
    no_cooccurrence, or a failure reason (timeout, http_429, ...).
    evidence_url: the first result holding both head and tail. checked: how
    many results were read (the source page excluded)."""

    status: str
    reason: str
    evidence_url: str | None = None
    checked: int = 0
    source_page_only: bool = False


def decide(head: str | None, tail: str | None, results: list[SearchResult], source_url: str | None) -> Decision:
    """Decide a triple from its search results (already cut to top k)."""
    h, t = normalise(head), normalise(tail)
    if not h or not t:
        return Decision(UNVERIFIED, "empty_query")
    source = normalise_url(source_url)
    checked = 0
    source_page_only = False
    for result in results:
        haystack = normalise(f"{result.title}\n{result.snippet}\n{result.text}")
        both = h in haystack and t in haystack
        if source and normalise_url(result.url) == source:
            source_page_only = source_page_only or both
            continue
        checked += 1
        if both:
            return Decision(VERIFIED, "cooccurs", evidence_url=result.url, checked=checked)
    return Decision(NOT_COOCCURRING, "no_cooccurrence", checked=checked, source_page_only=source_page_only)


def failed(reason: str) -> Decision:
    """The decision for a triple whose search failed: never a drop by itself."""
    return Decision(UNVERIFIED, reason)
