"""`cdtp eval`'s run: select items, build prompts, ask the model, journal
every answer, score, write outputs. Thin on purpose: prompts, parsing and
metrics live in their own pure modules.

Kill-safety. Every answer is appended to OUT/journal.jsonl as one line and
flushed before the next is handled; a kill -9 loses at most the requests in
flight (never a recorded answer). On restart the journal's torn last line is
cut, answered keys are skipped, and only the rest is asked: no recorded item
is asked twice, none is lost. OUT/run.json pins the run's identity (model,
item-set fingerprint, config); resuming a different run into the same folder
is refused.
"""
from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from typing import Any, Iterable

from evaluation import prompts as P
from evaluation.backends import Generation, Model, Prompt
from evaluation.config import EvalConfig
from evaluation.items import ItemSelection, LoadedItems, load_items, load_ontology_files, load_train, results_home
from evaluation.results import (append_results, code_version, markdown_table, now_iso, result_rows,
                                stable_hash, write_predictions)
from evaluation.scoring import (EMPTY_OUTPUT, NO_TRIPLES, OUTPUT_TRUNCATED, aggregate, item_ontologies,
                                loglik_problem, ontology_key, rotate, rotation_shifts, score_record)
from pipeline.errors import CdtpError

JOURNAL, RUN_FILE = "journal.jsonl", "run.json"


@dataclass
class Request:
    key: str
    item: dict[str, Any]
    rotation: int
    prompt: str
    loglik: bool
    options: list[str] | None = None


def journal_record_ok(rec: Any) -> bool:
    """A journal line as `ask` writes it: a damaged one (hand-edited, another
    program's) is asked again, never scored."""
    if not (isinstance(rec, dict) and isinstance(rec.get("key"), str) and isinstance(rec.get("item_id"), str)):
        return False
    if not isinstance(rec.get("rotation"), int) or not isinstance(rec.get("raw_output", ""), str):
        return False
    logliks = rec.get("logliks")
    return logliks is None or (isinstance(logliks, list)
                               and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in logliks))


class Journal:
    """Append-only JSON Lines; one flushed line per answer."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.records: dict[str, dict] = {}
        if os.path.exists(path):
            with open(path, "rb+") as fh:
                data = fh.read()
                cut = data.rfind(b"\n") + 1
                if cut != len(data):  # torn last line from a kill: drop it
                    fh.truncate(cut)
                    data = data[:cut]
            for line in data.splitlines():
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if journal_record_ok(rec):  # else asked again, like a line that is not JSON
                    self.records[rec["key"]] = rec  # a retried error: the later answer wins
        self._fh = open(path, "a", encoding="utf-8")

    def append(self, rec: dict) -> None:
        line = json.dumps(rec, ensure_ascii=False)
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: \u escapes read back the same, never a crash
            line = json.dumps(rec)
        self._fh.write(line + "\n")
        self._fh.flush()
        self.records[rec["key"]] = rec

    def close(self) -> None:
        self._fh.close()


class Progress:
    """Requests done, rate and errors on one terminal line (a line per 30 s when not a terminal).

    It counts requests: one per item, but one per circular pass of a QA or KGC
    item, so with `--circular` they are called requests and the items named
    beside them ("24/24 items" for 8 items asked 3 times each was misread)."""

    def __init__(self, total: int, stream=None, items: int | None = None) -> None:
        # sys.stderr read now, not at import: a stream replaced since (a test's
        # capture, a redirected launcher) must not be written after it closed
        stream = sys.stderr if stream is None else stream
        self.total, self.done, self.errors, self.stream = total, 0, 0, stream
        self.unit = ("items" if items is None or items == total
                     else f"requests ({items} items with their circular passes)")
        self.start = self.last = time.monotonic()
        self.tty = stream.isatty()

    def tick(self, error: bool) -> None:
        self.done += 1
        self.errors += int(error)
        now = time.monotonic()
        if (self.tty and now - self.last >= 0.2) or now - self.last >= 30 or self.done == self.total:
            self.last = now
            rate = self.done / max(now - self.start, 1e-9)
            msg = f"eval: {self.done}/{self.total} {self.unit}, {rate:.1f}/s, {self.errors} errors"
            self.stream.write(("\r" + msg) if self.tty else msg + "\n")
            if self.tty and self.done == self.total:
                self.stream.write("\n")
            self.stream.flush()


def _demo_text(item: dict[str, Any]) -> str:
    if item["task"] in ("qa", "kgc"):
        return item.get("question") or ""
    if item["task"] == "t2t":
        return P.triples_block(item.get("triples"))
    return item.get("text") or ""


def select_demos(items: list[dict], train: list[dict], shots: int, embedder_spec: str) -> dict[str, list[dict]]:
    """k most similar train items of the same task per item (Text2KGBench's choice of
    demonstrations); for T2KG, of the same ontology, so the demos use its relations."""
    if shots <= 0 or not train:
        return {}
    import numpy as np

    from transforms.embed import EmbedderError, make_embedder

    try:
        emb = make_embedder(embedder_spec)
    except EmbedderError as exc:
        raise CdtpError(str(exc)) from None
    out: dict[str, list[dict]] = {}
    group = lambda it: (it["task"], ontology_key(it) if it["task"] == "t2kg" else "")  # noqa: E731
    for key in sorted({group(it) for it in items}):
        pool = [t for t in train if group(t) == key]
        mine = [it for it in items if group(it) == key]
        if not pool or not mine:
            continue
        sims = emb.encode([_demo_text(x) for x in mine]) @ emb.encode([_demo_text(x) for x in pool]).T
        for row, it in zip(sims, mine):
            order = np.lexsort((np.arange(len(pool)), -row))  # most similar first, ties by train order
            out[it["item_id"]] = [pool[j] for j in order if pool[j]["item_id"] != it["item_id"]][:shots]
    return out


def build_requests(items: list[dict], cfg: EvalConfig, model: Model | None, demos: dict[str, list[dict]],
                   ontologies: dict[str, dict]) -> list[Request]:
    loglik = bool(model is not None and getattr(model, "supports_loglikelihood", False))
    reqs = []
    for it in items:
        if it["task"] in ("qa", "kgc"):
            for shift in rotation_shifts(cfg.circular, len(it["options"])):
                opts, gold = rotate(it["options"], int(it["answer_index"]), shift)
                shown = {**it, "options": opts, "answer_index": gold}
                text = P.build_prompt(shown, demos.get(it["item_id"], ()), loglik=loglik)
                reqs.append(Request(f"{it['item_id']}#{shift}", it, shift, text, loglik, opts))
        else:
            text = P.build_prompt(it, demos.get(it["item_id"], ()), ontology=ontologies.get(ontology_key(it)))
            reqs.append(Request(f"{it['item_id']}#0", it, 0, text, False))
    return reqs


def clean_text(text: str) -> str:
    """`text` writable as UTF-8: a lone surrogate (a server's broken "\\ud800"
    escape) becomes U+FFFD, so the journal line and the Parquet row can be written."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _record(req: Request, gen: Generation | None, logliks: list[float] | None = None,
            error: str | None = None) -> dict:
    it = req.item
    text = gen.text if gen else ""
    problem = (gen.error if gen else None) or error
    return {"key": req.key, "item_id": it["item_id"], "task": it["task"], "domain": it["domain"],
            "split": it["split"], "rotation": req.rotation, "prompt": req.prompt,
            "raw_output": clean_text(text), "logliks": logliks,
            "error": clean_text(problem) if problem else None, "attempts": gen.attempts if gen else 1}


def _adapter_failure(what: str, exc: BaseException) -> str:
    return f"the model's {what} raised {type(exc).__name__}: {exc}"[:500]


def _checked_generation(gen: Any) -> Generation:
    """A backend's answer as a Generation whose text is a string; anything else is an error, never a crash."""
    if not isinstance(gen, Generation):
        return Generation("", f"the model returned {type(gen).__name__}, not a Generation")
    if gen.error is not None and not isinstance(gen.error, str):
        gen = Generation("", str(gen.error), gen.attempts)
    if not isinstance(gen.text, str):
        return Generation("", gen.error or f"the model's answer is {type(gen.text).__name__}, not text",
                          gen.attempts if isinstance(gen.attempts, int) else 1)
    if not isinstance(gen.attempts, int):
        gen = Generation(gen.text, gen.error, 1)
    return gen


def ask(model: Model, requests: list[Request], journal: Journal, progress: Progress, chunk: int) -> None:
    """Ask every request, journaling each answer as soon as it arrives.

    Whatever a backend does, each request ends as a journal line or stays
    unasked (missing, asked on resume): an exception, a NaN score or a
    malformed answer is recorded as that item's `error`, never a traceback
    that loses the chunk."""
    gen_reqs = [r for r in requests if not r.loglik]
    ll_reqs = [(r, Prompt(r.prompt, {**r.item, "options": r.options})) for r in requests if r.loglik]
    if ll_reqs and hasattr(model, "prime"):
        model.prime([(p, r.options) for r, p in ll_reqs])
        progress.start = progress.last = time.monotonic()  # the rate counts answers, not priming
    for r, prompt in ll_reqs:
        try:
            scores = list(model.loglikelihood(prompt, r.options))
            problem = loglik_problem(scores, len(r.options))
            rec = (_record(r, None, error=problem) if problem
                   else _record(r, None, [float(s) for s in scores]))
        except CdtpError as exc:
            rec = _record(r, None, error=str(exc))
        except Exception as exc:  # noqa: BLE001 - an adapter's bug is this item's error, not the run's end
            rec = _record(r, None, error=_adapter_failure("loglikelihood", exc))
        journal.append(rec)
        progress.tick(bool(rec["error"]))
    for start in range(0, len(gen_reqs), max(1, chunk)):
        batch = gen_reqs[start : start + chunk]
        prompts = [Prompt(r.prompt, {**r.item, "options": r.options or r.item.get("options")}) for r in batch]
        done: set[int] = set()
        try:
            stream: Iterable = (model.generate_stream(prompts) if hasattr(model, "generate_stream")
                                else enumerate(model.generate(prompts)))
            for i, gen in stream:
                if not isinstance(i, int) or not 0 <= i < len(batch) or i in done:
                    continue  # an answer to no prompt of this batch, or a second one
                done.add(i)
                rec = _record(batch[i], _checked_generation(gen))
                journal.append(rec)
                progress.tick(bool(rec["error"]))
        except Exception as exc:  # noqa: BLE001 - the unanswered prompts are recorded, not lost
            why = _adapter_failure("generate", exc)
            for i, r in enumerate(batch):
                if i not in done:
                    rec = _record(r, None, error=why)
                    journal.append(rec)
                    progress.tick(True)
        # Prompts the backend gave no answer for stay unjournaled: the run
        # reports them as missing, keeps them out of the results table, and a
        # resume asks them again.


def _failed(rec: dict, req: Request) -> bool:
    """A journaled answer that scores as an error (asked again under --retry-errors)."""
    return bool(rec.get("error")) or bool(req.loglik and rec.get("logliks")
                                          and loglik_problem(rec["logliks"], len(req.options or [])))


def run_eval(items_path: str, out_dir: str, cfg: EvalConfig, *, model_spec: str | None,
             reuse: bool = False, results_dir: str | None = None, model: Model | None = None) -> dict:
    os.makedirs(out_dir, exist_ok=True)
    run_file = os.path.join(out_dir, RUN_FILE)
    saved = None
    if os.path.exists(run_file):
        try:
            with open(run_file, encoding="utf-8") as fh:
                saved = json.load(fh)
        except ValueError as exc:  # not JSON, or not UTF-8
            raise CdtpError(f"{run_file} is not a cdtp run record ({exc}); use a new --out") from None
        if not (isinstance(saved, dict) and isinstance(saved.get("config"), dict)
                and isinstance(saved.get("model"), str)):
            raise CdtpError(f"{run_file} is not a cdtp run record (an object with its model and config); "
                            "use a new --out")
    if reuse:
        if saved is None:
            raise CdtpError(f"--reuse: {out_dir} holds no earlier run ({RUN_FILE} missing)")
        cfg = EvalConfig(**{**saved["config"], "retry_errors": cfg.retry_errors, "chunk": cfg.chunk})
        model_spec = saved["model"]
    if not model_spec:
        raise CdtpError("--model is required (unless --reuse re-scores a saved run)")
    from evaluation.models import canonical_spec

    call_spec, model_spec = model_spec, canonical_spec(model_spec)
    sel = ItemSelection(cfg.tasks, cfg.domains, cfg.split, cfg.subset, cfg.limit)
    loaded: LoadedItems = load_items(items_path, sel)
    if cfg.domains:
        absent = sorted(set(cfg.domains) - {it["domain"] for it in loaded.items + [i for i, _ in loaded.invalid]})
        if absent:  # a misspelt domain would be silently left out of the run
            raise CdtpError(f"--domains: no {cfg.split} item of {', '.join(cfg.tasks)} in domain(s) {absent} "
                            f"under {items_path}")
    if not reuse and model is None:
        # Made before the run record is written: a bad spec must not leave a
        # run folder that a corrected command then calls "another run".
        from evaluation.models import make_model

        model = make_model(call_spec)
    try:
        ont_files = load_ontology_files(items_path)
        identity = {"model": model_spec, "fingerprint": loaded.fingerprint, "config": cfg.identity()}
        if ont_files:  # the prompts and OC/SH/OH depend on them
            identity["ontologies"] = stable_hash(ont_files)
        resume_key = stable_hash(identity)
        if saved is not None and saved.get("resume_key") != resume_key:
            if reuse:
                raise CdtpError(f"--reuse: the items under {items_path} changed since the run in {out_dir} "
                                f"(fingerprint {saved.get('fingerprint')} → {loaded.fingerprint})")
            raise CdtpError(f"{out_dir} holds another run (model, items or settings differ: "
                            f"{saved.get('model')} on {saved.get('fingerprint')}); use a new --out")
        need_train = cfg.shots > 0 or "t2kg" in cfg.tasks or model_spec.startswith("most-frequent")
        train = load_train(loaded.glob, sel) if need_train else []
        ontologies = item_ontologies(loaded.items + train, ont_files)
        if not reuse:
            if hasattr(model, "fit"):
                model.fit(train)
            demos = select_demos(loaded.items, train, cfg.shots, cfg.embedder)
            requests = build_requests(loaded.items, cfg, model, demos, ontologies)
        if saved is None:  # only now: everything that can fail before the first question has run
            with open(run_file + ".tmp", "w", encoding="utf-8") as fh:
                json.dump({**identity, "resume_key": resume_key, "started_at": now_iso()}, fh, ensure_ascii=False,
                          indent=1)
            os.replace(run_file + ".tmp", run_file)
        journal = Journal(os.path.join(out_dir, JOURNAL))
        try:
            if not reuse:
                pending = [r for r in requests if r.key not in journal.records
                           or (cfg.retry_errors and _failed(journal.records[r.key], r))]
                if pending:
                    ask(model, pending, journal,
                        Progress(len(pending), items=len({r.item["item_id"] for r in pending})), cfg.chunk)
        finally:
            journal.close()
    finally:
        if model is not None:
            model.close()
    if reuse:
        missing = len(expected_keys(loaded.items, cfg) - journal.records.keys())
        if missing:  # re-scoring what is left would report a run that never answered them
            raise CdtpError(f"--reuse: {missing} of the run's answers are missing from {journal.path} "
                            "(deleted or damaged lines); rerun without --reuse to ask them again")
    return finalize(out_dir, loaded, journal.records, ontologies, cfg, model_spec, resume_key,
                    results_dir or results_home(items_path))


def expected_keys(items: list[dict], cfg: EvalConfig) -> set[str]:
    """The journal key of every answer a run asks: an item and, for QA/KGC, each rotation of its options."""
    return {f"{it['item_id']}#{s}" for it in items
            for s in (rotation_shifts(cfg.circular, len(it["options"])) if it["task"] in ("qa", "kgc") else [0])}


def finalize(out_dir: str, loaded: LoadedItems, records: dict[str, dict], ontologies: dict[str, dict],
             cfg: EvalConfig, model_spec: str, resume_key: str, results_dir: str) -> dict:
    by_id = {it["item_id"]: it for it in loaded.items}
    expected = expected_keys(loaded.items, cfg)
    rows = [score_record(records[k], by_id[records[k]["item_id"]], ontologies)
            for k in sorted(expected & records.keys())]
    rows.sort(key=lambda r: (r["task"], r["domain"], r["item_id"], r["rotation"]))
    write_predictions(rows, os.path.join(out_dir, "predictions.parquet"))
    metrics, counts = aggregate(rows, by_id)
    created = now_iso()
    run_id = stable_hash(resume_key, code_version())
    doc = {
        "run_id": run_id, "model": model_spec, "fingerprint": loaded.fingerprint, "code_version": code_version(),
        "config": cfg.identity(), "created_at": created, "items": loaded.glob,
        "counts": {"items": len(loaded.items), "asked": len(rows), "missing": len(expected - records.keys()),
                   "errors": sum(1 for r in rows if r.get("error")),
                   "unparseable": sum(1 for r in rows if r.get("parse_status") == "unparseable"),
                   **{status: sum(1 for r in rows if r.get("parse_status") == status)
                      for status in (NO_TRIPLES, EMPTY_OUTPUT, OUTPUT_TRUNCATED)},
                   "invalid_items": len(loaded.invalid)},
        "invalid_items": [{"item_id": it.get("item_id"), "task": it.get("task"), "reason": why}
                          for it, why in loaded.invalid],
        "metrics": metrics, "n": counts,
        "dataset_fingerprints": {f"{t}/{d}": fp for (t, d), fp in loaded.datasets.items()},
    }
    with open(os.path.join(out_dir, "results.json"), "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=1)
    with open(os.path.join(out_dir, "results.md"), "w", encoding="utf-8") as fh:
        fh.write(markdown_table(metrics, counts, model=model_spec, fingerprint=loaded.fingerprint))
    c = doc["counts"]
    if c["errors"] or c["missing"]:
        # A failed call is no answer: scored as wrong, it would rank the model
        # by its server's outages (an unreachable URL gives accuracy 0). A
        # missing answer (a backend that returned fewer answers than prompts)
        # would score the dataset over fewer items than it has. The run's files
        # stay, to read and to resume; the results table, which the
        # leaderboard reads, gets the run once whole.
        doc["results_table"] = None
        why = []
        if c["errors"]:
            doc["first_error"] = next(r["error"] for r in rows if r.get("error"))
            why.append(f"{c['errors']} of {c['asked']} model calls failed (e.g. {doc['first_error']})")
        if c["missing"]:
            why.append(f"{c['missing']} of {len(expected)} answers are missing (the model gave no answer to "
                       "those prompts)")
        hint = ("run the same command again to ask the missing ones" if c["missing"] else "")
        if c["errors"]:
            hint = " and ".join(x for x in (hint, "add --retry-errors to ask the failed calls again") if x)
        doc["not_added"] = f"{'; '.join(why)}: nothing was added to the results table; {hint} with the same --out"
        return doc
    table_rows = result_rows(metrics, counts, run_id=run_id, model=model_spec, split=cfg.split,
                             fingerprints=loaded.datasets, created_at=created)
    doc["results_table"] = append_results(table_rows, results_dir, run_id)
    return doc
