"""The one small interface every model sits behind.

    generate(prompts) -> list[Generation]        every backend
    loglikelihood(prompt, continuations) -> list[float]
                                                 when `supports_loglikelihood`

The runner ranks multiple-choice options by log-likelihood when a backend
offers it; otherwise it asks for the full ranking of the ten letters, as the
CDTP authors' code does, and parses the answer (evaluation/ranking.py).

A prompt is a plain `str`. The runner passes `Prompt`, a `str` that also
carries its item, so offline baselines (which do not read text) can answer
from the item's fields; HTTP and local models only see the string.

Which spec makes which backend: evaluation/models.py (`make_model`). The
backends import this module, never the other way round.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Sequence



class Prompt(str):
    """A prompt string that also carries the item it was built from."""

    item: dict[str, Any] | None = None

    def __new__(cls, text: str, item: dict[str, Any] | None = None):
        obj = super().__new__(cls, text)
        obj.item = item
        return obj


@dataclass
class Generation:
    text: str = ""
    error: str | None = None  # why the call failed after retries; text is then ""
    attempts: int = 1


class Model(Protocol):
    spec: str
    supports_loglikelihood: bool

    def generate(self, prompts: Sequence[str]) -> list[Generation]:  # pragma: no cover - protocol
        ...

    def loglikelihood(self, prompt: str, continuations: Sequence[str]) -> list[float]:  # pragma: no cover
        ...

    def close(self) -> None:  # pragma: no cover - protocol
        ...
