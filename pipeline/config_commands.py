"""`cdtp config show [--config FILE] [--set SECTION.FIELD=JSON]...`: the effective build configuration.

Why: a build decides with defaults < --config file < --set overrides, and a
user should see the result before a long run, not only in stats.json after
it. The JSON printed on stdout is itself a valid `--config` file (it round-
trips through the same loader); the code version goes to stderr so the two
never mix.
"""
from __future__ import annotations

import json
import sys


def register(subparsers) -> None:
    c = subparsers.add_parser("config", help="show the effective build configuration",
                              description="cdtp config show [--config FILE] [--set SECTION.FIELD=JSON]...")
    sub = c.add_subparsers(dest="config_command", metavar="show")
    s = sub.add_parser("show", help="print the effective BuildConfig as JSON (a valid --config file)")
    s.add_argument("--config", metavar="FILE.json", help="BuildConfig as JSON, as `cdtp build --config`")
    s.add_argument("--set", action="append", default=[], metavar="SECTION.FIELD=JSON",
                   help="override one field, as `cdtp build --set`")
    s.add_argument("--from-build", metavar="DIR", help="show the configuration a finished build recorded")
    s.set_defaults(handler=run_show)
    c.set_defaults(handler=lambda args: (c.print_help(), 2)[1])


def run_show(args) -> int:
    from pipeline.config import BuildConfig, from_dict, load_config
    from pipeline.errors import CdtpError
    from pipeline.provenance import code_version_string

    if args.from_build:
        from pathlib import Path

        if args.config or args.set:  # they would be ignored: what is shown is what the build used
            raise CdtpError("--from-build shows the configuration a build ran with; --config and --set do not apply")
        path = Path(args.from_build) / "stats.json"
        try:
            stats = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # missing, not JSON, not UTF-8
            raise CdtpError(f"{args.from_build} is not a cdtp build output ({exc})") from None
        if not isinstance(stats, dict) or not isinstance(stats.get("config"), dict):
            raise CdtpError(f"{path} records no build configuration (a `config` object)")
        cfg = from_dict(BuildConfig, stats["config"], f"{path}: config")
        recorded = stats.get("code_version")
        version = code_version_string(recorded) if recorded else "an unrecorded code version"
        print(f"# built by {version}", file=sys.stderr)
    else:
        cfg = load_config(args.config, None, args.set)
        print(f"# {code_version_string()}", file=sys.stderr)
    sys.stdout.write(json.dumps(cfg.to_dict(), ensure_ascii=False, indent=2) + "\n")
    return 0
