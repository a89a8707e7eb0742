"""A small OpenAI-compatible server on 127.0.0.1, for tests and benchmarks.

It speaks the protocol the HTTP backend talks (POST /v1/chat/completions and
/v1/completions, error bodies, Retry-After) and answers deterministically, so
runs are reproducible and counts can be checked:
  * a multiple-choice ranking prompt (it lists options "A." … "J.") gets a
    ranking of the ten letters, a fixed permutation derived from the prompt;
  * any other prompt gets its last non-empty line echoed back;
  * completions with echo=true and max_tokens=0 return one "token" per
    character with a deterministic log-probability (log-likelihood scoring).
Faults are scripted per prompt substring: each matching request consumes the
next action of the rule: "ok", "429[:SECONDS]" (Retry-After), "500", "503",
"hang" (no reply for `hang_seconds`), "badjson". `delay` adds latency to
every reply (a model's think time, for concurrency measurements).
Every request is logged (path, prompt, status), so a test can tell exactly
which prompts were asked how often.

    with running_server(delay=0.01) as srv:
        url = srv.url          # http://127.0.0.1:PORT/v1
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LETTERS = "ABCDEFGHIJ"
_OPTION_RE = re.compile(r"^\s*([A-J])[.．、:：)]\s*\S", re.M)


def ranking_answer(prompt: str) -> str:
    """A fixed permutation of the listed letters, derived from the prompt's hash."""
    letters = sorted(set(_OPTION_RE.findall(prompt)))
    digest = hashlib.sha256(prompt.encode()).digest()
    order = sorted(letters, key=lambda ch: (digest[LETTERS.index(ch)], ch))
    return "排序：" + " > ".join(order)


def answer_for(prompt: str) -> str:
    if len(set(_OPTION_RE.findall(prompt))) >= 2:
        return ranking_answer(prompt)
    lines = [ln.strip() for ln in prompt.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def char_logprob(prev: str, ch: str) -> float:
    h = hashlib.blake2b(f"{prev}\x00{ch}".encode(), digest_size=2).digest()
    return -0.1 - (int.from_bytes(h, "big") % 1000) / 250.0


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "LocalOpenAIServer"

    def log_message(self, *args) -> None:  # quiet
        pass

    def _send(self, status: int, doc: dict | None = None, raw: bytes | None = None, headers: dict | None = None):
        if raw is not None:
            body = raw
        else:
            try:
                body = json.dumps(doc, ensure_ascii=False).encode()
            except UnicodeEncodeError:  # a scripted lone surrogate goes out as a \ud800 escape
                body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        srv = self.server
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return self._send(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
        path = self.path.split("?")[0]
        if path == "/v1/chat/completions":
            msgs = body.get("messages") or []
            prompt = "".join(m.get("content", "") for m in msgs if isinstance(m, dict))
        elif path == "/v1/completions":
            prompt = str(body.get("prompt", ""))
        else:
            return self._send(404, {"error": {"message": f"no route {path}", "type": "not_found"}})
        if srv.api_key and self.headers.get("Authorization") != f"Bearer {srv.api_key}":
            srv.record(path, prompt, 401)
            return self._send(401, {"error": {"message": "invalid api key", "type": "auth"}})
        action = srv.next_action(prompt)
        if action == "hang":
            srv.record(path, prompt, "hang")
            time.sleep(srv.hang_seconds)
            self.close_connection = True
            return None
        if action.startswith("429"):
            wait = action.partition(":")[2] or "0"
            srv.record(path, prompt, 429)
            return self._send(429, {"error": {"message": "rate limited", "type": "rate_limit"}},
                              headers={"Retry-After": wait})
        if action in ("500", "502", "503"):
            srv.record(path, prompt, int(action))
            return self._send(int(action), {"error": {"message": "server error", "type": "server_error"}})
        if srv.delay:
            time.sleep(srv.delay)
        if action == "badjson":
            srv.record(path, prompt, "badjson")
            return self._send(200, raw=b"{not json")
        srv.record(path, prompt, 200)
        model = body.get("model", "local")
        if path.endswith("/chat/completions"):
            text = self.server.answer(prompt)
            choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
            return self._send(200, {"id": "chatcmpl-local", "object": "chat.completion", "model": model,
                                    "choices": [choice]})
        if body.get("echo") and int(body.get("max_tokens") or 0) == 0:
            tokens = list(prompt)
            lps = [None] + [char_logprob(prompt[i - 1], prompt[i]) for i in range(1, len(prompt))]
            choice = {"index": 0, "text": prompt, "finish_reason": "length",
                      "logprobs": {"tokens": tokens, "token_logprobs": lps, "text_offset": list(range(len(prompt)))}}
        else:
            choice = {"index": 0, "text": self.server.answer(prompt), "finish_reason": "stop"}
        return self._send(200, {"id": "cmpl-local", "object": "text_completion", "model": model,
                                "choices": [choice]})


class LocalOpenAIServer(ThreadingHTTPServer):
    daemon_threads = True
    # The default listen backlog (5) drops connections at 32 concurrent
    # clients, which then wait a full SYN retransmit (1 s): not the server's speed.
    request_queue_size = 256

    def __init__(self, delay: float = 0.0, hang_seconds: float = 30.0, api_key: str | None = None,
                 answer=answer_for) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        # prompt -> reply text: answer_for by default; a test's own model (a judge, say) otherwise.
        self.answer = answer
        self.delay, self.hang_seconds, self.api_key = delay, hang_seconds, api_key
        self.rules: list[tuple[str, list[str]]] = []
        self.log: list[tuple[str, str, object]] = []
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def script(self, substring: str, *actions: str) -> None:
        """Requests whose prompt contains `substring` consume these actions in order."""
        with self._lock:
            self.rules.append((substring, list(actions)))

    def next_action(self, prompt: str) -> str:
        with self._lock:
            for sub, actions in self.rules:
                if sub in prompt and actions:
                    return actions.pop(0)
        return "ok"

    def record(self, path: str, prompt: str, status) -> None:
        with self._lock:
            self.log.append((path, prompt, status))

    def answered(self) -> Counter:
        """How many 200 replies each prompt got."""
        with self._lock:
            return Counter(p for _, p, s in self.log if s == 200)


@contextlib.contextmanager
def running_server(**kwargs):
    srv = LocalOpenAIServer(**kwargs)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def serve_main(argv: list[str] | None = None) -> int:
    """`python -m evaluation.local_server [--delay S]`: prints the URL, serves until killed."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--delay", type=float, default=0.0)
    args = ap.parse_args(argv)
    srv = LocalOpenAIServer(delay=args.delay)
    print(srv.url, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        srv.serve_forever()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(serve_main())

