"""A local Baike site: serve a folder of saved entry pages under Baike's URLs.

The crawler is exercised over real HTTP on loopback, so the test and demo
site must answer the way Baike does:

* ``/item/<title>`` serves the entry with that h1 title; for a polysemous name
  (several pages share the title) it serves the default sense, here the one
  with the smallest lemma id, as Baike serves one sense rather than a list;
* ``/item/<title>/<lemma_id>`` serves exactly that sense; an id that is not a
  sense of that title is a 404, because the id is what tells senses apart;
* Sogou pages are also reachable under Sogou's ``/v<lemma_id>.htm``, and the
  old Baidu ``/view/<lemma_id>.htm`` answers with a 301 redirect to the entry's
  ``/item/`` URL, as Baike did when it moved to ``/item/``;
* ``/robots.txt`` allows ``/item/`` and disallows search and user pages (a
  ``robots.txt`` file in the folder replaces it, so a test can forbid paths);
* pages are served byte for byte with the charset the page declares (saved
  pages may be GBK), and anything else is a 404;
* two files claiming one entry (same title and lemma id) are one page when
  their bytes are identical (the first by path is served, the other listed as
  `duplicate_of`); when they differ, the server cannot know which is the
  entry, so it serves neither: the entry's URLs answer 409 Conflict naming
  both files, and both are listed at start. The same holds for one lemma id
  claimed by pages of different titles, on the id-only URLs (`/view/<id>.htm`,
  `/v<id>.htm`). The outcome never depends on file names.

Entry identity (title, subtitle, lemma id) comes from the parsers'
``page_identity``, the same function the crawler's dedup relies on, so the
server and the crawler agree on what an entry is. The folder is indexed once
at start; files that are not entry pages are listed with a reason.
"""
from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlsplit

#: Served when the folder has no robots.txt of its own.
DEFAULT_ROBOTS_TXT = """\
# Local Baike site served by `cdtp site serve`.
User-agent: *
Allow: /item/
Allow: /v
Disallow: /search/
Disallow: /usercenter/
Disallow: /historylist/
Disallow: /edit/
"""

PAGE_SUFFIXES = (".html", ".htm")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-]+)""", re.I)
_SOGOU_PATH = re.compile(r"^/v(\d+)\.htm$")
_VIEW_PATH = re.compile(r"^/view/(\d+)\.html?$")


@dataclass(frozen=True)
class SitePage:
    """One saved entry page and the identity it claims."""

    path: Path
    source: str
    title: str
    subtitle: str | None
    lemma_id: str | None
    charset: str
    # Other files claiming the same entry with different content: the entry is not served (409).
    rivals: tuple[str, ...] = ()

    def item_path(self) -> str:
        """The page's canonical Baike path (URL-encoded)."""
        from urllib.parse import quote

        base = "/item/" + quote(self.title, safe="")
        return f"{base}/{self.lemma_id}" if self.lemma_id else base


def _lookup_key(title: str) -> str:
    """Lenient title key for a second lookup: Baike resolves width and case variants."""
    return unicodedata.normalize("NFKC", title).strip().casefold()


def _sense_order(page: SitePage) -> tuple:
    lid = page.lemma_id
    return (0, int(lid), "") if lid and lid.isdigit() else (1, 0, lid or page.path.name)


def detect_charset(raw: bytes) -> str:
    """The charset to announce for a page: its `<meta charset>` when it decodes, else a guess.

    A page that declares UTF-8 but is really GBK (it happens with re-saved
    pages) is announced as gb18030, so a browser or crawler decodes it.
    """
    m = _META_CHARSET.search(raw[:4096])
    declared = m.group(1).decode("ascii", "ignore").lower() if m else None
    candidates = [declared] if declared else []
    candidates += ["utf-8", "gb18030"]
    for enc in candidates:
        try:
            raw.decode(enc)
        except (LookupError, UnicodeDecodeError):
            continue
        return "gbk" if enc in ("gbk", "gb2312", "x-gbk") else enc
    return declared or "utf-8"


@dataclass
class SiteIndex:
    """Which file answers which entry URL."""

    root: Path
    by_title: dict[str, list[SitePage]] = field(default_factory=dict)
    by_key: dict[str, list[SitePage]] = field(default_factory=dict)
    sogou_ids: dict[str, SitePage] = field(default_factory=dict)
    baidu_ids: dict[str, SitePage] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)
    id_conflicts: dict[str, tuple[str, ...]] = field(default_factory=dict)  # lemma id -> files of different titles

    @classmethod
    def build(cls, root: str | Path) -> "SiteIndex":
        from crawlers.parsers import page_identity

        root = Path(root)
        if not root.is_dir():
            raise ValueError(f"site folder {root} is not a directory")
        index = cls(root=root)
        claims: dict[tuple[str, str | None], list[tuple[str, bytes, SitePage]]] = {}
        for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in PAGE_SUFFIXES and p.is_file()):
            rel = str(path.relative_to(root))
            try:
                raw = path.read_bytes()
            except OSError as exc:
                index.skipped.append((rel, f"unreadable: {exc.strerror or exc}"))
                continue
            try:
                source, title, subtitle, lemma_id = page_identity(raw)
            except Exception as exc:  # a broken page must not stop the site
                index.skipped.append((rel, f"unparseable: {type(exc).__name__}"))
                continue
            if not title:
                index.skipped.append((rel, "no_entry_title"))
                continue
            page = SitePage(path, source, title, subtitle, lemma_id, detect_charset(raw))
            claims.setdefault((title, lemma_id), []).append((rel, raw, page))
        ids: dict[tuple[str, str], list[SitePage]] = {}
        for (title, lemma_id), copies in claims.items():
            contents: dict[bytes, str] = {}  # distinct content -> first file holding it
            for rel, raw, _ in copies:
                if raw in contents:
                    index.skipped.append((rel, f"duplicate_of:{contents[raw]}"))
                else:
                    contents[raw] = rel
            page = copies[0][2]
            if len(contents) > 1:  # different contents claim one entry: serve none of them
                files = tuple(sorted(contents.values()))
                page = SitePage(page.path, page.source, title, page.subtitle, lemma_id, page.charset, rivals=files)
                for rel in files:
                    index.skipped.append((rel, f"conflicting_claim: {title} {lemma_id or ''} also claimed by "
                                               f"{', '.join(f for f in files if f != rel)}; served as 409"))
            index.by_title.setdefault(title, []).append(page)
            index.by_key.setdefault(_lookup_key(title), []).append(page)
            if lemma_id:
                ids.setdefault(("sogou" if page.source == "sogou" else "baidu", lemma_id), []).append(page)
        for (source, lemma_id), pages in ids.items():
            table = index.sogou_ids if source == "sogou" else index.baidu_ids
            if len(pages) > 1:  # one id, several titles: the id alone names no single entry
                index.id_conflicts[lemma_id] = tuple(sorted(str(p.path.relative_to(root)) for p in pages))
            else:
                table[lemma_id] = pages[0]
        for table in (index.by_title, index.by_key):
            for senses in table.values():
                senses.sort(key=_sense_order)
        return index

    def id_conflict(self, raw_path: str) -> tuple[str, ...] | None:
        """Files of different titles claiming the lemma id an id-only URL asks for, or None."""
        path = urlsplit(raw_path).path
        m = _VIEW_PATH.match(path) or _SOGOU_PATH.match(path)
        return self.id_conflicts.get(m.group(1)) if m else None

    @property
    def pages(self) -> list[SitePage]:
        return sorted((p for senses in self.by_title.values() for p in senses), key=lambda p: str(p.path))

    def find(self, title: str, lemma_id: str | None = None) -> SitePage | None:
        senses = self.by_title.get(title) or self.by_key.get(_lookup_key(title)) or []
        if lemma_id is None:
            return senses[0] if senses else None
        for page in senses:
            if page.lemma_id == lemma_id:
                return page
        return None

    def redirect_for(self, raw_path: str) -> str | None:
        """Location for an old `/view/<lemma_id>.htm` URL of a known entry, else None."""
        m = _VIEW_PATH.match(urlsplit(raw_path).path)
        if not m:
            return None
        page = self.baidu_ids.get(m.group(1))
        return page.item_path() if page else None

    def resolve(self, raw_path: str) -> SitePage | None:
        """The page for a request path (query and fragment ignored), or None."""
        path = urlsplit(raw_path).path
        m = _SOGOU_PATH.match(path)
        if m:
            return self.sogou_ids.get(m.group(1))
        parsed = parse_item_path(path)
        if parsed is None:
            return None
        return self.find(*parsed)


def _decode_segment(segment: str) -> str | None:
    raw = unquote_to_bytes(segment)
    for enc in ("utf-8", "gb18030"):  # old Baike links were sometimes GBK-encoded
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return None


def parse_item_path(path: str) -> tuple[str, str | None] | None:
    """`/item/<title>[/<lemma_id>][/]` -> (title, lemma_id); None for any other path.

    The path is split before percent-decoding, so a title containing an
    encoded `/` (`AC%2FDC`) stays one segment.
    """
    if not path.startswith("/item/"):
        return None
    parts = path[len("/item/") :].split("/")
    if parts and parts[-1] == "":
        parts.pop()  # trailing slash
    if not parts or len(parts) > 2:
        return None
    title = _decode_segment(parts[0])
    if not title or not title.strip():
        return None
    lemma_id = None
    if len(parts) == 2:
        if not parts[1].isdigit():
            return None
        lemma_id = parts[1]
    return title, lemma_id


class BaikeSiteHandler(BaseHTTPRequestHandler):
    """GET/HEAD handler; the index and robots text hang off the server object."""

    server_version = "cdtp-baike-site/1"
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        self._answer(send_body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(send_body=False)

    def _answer(self, send_body: bool) -> None:
        server: BaikeSiteServer = self.server  # type: ignore[assignment]
        path = urlsplit(self.path).path
        if path == "/robots.txt":
            self._send(HTTPStatus.OK, "text/plain; charset=utf-8", server.robots_txt.encode("utf-8"), send_body)
            return
        rivals = server.index.id_conflict(self.path)
        if rivals:
            self._conflict(rivals, send_body)
            return
        location = server.index.redirect_for(self.path)
        if location is not None:
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        page = server.index.resolve(self.path)
        if page is None:
            body = "<html><head><meta charset=\"utf-8\"><title>百度百科——错误页</title></head>" \
                   "<body><p>抱歉，您所访问的页面不存在</p></body></html>"
            self._send(HTTPStatus.NOT_FOUND, "text/html; charset=utf-8", body.encode("utf-8"), send_body)
            return
        if page.rivals:
            self._conflict(page.rivals, send_body)
            return
        try:
            body = page.path.read_bytes()
        except OSError:
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"page vanished", send_body)
            return
        self._send(HTTPStatus.OK, f"text/html; charset={page.charset}", body, send_body)

    def _conflict(self, files: tuple[str, ...], send_body: bool) -> None:
        text = "several files claim this entry with different contents: " + ", ".join(files)
        self._send(HTTPStatus.CONFLICT, "text/plain; charset=utf-8", text.encode("utf-8"), send_body)

    def _send(self, status: HTTPStatus, content_type: str, body: bytes, send_body: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (size cap, shutdown); nothing to do

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (http.server API)
        if not getattr(self.server, "quiet", False):
            super().log_message(format, *args)


class BaikeSiteServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], index: SiteIndex, robots_txt: str, quiet: bool = False):
        super().__init__(address, BaikeSiteHandler)
        self.index = index
        self.robots_txt = robots_txt
        self.quiet = quiet

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{port}"


def make_server(
    root: str | Path, host: str = "127.0.0.1", port: int = 0, *, quiet: bool = False, robots_txt: str | None = None
) -> BaikeSiteServer:
    """Index `root` and bind a server (port 0 picks a free port); not started yet.

    Raises ValueError for a missing folder or a folder without any entry page,
    OSError when the address cannot be bound.
    """
    index = SiteIndex.build(root)
    if not index.by_title:
        reasons = ", ".join(f"{f}: {r}" for f, r in index.skipped[:5]) or "no .html files"
        raise ValueError(f"no entry page found in {root} ({reasons})")
    if robots_txt is None:
        own = Path(root) / "robots.txt"
        robots_txt = own.read_text(encoding="utf-8") if own.is_file() else DEFAULT_ROBOTS_TXT
    return BaikeSiteServer((host, port), index, robots_txt, quiet=quiet)


def serve_in_thread(
    root: str | Path, host: str = "127.0.0.1", port: int = 0, *, quiet: bool = True, robots_txt: str | None = None
) -> tuple[BaikeSiteServer, str]:
    """Start the site in a daemon thread; returns (server, base_url). Stop with `stop(server)`."""
    server = make_server(root, host, port, quiet=quiet, robots_txt=robots_txt)
    thread = threading.Thread(target=server.serve_forever, name=f"baike-site-{server.server_address[1]}", daemon=True)
    thread.start()
    server._thread = thread  # type: ignore[attr-defined]
    return server, server.base_url


def stop(server: BaikeSiteServer) -> None:
    """Stop a server started by `serve_in_thread` and release its port."""
    server.shutdown()
    server.server_close()
    thread = getattr(server, "_thread", None)
    if thread is not None:
        thread.join(timeout=5)


class running_site:
    """Context manager: `with running_site(folder) as (server, base_url): ...`."""

    def __init__(self, root: str | Path, **kwargs):
        self._root, self._kwargs = root, kwargs
        self._server: BaikeSiteServer | None = None

    def __enter__(self) -> tuple[BaikeSiteServer, str]:
        self._server, base = serve_in_thread(self._root, **self._kwargs)
        return self._server, base

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            stop(self._server)


def sample_site_dir() -> Path:
    """The bundled sample site (installed as package data)."""
    return Path(__file__).resolve().parent / "sample_site"
