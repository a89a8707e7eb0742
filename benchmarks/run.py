"""Run every benchmark in sequence (`make bench`); none of them is a timed test.

Each benchmark is its own script, run in a fresh process so one's memory and
caches never colour the next one's figures. They read the real corpora from
../shared/data beside the project root. `--quick` uses small sizes, to check
the harness itself in a few minutes; the figures quoted in the README come from
the default sizes.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time

# (name, module, default args, quick args)
BENCHMARKS = (
    ("parse", "benchmarks.bench_parse", [], ["--rounds", "3"]),
    ("clean", "benchmarks.bench_clean", [], ["--n", "2000"]),
    ("build", "benchmarks.bench_build", [], ["--n", "5000", "--small", "500", "--repeats", "1"]),
    ("search", "benchmarks.bench_search", [], ["--pairs", "100"]),
    ("split", "benchmarks.bench_split", [], ["--n", "20000", "--subset", "2000"]),
    ("neardup", "benchmarks.bench_neardup", [], ["--n", "5000", "--repeats", "1", "--texts", "500"]),
    ("embed_domain", "benchmarks.embed_domain", [], ["500"]),
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="small sizes: checks the harness, not the targets")
    ap.add_argument("names", nargs="*", help="run only these (default: all)")
    args = ap.parse_args(argv)
    failed = []
    for name, module, full, quick in BENCHMARKS:
        if args.names and name not in args.names:
            continue
        cmd = [sys.executable, "-m", module, *(quick if args.quick else full)]
        print(f"\n=== {name}: {' '.join(cmd[1:])}", flush=True)
        start = time.perf_counter()
        if subprocess.run(cmd).returncode != 0:
            failed.append(name)
        print(f"=== {name}: {time.perf_counter() - start:.1f} s", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
