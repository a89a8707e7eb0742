"""`cdtp demo`: the main job end to end on the embedded default, fully offline.

It serves the bundled sample Baike site on loopback, crawls it depth-first with
the real crawler over HTTP, indexes a search corpus for the co-occurrence
validation (paper §3.2), builds the benchmark with the Beam pipeline on the
DirectRunner, and answers a few DuckDB questions over the shards. Every step is
the same command a user runs by hand; the demo only chains them, so a green
demo means the README's commands work.

Why a bundled search corpus: §3.2 keeps a triple only if head and tail
co-occur in a top-10 search result OTHER than the triple's own page. Offline,
the 24 sample pages alone corroborate almost nothing, so
crawlers/sample_site/search_corpus.jsonl stands in for the web: short news,
travel, textbook, museum and encyclopedia-like documents (our own sentences,
example.org/.com URLs) that state most, deliberately not all, of the sample
pages' facts. The index covers that corpus plus the crawled pages.
"""
from __future__ import annotations

import json
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from pipeline.errors import CdtpError

SEARCH_CORPUS = "search_corpus.jsonl"  # in crawlers/sample_site/

DEMO_QUERIES = (
    ("pairs per domain and split",
     "SELECT domain, split, count(*) AS pairs, sum(num_triples) AS triples "
     "FROM pairs GROUP BY ALL ORDER BY ALL"),
    ("why were triples dropped?",
     "SELECT stage, reason, count(*) AS n FROM audit WHERE kind = 'triple' AND fate = 'dropped' "
     "GROUP BY ALL ORDER BY n DESC, stage, reason"),
    ("a few aligned triples",
     "SELECT entity, relation, tail, match FROM triples ORDER BY entity, relation, tail LIMIT 8"),
    ("search evidence of kept triples (§3.2)",
     "SELECT entity, relation, tail, search_status, search_evidence FROM triples "
     "ORDER BY entity, relation, tail LIMIT 8"),
    ("triples the search co-occurrence validation dropped",
     "SELECT head, relation, tail, reason, json_extract_string(detail, '$.query') AS query "
     "FROM audit WHERE stage = 'search_validation' AND kind = 'triple' ORDER BY head, tail"),
)


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "demo",
        help="serve the bundled sample site, crawl it and build the benchmark (offline)",
        description=__doc__,
    )
    p.add_argument("--out", default="out/demo", metavar="DIR", help="where raw pages and the build go")
    p.add_argument("--depth-limit", type=int, default=3)
    p.add_argument("--search-corpus", metavar="JSONL", default=None,
                   help="{url,title,text} documents standing in for web search results "
                        "(default: the bundled sample_site/search_corpus.jsonl)")
    p.set_defaults(handler=run_demo)


def _cdtp(*args: str) -> None:
    """Run a cdtp subcommand in a child process (Scrapy's reactor cannot restart)."""
    cmd = [sys.executable, "-m", "pipeline.cli", *args]
    print("$ cdtp " + " ".join(args), flush=True)
    done = subprocess.run(cmd)
    if done.returncode != 0:
        raise CdtpError(f"`cdtp {args[0]}` failed with exit status {done.returncode}")


# The port the sample site is served on when it is free. Entries record the URL
# they were fetched from (source_url), so a demo in a fresh folder gives the
# same bytes as another only when the site had the same address.
DEMO_PORT = 38462


@contextmanager
def _demo_site(site: Path):
    """`running_site` on DEMO_PORT, or on a free port when that one is taken (said on stderr)."""
    from crawlers.site import running_site

    try:
        served = running_site(site, port=DEMO_PORT)
        entered = served.__enter__()
    except OSError:
        print(f"cdtp demo: port {DEMO_PORT} is taken: the sample site is served on a free port, which "
              "the pairs' source_url will name", file=sys.stderr, flush=True)
        served = running_site(site)
        entered = served.__enter__()
    try:
        yield entered
    finally:
        served.__exit__(None, None, None)


def run_demo(args) -> int:
    from crawlers.site import sample_site_dir

    out = Path(args.out)
    raw_dir, build_dir = out / "raw", out / "build"
    index = out / "search_index.duckdb"
    site = sample_site_dir()
    corpus = Path(args.search_corpus) if args.search_corpus else site / SEARCH_CORPUS
    if not corpus.is_file():
        raise CdtpError(f"search corpus {corpus} does not exist")
    refuse_foreign_folder(out, site)
    raw_glob = str(raw_dir / "raw-*.jsonl*")
    with _demo_site(site) as (_server, base_url):
        print(f"serving the sample Baike site {site} at {base_url}", flush=True)
        _cdtp("crawl", "--seeds", str(site / "seeds.txt"), "--out", str(raw_dir),
              "--base-url", base_url, "--depth-limit", str(args.depth_limit))
    _cdtp("search", "index", "--input", str(corpus), "--input", raw_glob, "--out", str(index))
    _cdtp("build", "--input", raw_glob, "--out", str(build_dir), "--overwrite", "--search-index", str(index))

    stats = json.loads((build_dir / "stats.json").read_text(encoding="utf-8"))
    print("\nfunnel (stats.json): stage, entries in -> out, triples in -> out, drops by reason")
    for step in stats.get("funnel", []):
        drops = {f"{kind}:{reason}": n for kind, reasons in step["dropped"].items() for reason, n in reasons.items()}
        # Raw entries carry infobox rows, not triples yet: triples exist from redundant_triple on.
        triples = (f"{step['in']['triples']:>6} -> {step['out']['triples']:<6}" if step["stage"] != "read"
                   else f"{'-':>6}    {'-':<6}")
        print(f"  {step['stage']:<22} {step['in']['entries']:>5} -> {step['out']['entries']:<5}"
              f" {triples} {json.dumps(drops, ensure_ascii=False)}")
    if stats.get("search"):
        print("search validation counters: " + json.dumps(stats["search"], ensure_ascii=False))
    for title, sql in DEMO_QUERIES:
        print(f"\n-- {title}")
        _cdtp("query", str(build_dir), sql)
    if stats.get("items"):
        show_items(build_dir, stats["items"])
    _evaluate_baselines(build_dir, out / "eval")
    print(f"\nDone: raw entries in {raw_dir}, search index {index}, shards, items, results and the "
          f"leaderboard in {build_dir}.")
    return 0


# What a demo writes into its --out folder.
DEMO_NAMES = frozenset({"raw", "build", "search_index.duckdb", "eval"})


def refuse_foreign_folder(out: Path, site: Path) -> None:
    """The demo crawls into DIR/raw and rebuilds DIR/build with --overwrite: in a
    folder that holds anything else, or a crawl of other seeds, it would mix the
    sample pages into that crawl and replace that build. It runs only in a new or
    empty folder, or in an earlier demo's (whose crawl it resumes)."""
    if not out.exists():
        return
    if not out.is_dir():
        raise CdtpError(f"--out {out} is a file, where the demo's folder is wanted")
    names = {p.name for p in out.iterdir()}
    other = sorted(names - DEMO_NAMES)
    seeds = {ln.strip() for ln in (site / "seeds.txt").read_text(encoding="utf-8").splitlines() if ln.strip()}
    crawled = _seeds_crawled(out / "raw")
    if other or not crawled <= seeds:
        what = (f"holds {', '.join(other[:3])}" if other
                else f"holds a crawl from other seeds ({', '.join(sorted(crawled - seeds)[:3])})")
        raise CdtpError(f"--out {out} {what}: the demo writes only into a new or empty folder, or an earlier "
                        "demo's; give another --out")


def _seeds_crawled(raw_dir: Path) -> set[str]:
    """The seed of every entry crawled into raw_dir (a crawl's entries name the seed they came from)."""
    from transforms.safejson import loads

    found: set[str] = set()
    for path in sorted(raw_dir.glob("raw-*.jsonl")) if raw_dir.is_dir() else ():
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                try:
                    seed = loads(line).get("seed")
                except (ValueError, AttributeError):
                    continue  # a torn last line of a killed crawl: the crawl itself deals with it
                if isinstance(seed, str):
                    found.add(seed)
    return found


# The offline baselines (evaluation/baselines.py): floors any model must beat.
DEMO_BASELINES = ("random", "most-frequent", "embed", "template")


def _evaluate_baselines(build_dir: Path, eval_dir: Path) -> None:
    """Evaluate the offline baselines on the build's items, when the build has items."""
    import shutil

    items = build_dir / "items"
    if not (items.is_dir() and any(items.rglob("*.parquet"))):
        print(f"\n(no items/ in {build_dir}: the evaluation of the offline baselines is skipped)")
        return
    for spec in DEMO_BASELINES:
        run_dir = eval_dir / spec
        shutil.rmtree(run_dir, ignore_errors=True)  # a demo run starts afresh, like its build
        _cdtp("eval", "--items", str(build_dir), "--model", spec, "--out", str(run_dir))
    print("\n-- offline baselines on the demo items (results table)")
    _cdtp("query", str(build_dir),
          "SELECT task, metric, model, round(value, 4) AS value, n FROM results WHERE domain = 'ALL' "
          "AND metric IN ('acc', 'mrr', 'f1_cdtp', 'bleu4', 'rougeL', 'f1') ORDER BY task, metric, model")
    # The CUGE leaderboard of the baselines (issue 13), then the same table through cdtp query.
    _cdtp("leaderboard", "--results", str(build_dir / "results"), "--out", str(build_dir / "leaderboard"),
          "--runs", *[str(eval_dir / spec) for spec in DEMO_BASELINES])
    print("\n-- the leaderboard through cdtp query")
    _cdtp("query", str(build_dir),
          "SELECT rank, model, level, name, round(score, 1) AS score FROM leaderboard "
          "WHERE level IN ('overall', 'capability') ORDER BY rank, level DESC, name")


def show_items(build_dir: Path, item_stats: dict, per_task: int = 2) -> None:
    """A few benchmark items of each task, the QA/KGC ones with their labelled options."""
    from pipeline.export_commands import cdtp_record
    from pipeline.query import connect

    print("\nbenchmark items (stats.json \"items\"): written " + json.dumps(item_stats["written"], ensure_ascii=False)
          + f"; invariant violations {item_stats['invariant_violations']}"
          + f"; leakage after drops {item_stats['leakage']['after_drops']}")
    con = connect(str(build_dir))
    for task in ("qa", "kgc", "t2t", "t2kg"):
        cur = con.execute("SELECT * FROM items WHERE task = ? ORDER BY item_id LIMIT ?", [task, per_task])
        names = [d[0] for d in cur.description]
        for row in cur.fetchall():
            item = dict(zip(names, row))
            rec = cdtp_record(item)
            print(f"\n-- {task} ({item['domain']}, {item['split']})")
            if task in ("qa", "kgc"):
                print(rec["question"])
                print(rec["options"])
                origins = ", ".join(item["distractor_origins"])
                print(f"answer: {rec['answer']}、{rec['answer_text']}   distractors from: {origins}")
            elif task == "t2t":
                print(rec["prompt"])
                print("reference: " + rec["reference"])
            else:
                print(f"sentence: {rec['text']}   (ontology {rec['ontology']})")
                print("gold: " + "; ".join(f"({h}, {r}, {t})" for h, r, t in rec["triples"]))
