"""`cdtp site serve DIR`: serve saved entry pages under Baike URLs on loopback."""
from __future__ import annotations

import argparse
import signal
import sys

from pipeline.errors import CdtpError


def register(subparsers) -> None:
    # Another crawler module may own `site` one day; a double registration must
    # not break the whole command line.
    if "site" in subparsers.choices:
        return
    site = subparsers.add_parser(
        "site",
        help="a local Baike site built from saved entry pages",
        description="Serve a folder of saved Baike entry pages the way the site does, for offline crawls.",
    )
    site_sub = site.add_subparsers(dest="site_command", metavar="SUBCOMMAND")
    serve = site_sub.add_parser(
        "serve",
        help="serve DIR under /item/<title>[/<lemma_id>] with a robots.txt",
        description=(
            "Index the .html pages in DIR by their h1 title and lemma id and serve them under "
            "/item/<title> and /item/<title>/<lemma_id> (Sogou pages also under /v<id>.htm). "
            "Unknown entries are 404. A robots.txt in DIR replaces the default one. "
            "Without DIR, the bundled sample site is served."
        ),
    )
    serve.add_argument("dir", nargs="?", default=None, metavar="DIR", help="folder of saved pages (default: bundled sample site)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (0 = any free port; default 8000)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--robots", default=None, metavar="FILE", help="serve this robots.txt instead")
    serve.add_argument("--quiet", action="store_true", help="do not log requests")
    serve.set_defaults(handler=run_serve)
    site.set_defaults(handler=lambda args: (site.print_help(), 2)[1])


def run_serve(args: argparse.Namespace) -> int:
    from pathlib import Path

    from crawlers.site import make_server, sample_site_dir

    from pipeline.listen import listen_address

    root = Path(args.dir) if args.dir else sample_site_dir()
    host, port = listen_address(args.host, args.port)
    robots = None
    if args.robots:
        try:
            robots = Path(args.robots).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CdtpError(f"cannot read --robots {args.robots}: {exc}") from exc
    try:
        server = make_server(root, host, port, quiet=args.quiet, robots_txt=robots)
    except ValueError as exc:
        raise CdtpError(str(exc)) from exc
    except OSError as exc:
        raise CdtpError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc

    index = server.index
    pages = index.pages
    polysemous = sum(1 for senses in index.by_title.values() if len(senses) > 1)
    print(f"serving {len(pages)} entry pages from {root} at {server.base_url}/item/<title>[/<lemma_id>]")
    print(f"  {len(index.by_title)} titles ({polysemous} polysemous); robots: {server.base_url}/robots.txt")
    for name, reason in index.skipped:
        print(f"  skipped {name}: {reason}")
    if pages:
        print(f"  e.g. {server.base_url}{pages[0].item_path()}")
    print("press Ctrl-C to stop", flush=True)

    def _terminate(signum, frame):  # SIGTERM: stop like Ctrl-C
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _terminate)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0
