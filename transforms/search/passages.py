"""Split page texts into search-result-sized passages.

A web search result shows a title and a ~200-character snippet, so "head and
tail co-occur in one result" is a local statement. A whole Baike page (the
上海大学 body is 56k characters) mentions almost everything, and co-occurrence
anywhere in it corroborates nothing: on the real pages, whole-page documents
verified 14 of 126 deliberately wrong (person, another person's birthplace /
school) pairs. The local index therefore indexes passages: paragraphs, cut at
sentence ends into chunks of at most `max_chars` characters.
"""
from __future__ import annotations

import re

DEFAULT_PASSAGE_CHARS = 300

_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])")


def passages(text: str | None, max_chars: int = DEFAULT_PASSAGE_CHARS) -> list[str]:
    """Paragraphs of `text`, long ones cut at sentence ends (hard cut for a
    single sentence longer than max_chars). max_chars <= 0: the whole text."""
    if not text or not text.strip():
        return []
    if max_chars <= 0:
        return [text.strip()]
    out: list[str] = []
    for para in text.splitlines():
        para = para.strip()
        if not para:
            continue
        if len(para) <= max_chars:
            out.append(para)
            continue
        chunk = ""
        for sentence in _SENTENCE_END.split(para):
            while len(sentence) > max_chars:  # one over-long sentence
                if chunk:
                    out.append(chunk)
                    chunk = ""
                out.append(sentence[:max_chars])
                sentence = sentence[max_chars:]
            if len(chunk) + len(sentence) > max_chars and chunk:
                out.append(chunk)
                chunk = ""
            chunk += sentence
        if chunk.strip():
            out.append(chunk.strip())
    return out
