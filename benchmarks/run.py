"""Run every benchmark in sequence (`make bench`) and write the results as files.

Each benchmark is its own script, run in a fresh process so one's memory and
caches never colour the next one's figures. They read the real corpora from
../shared/data beside the project root (a benchmark without its data is
recorded as skipped, with the reason, so a clean clone still gets a results
file). `--quick` uses small sizes, to check the harness itself in a few
minutes; the figures quoted in the README come from the default sizes.

Every benchmark hands over its figures through benchmarks.results.emit (a list
of {name, value, unit, target, met}); this script collects them into

* `bench/results/<date>.json` (`<date>-quick.json` for --quick): the machine
  (CPU model, cores usable, memory, load average), versions (Python and the
  libraries that set the speed, the git commit), and per benchmark its
  command, status, duration and figures;
* `bench/results/<date>.md`: the same as a Markdown table, one row per figure,
  with its target and whether it was met.

A new benchmark only needs `emit(...)` and a line in BENCHMARKS.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (name, module, default args, quick args)
BENCHMARKS = (
    ("parse", "benchmarks.bench_parse", [], ["--rounds", "3"]),
    ("clean", "benchmarks.bench_clean", [], ["--n", "2000"]),
    ("align", "benchmarks.bench_align", [], ["--n", "1000"]),
    ("build", "benchmarks.bench_build", [], ["--n", "5000", "--small", "500", "--repeats", "1"]),
    ("search", "benchmarks.bench_search", [], ["--pairs", "100"]),
    ("split", "benchmarks.bench_split", [], ["--n", "20000", "--subset", "2000"]),
    ("eval", "benchmarks.bench_eval", [], ["--items", "300", "--requests", "100", "--repeats", "1"]),
    ("items", "benchmarks.bench_items", [], ["--n", "3000", "--repeats", "1", "--workers", "1"]),
    ("embed_scale", "benchmarks.bench_embed_scale", [], ["--strings", "20000"]),
    ("typing", "benchmarks.bench_typing", [], ["--n", "2000", "--repeats", "1"]),
    ("domain", "benchmarks.embed_domain", [], ["500"]),
    ("stages", "benchmarks.bench_stages", [], ["--n", "500", "--repeats", "1"]),
    ("neardup", "benchmarks.bench_neardup", [], ["--n", "5000", "--repeats", "1", "--texts", "500"]),
)

VERSIONED = ("apache-beam", "pyarrow", "duckdb", "scrapy", "lxml", "numpy", "rapidfuzz", "jieba", "faiss-cpu")


def machine() -> dict:
    info = {
        "hostname": platform.node(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu_model"] = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                info["memory_gb"] = round(int(line.split()[1]) / 1024 / 1024, 1)
                break
    except OSError:
        pass
    return info


def versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in VERSIONED:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    try:
        out["git_commit"] = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                           timeout=10).stdout.strip() or None
    except (OSError, subprocess.TimeoutExpired):
        out["git_commit"] = None
    return out


def run_one(name: str, module: str, args: list[str]) -> dict:
    """Run one benchmark in a fresh process; its figures come back through a result file."""
    from benchmarks.results import ENV, infer_from_json, parse_stdout

    fd, result_path = tempfile.mkstemp(prefix=f"bench-{name}-", suffix=".json")
    os.close(fd)
    os.unlink(result_path)
    env = dict(os.environ, **{ENV: result_path})
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", module, *args]
    print(f"\n=== {name}: {' '.join(cmd[1:])}", flush=True)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    seconds = round(time.perf_counter() - start, 1)
    sys.stdout.write(proc.stdout)
    payload = None
    if os.path.exists(result_path):
        try:
            payload = json.loads(Path(result_path).read_text(encoding="utf-8"))
        except ValueError:
            payload = None
        os.unlink(result_path)
    if payload is None:
        payload = parse_stdout(proc.stdout) or infer_from_json(proc.stdout, name)
    record = {"name": name, "command": " ".join(cmd[1:]), "seconds": seconds, "returncode": proc.returncode}
    if proc.returncode != 0:
        record.update(status="failed", figures=(payload or {}).get("figures", []))
    elif payload is None:
        record.update(status="no_figures", figures=[])
    elif payload.get("skipped"):
        record.update(status="skipped", reason=payload["skipped"], figures=[])
    else:
        record.update(status="ok", figures=payload.get("figures", []), details=payload.get("details", {}))
        if payload.get("inferred"):
            record["note"] = "no emit(): figures inferred from its last JSON output, without targets"
    print(f"=== {name}: {record['status']}, {seconds:.1f} s", flush=True)
    return record


def _fmt(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def markdown(report: dict) -> str:
    m, v = report["machine"], report["versions"]
    lines = [
        f"# Benchmark results {report['date']}{' (quick sizes)' if report['quick'] else ''}",
        "",
        f"Machine: {m.get('cpu_model', '?')}, {m['cores_usable']} usable cores of {m['cpu_count']}, "
        f"{m.get('memory_gb', '?')} GB, load average {m['load_average']}; Python {m['python']}; "
        + ", ".join(f"{k} {val}" for k, val in v.items() if val and k != "git_commit")
        + f"; commit {(v.get('git_commit') or '?')[:12]}.",
        "",
        "| benchmark | figure | value | unit | target | met |",
        "|---|---|---|---|---|---|",
    ]
    for bench in report["benchmarks"]:
        if bench["status"] != "ok" and not bench["figures"]:
            reason = bench.get("reason") or f"exit status {bench['returncode']}"
            lines.append(f"| {bench['name']} | *{bench['status']}*: {reason} | | | | |")
            continue
        for f in bench["figures"]:
            met = {True: "yes", False: "**no**", None: ""}[f.get("met")]
            note = f" ({f['note']})" if f.get("note") else ""
            lines.append(f"| {bench['name']} | {f['name']}{note} | {_fmt(f['value'])} | {f.get('unit', '')} | "
                         f"{f.get('target') or '—'} | {met} |")
    missed = [(b["name"], f) for b in report["benchmarks"] for f in b["figures"] if f.get("met") is False]
    lines += ["", f"Targets met: {report['targets_met']} of {report['targets']}."]
    for name, f in missed:
        lines.append(f"- missed: {name} / {f['name']}: {_fmt(f['value'])} against {f['target']}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes: checks the harness, not the targets")
    ap.add_argument("--out-dir", default=str(ROOT / "bench" / "results"), help="where the .json and .md go")
    ap.add_argument("names", nargs="*", help="run only these (default: all)")
    args = ap.parse_args(argv)
    unknown = set(args.names) - {b[0] for b in BENCHMARKS}
    if unknown:
        ap.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}; known: {', '.join(b[0] for b in BENCHMARKS)}")
    started = datetime.now(timezone.utc)
    report = {"date": started.strftime("%Y-%m-%d"), "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
              "quick": args.quick, "machine": machine(), "versions": versions(), "benchmarks": []}
    for name, module, full, quick in BENCHMARKS:
        if args.names and name not in args.names:
            continue
        report["benchmarks"].append(run_one(name, module, quick if args.quick else full))
    figures = [f for b in report["benchmarks"] for f in b["figures"]]
    report["targets"] = sum(1 for f in figures if f.get("met") is not None)
    report["targets_met"] = sum(1 for f in figures if f.get("met") is True)
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = report["date"] + ("-quick" if args.quick else "")
    (out_dir / f"{stem}.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out_dir / f"{stem}.md").write_text(markdown(report), encoding="utf-8")
    print(f"\nresults: {out_dir / (stem + '.json')} and {out_dir / (stem + '.md')}", flush=True)
    return exit_status(report)


def exit_status(report: dict) -> int:
    """1 when a benchmark failed or handed over no figures: a benchmark that ran but reported nothing
    breaks the promise of the results file (every figure, with its target) as surely as a crash, and
    when it only warned, four benchmarks without `emit` went unnoticed."""
    silent = [b["name"] for b in report["benchmarks"] if b["status"] == "no_figures"]
    if silent:
        print(f"no figures from: {', '.join(silent)} (call benchmarks.results.emit)", file=sys.stderr)
    failed = [b["name"] for b in report["benchmarks"] if b["status"] == "failed"]
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed or silent else 0


if __name__ == "__main__":
    sys.exit(main())
