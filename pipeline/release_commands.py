"""`cdtp release --shards DIR --out DIR` and `cdtp release verify DIR`.

The release is made from a finished `cdtp build` folder (pipeline/release.py);
`verify` recomputes every file's sha256 and row count against manifest.json
and exits 2 on the first changed byte, listing every problem it found.
"""
from __future__ import annotations

from pathlib import Path


def register(subparsers) -> None:
    r = subparsers.add_parser(
        "release",
        help="make a dataset release (card, plots, manifest) from a build, or verify one",
        description="cdtp release --shards BUILD_DIR --out RELEASE_DIR: copy the build's shards into a "
                    "Hugging Face-loadable folder with a dataset card (README.md), plots and a manifest. "
                    "cdtp release verify RELEASE_DIR: check every file against the manifest.",
    )
    r.add_argument("--shards", metavar="DIR", help="a `cdtp build` output folder (local)")
    r.add_argument("--out", metavar="DIR", help="the release folder to create")
    r.add_argument("--name", default="CDTP-style Chinese data-text pairs", help="pretty name on the card")
    r.add_argument("--license", default="other", help="Hugging Face license id of the release (default: other)")
    r.add_argument("--license-name", default="encyclopedia-terms",
                   help="name of the license when --license other (default: encyclopedia-terms)")
    r.add_argument("--license-link", help="where the license text is")
    r.add_argument("--include-audit", action="store_true",
                   help="also ship the audit table (one row per input entry and triple; large)")
    r.add_argument("--overwrite", action="store_true", help="replace a non-empty --out")
    r.set_defaults(handler=run_release)
    sub = r.add_subparsers(dest="release_command", metavar="verify")
    v = sub.add_parser("verify", help="check a release folder against its manifest.json")
    v.add_argument("dir", metavar="DIR")
    v.set_defaults(handler=run_verify)


def run_release(args) -> int:
    from pipeline.errors import CdtpError
    from pipeline.release import make_release

    if not args.shards or not args.out:
        raise CdtpError("cdtp release needs --shards BUILD_DIR and --out RELEASE_DIR (or: cdtp release verify DIR)")
    for flag, value in (("--shards", args.shards), ("--out", args.out)):
        if "://" in value:  # Path() would make `gs://b/x` the local `gs:/b/x` and say it holds no build
            raise CdtpError(f"{flag} {value}: a release is made from and into local folders; copy the build "
                            "first (gsutil -m cp -r / aws s3 sync)")
    out = Path(args.out)
    manifest = make_release(Path(args.shards), out, name=args.name, license=args.license,
                            license_name=args.license_name, license_link=args.license_link,
                            include_audit=args.include_audit, overwrite=args.overwrite)
    rows = ", ".join(f"{n} {sum(c['rows'].values()):,}" for n, c in manifest["configs"].items()
                     if c["domain"] is None)
    print(f"cdtp release: {manifest['totals']['files']} files, {manifest['totals']['bytes']:,} bytes "
          f"({rows} rows) in {out}; card {out / 'README.md'}, plots in {out / 'plots'}, manifest "
          f"{out / 'manifest.json'}")
    return 0


def run_verify(args) -> int:
    from pipeline.errors import CdtpError
    from pipeline.release_manifest import verify_release

    problems, manifest = verify_release(Path(args.dir))
    if problems:
        raise CdtpError(f"release {args.dir} does not match its manifest ({len(problems)} problem"
                        f"{'s' if len(problems) != 1 else ''}):\n  - " + "\n  - ".join(problems))
    print(f"cdtp release verify: {args.dir} OK, {manifest['totals']['files']} files, "
          f"{manifest['totals']['bytes']:,} bytes match manifest.json")
    return 0
