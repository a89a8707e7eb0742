"""Typed configuration of `cdtp eval` (one section, like pipeline/config.py's per stage).

`identity()` is what makes two runs the same run: the same model, the same
item set and these settings. A killed run resumes only into an output folder
whose identity matches, so a resumed journal never mixes two runs.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from schemas.items import TASKS


@dataclass
class EvalConfig:
    tasks: list[str] = field(default_factory=lambda: list(TASKS))
    domains: list[str] | None = None  # None = every domain present
    split: str = "eval"
    subset: bool = False  # only items of the stratified subset (in_subset)
    limit: int | None = None  # per (task, domain), lowest item_id first
    shots: int = 0  # k-shot demonstrations from train, chosen by embedding similarity
    embedder: str = "use-m3"  # for demonstrations (transforms/embed.py spec)
    circular: int = 0  # rotations for circular evaluation (0/1 = off)
    retry_errors: bool = False  # on resume, ask again the items whose call failed
    chunk: int = 256  # prompts handed to the backend at once (bounded memory)

    def identity(self) -> dict:
        """The settings that change what is asked or how it is scored."""
        d = dataclasses.asdict(self)
        for k in ("retry_errors", "chunk"):
            d.pop(k)
        return d
