"""OpenAI-compatible HTTP backend: vLLM, SGLang, Ollama, LMDeploy and hosted APIs.

    openai-chat:MODEL@http://host:port/v1?concurrency=8&timeout=60&retries=4&key_env=OPENAI_API_KEY
    openai-completions:MODEL@URL[?...&logprobs=1]

* Concurrency: at most `concurrency` requests in flight (a thread pool; the
  work is waiting on sockets, so threads are the simplest bounded pool).
* Timeouts: each attempt gives up after `timeout` seconds, a hung server
  included, and counts as a retryable failure.
* Retries: 429, 5xx, timeouts and connection errors are retried up to
  `retries` times with exponential back-off and jitter; a Retry-After header
  (seconds or an HTTP date) is honoured, capped at `max_wait`. Other 4xx
  replies are not retried. A prompt that still fails returns a Generation
  with `error` set, so the runner records it instead of losing the item.
* The key: read from the environment variable `key_env` (default
  OPENAI_API_KEY) when set; it goes only into the Authorization header, never
  into the spec, logs, errors or outputs.
* Log-likelihoods (completions only, `logprobs=1`): the server echoes the
  prompt+continuation with per-token logprobs and `max_tokens` 0; the sum over
  the tokens starting at or after the continuation's offset is its score
  (the lm-evaluation-harness method).
"""
from __future__ import annotations

import http.client
import json
import os
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Sequence

from evaluation.backends import Generation
from pipeline.errors import CdtpError
from transforms.retry_after import retry_after_seconds

RETRY_STATUS = {429, 500, 502, 503, 504}


@dataclass
class HTTPOptions:
    concurrency: int = 8
    timeout: float = 60.0
    retries: int = 4
    backoff: float = 0.5  # first wait; doubles per attempt, with jitter
    max_wait: float = 60.0
    max_tokens: int = 512
    temperature: float = 0.0
    key_env: str = "OPENAI_API_KEY"
    logprobs: bool = False


def reply_text(content: object) -> tuple[str, str | None]:
    """(text, problem) of a reply's `content`/`text` field. Servers send a
    string, null, or (OpenAI content parts) a list of {"type": "text", "text": …}
    parts, whose text parts are joined; anything else (a number, an object) is
    no answer and is recorded as an error instead of reaching the parser."""
    if content is None:
        return "", None
    if isinstance(content, str):
        return content, None
    if isinstance(content, list):
        texts = [p if isinstance(p, str) else p.get("text") if isinstance(p, dict) else None for p in content]
        texts = [t for t in texts if isinstance(t, str)]
        if content and not texts:
            return "", "reply content is a list with no text part"
        return "".join(texts), None
    return "", f"reply content is {type(content).__name__}, not text"


def continuation_logprob(offsets: object, values: object, start: int) -> float:
    """Sum of the token logprobs at or after character `start` (the continuation),
    from an echoed completion's `text_offset` and `token_logprobs`. A malformed
    pair (not lists, different lengths, a non-number) is a clear CdtpError, which
    the runner records for the item."""
    if not (isinstance(offsets, list) and isinstance(values, list) and len(offsets) == len(values)):
        raise CdtpError("the server's echoed logprobs are malformed (text_offset and token_logprobs must be "
                        "lists of the same length)")
    total = 0.0
    for off, v in zip(offsets, values):
        if not isinstance(off, int) or isinstance(off, bool) or not (
                v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))):
            raise CdtpError(f"the server's echoed logprobs are malformed (offset {off!r}, logprob {v!r})")
        if off >= start and v is not None:
            total += float(v)
    return total


class _Failure(Exception):
    def __init__(self, reason: str, retryable: bool, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason, self.retryable, self.wait = reason, retryable, wait


class OpenAIBackend:
    def __init__(self, spec: str, mode: str, model: str, base_url: str, options: HTTPOptions) -> None:
        if mode not in ("chat", "completions"):
            raise CdtpError(f"unknown OpenAI mode {mode!r}")
        self.spec, self.mode, self.model, self.base_url, self.opts = spec, mode, model, base_url.rstrip("/"), options
        self.supports_loglikelihood = mode == "completions" and options.logprobs
        self._pool = ThreadPoolExecutor(max_workers=max(1, options.concurrency), thread_name_prefix="cdtp-http")
        self._rng = random.Random(0)
        self._rng_lock = threading.Lock()

    @classmethod
    def from_spec(cls, spec: str) -> OpenAIBackend:
        kind, _, rest = spec.partition(":")
        mode = kind.removeprefix("openai-")
        model, at, url = rest.partition("@")
        if not model or not at or not url.startswith(("http://", "https://")):
            raise CdtpError(f"model spec {spec!r}: expected {kind}:MODEL@http(s)://host[:port]/v1[?options]")
        url, _, query = url.partition("?")
        if any(k.lower() in ("key", "api_key", "apikey", "token") for k in urllib.parse.parse_qs(query)):
            raise CdtpError("API keys never go in the model spec (it is written to results): "
                            "export the key and name its variable with key_env=VAR")
        opts = HTTPOptions()
        for key, values in urllib.parse.parse_qs(query, keep_blank_values=True).items():
            if not hasattr(opts, key):
                raise CdtpError(f"model spec {spec!r}: unknown option {key!r} "
                                f"(known: {', '.join(HTTPOptions.__dataclass_fields__)})")
            current = getattr(opts, key)
            try:
                value = (values[-1] in ("1", "true", "yes")) if isinstance(current, bool) else type(current)(values[-1])
            except ValueError:
                raise CdtpError(f"model spec {spec!r}: bad value for {key}: {values[-1]!r}") from None
            setattr(opts, key, value)
        return cls(spec, mode, model, url, opts)

    # -- one HTTP exchange ----------------------------------------------------------------
    def _post(self, path: str, body: dict) -> dict:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.opts.key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        req = urllib.request.Request(self.base_url + path, data=json.dumps(body).encode(), headers=headers,
                                     method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.opts.timeout) as resp:
                payload = resp.read()
        except urllib.error.HTTPError as exc:
            detail = ""
            try:
                detail = json.loads(exc.read() or b"{}").get("error", {}).get("message", "")
            except (ValueError, AttributeError, OSError):
                pass
            reason = f"HTTP {exc.code}" + (f": {detail[:200]}" if detail else "")
            retryable = exc.code in RETRY_STATUS
            raise _Failure(reason, retryable, retry_after_seconds(exc.headers.get("Retry-After")) if retryable else None)
        except (TimeoutError, socket.timeout):
            raise _Failure(f"timeout after {self.opts.timeout:g}s", True)
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                raise _Failure(f"timeout after {self.opts.timeout:g}s", True)
            raise _Failure(f"connection failed: {exc.reason}", True)
        except (ConnectionError, OSError, http.client.HTTPException) as exc:  # reset, truncated reply
            raise _Failure(f"connection failed: {exc!r}", True)
        try:
            return json.loads(payload)
        except ValueError:
            raise _Failure("reply is not JSON", True)

    def _with_retries(self, path: str, body: dict) -> tuple[dict | None, str | None, int]:
        attempt = 0
        while True:
            attempt += 1
            try:
                return self._post(path, body), None, attempt
            except _Failure as fail:
                if not fail.retryable or attempt > self.opts.retries:
                    return None, fail.reason, attempt
                if fail.wait is not None:
                    wait = min(fail.wait, self.opts.max_wait)
                else:
                    with self._rng_lock:
                        jitter = self._rng.uniform(0.5, 1.0)
                    wait = min(self.opts.backoff * 2 ** (attempt - 1) * jitter, self.opts.max_wait)
                time.sleep(wait)

    def _generate_one(self, prompt: str) -> Generation:
        if self.mode == "chat":
            body = {"model": self.model, "messages": [{"role": "user", "content": str(prompt)}],
                    "temperature": self.opts.temperature, "max_tokens": self.opts.max_tokens}
            reply, err, attempts = self._with_retries("/chat/completions", body)
        else:
            body = {"model": self.model, "prompt": str(prompt), "temperature": self.opts.temperature,
                    "max_tokens": self.opts.max_tokens}
            reply, err, attempts = self._with_retries("/completions", body)
        if err:
            return Generation("", err, attempts)
        try:
            choice = reply["choices"][0]
            content = choice["message"]["content"] if self.mode == "chat" else choice["text"]
        except (KeyError, IndexError, TypeError):
            return Generation("", "reply has no choices[0] text", attempts)
        text, problem = reply_text(content)
        return Generation(text, problem, attempts)

    def generate(self, prompts: Sequence[str]) -> list[Generation]:
        return list(self._pool.map(self._generate_one, prompts))

    def generate_stream(self, prompts: Sequence[str]):
        """(index, Generation) pairs as replies arrive, so each can be journaled at once."""
        futures = {self._pool.submit(self._generate_one, p): i for i, p in enumerate(prompts)}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()

    def _loglik_one(self, prompt: str, continuation: str) -> float:
        body = {"model": self.model, "prompt": str(prompt) + continuation, "max_tokens": 0, "echo": True,
                "logprobs": 0, "temperature": 0.0}
        reply, err, _ = self._with_retries("/completions", body)
        if err:
            raise CdtpError(f"log-likelihood request failed: {err}")
        try:
            lp = reply["choices"][0]["logprobs"]
            offsets, values = lp["text_offset"], lp["token_logprobs"]
        except (KeyError, IndexError, TypeError):
            raise CdtpError("the server does not return echoed logprobs: drop logprobs=1") from None
        return continuation_logprob(offsets, values, len(str(prompt)))

    def loglikelihood(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        if not self.supports_loglikelihood:
            raise NotImplementedError("log-likelihoods need openai-completions with logprobs=1")
        return list(self._pool.map(lambda c: self._loglik_one(prompt, c), continuations))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
