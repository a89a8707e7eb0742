"""Word lists kept as data (transforms/resources/*.txt): one or more words a
line, separated by spaces, `#` lines comments. Read once each by their
callers (items/kinds.countries, places.provinces), which cache them."""
from __future__ import annotations

from importlib import resources


def word_list(name: str) -> frozenset[str]:
    """The words of `transforms/resources/<name>`."""
    text = resources.files("transforms").joinpath("resources", name).read_text(encoding="utf-8")
    return frozenset(word for line in text.splitlines() if not line.startswith("#") for word in line.split())
