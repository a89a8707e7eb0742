"""Model specs, and `make_model(spec)`: the backend each spec names.

Model specs (recorded verbatim in results, so they must never hold a secret;
HTTP keys come from an environment variable):
  random[:SEED]                 options in a seeded random order (T2T/T2KG output as every baseline: evaluation/baselines.py)
  most-frequent                 options by how often they are the gold answer in train
  embed[:EMBEDDER]              options by cosine similarity to the question (transforms/embed.py)
  template                      T2T: the triples read out with their relation names
  openai-chat:MODEL@URL[?k=v&...]         OpenAI-compatible /chat/completions
  openai-completions:MODEL@URL[?k=v&...]  /completions (log-likelihoods with ?logprobs=1)
  hf:PATH                       local transformers causal LM (optional extra)
"""
from __future__ import annotations

import re

from evaluation.backends import Model
from pipeline.errors import CdtpError

# Options that change how requests travel, not what the model answers.
TRANSPORT_OPTIONS = ("concurrency", "timeout", "retries", "backoff", "max_wait", "key_env")


def canonical_spec(spec: str) -> str:
    """The spec that names the model in results and run identity: HTTP transport
    options dropped, so a run resumed with more concurrency is the same run and
    the leaderboard groups it under one name."""
    spec = (spec or "").strip()
    if not spec.startswith(("openai-chat:", "openai-completions:")) or "?" not in spec:
        return spec
    import urllib.parse

    head, _, query = spec.partition("?")
    kept = [(k, v) for k, v in urllib.parse.parse_qsl(query, keep_blank_values=True) if k not in TRANSPORT_OPTIONS]
    return head + ("?" + urllib.parse.urlencode(kept) if kept else "")


def make_model(spec: str, **kwargs) -> Model:
    spec = (spec or "").strip()
    kind, colon, rest = spec.partition(":")
    # An argument a baseline does not read was dropped without a word, yet kept in
    # the spec that names the run: `random:abc` or `template:x` would look like
    # another model on the leaderboard while answering as the plain baseline.
    if kind == "random" and colon and not re.fullmatch(r"-?[0-9]+", rest):
        raise CdtpError(f"model spec {spec!r}: the seed must be an integer, as in random:SEED (e.g. random:1), "
                        "or random for seed 0")
    if kind in ("most-frequent", "template") and colon:
        raise CdtpError(f"model spec {spec!r}: {kind} takes no argument; use {kind}")
    if kind in ("random", "most-frequent", "embed", "template"):
        from evaluation.baselines import make_baseline

        return make_baseline(kind, rest, spec=spec, **kwargs)
    if kind in ("openai-chat", "openai-completions"):
        from evaluation.openai_backend import OpenAIBackend

        return OpenAIBackend.from_spec(spec)
    if kind == "hf":
        from evaluation.hf_backend import HFBackend

        if not rest:
            raise CdtpError("model spec hf: needs a local model folder, e.g. hf:/models/qwen2-0.5b")
        return HFBackend(rest, spec=spec)
    raise CdtpError(f"unknown model spec {spec!r}: use random, most-frequent, embed, template, "
                    "openai-chat:MODEL@URL, openai-completions:MODEL@URL or hf:PATH")
