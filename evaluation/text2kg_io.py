"""Reading a Text2KGBench dataset folder and a folder of system responses.

Layout (as in the Text2KGBench repository's `data/<dataset>/`):
  DATA/ontologies/<key>_ontology.json          e.g. 1_movie_ontology.json
  DATA/ground_truth/*<key>*.jsonl              {"id", "sent", "triples": [{"sub","rel","obj"}]}
  RESPONSES/*<key>*.jsonl                      {"id", "triples": [[s, r, o]]} or {"id", "response": "..."}

A file belongs to an ontology when its name holds the key between
non-alphanumeric characters, so `1_movie` never claims `11_movie` or `10_culture`.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from evaluation import text2kg as K
from pipeline.errors import CdtpError
from transforms import safejson


@dataclass
class Text2KGReport:
    per_ontology: dict[str, dict]
    global_scores: dict[str, float]
    missing_responses: list[str]
    parsed_from_text: int
    malformed_triples: int
    no_triples: int = 0  # responses scored with no triple (OC 1, SH/OH 0 by the official rule)
    unknown_ids: int = 0  # response ids not in their ontology's ground truth: not scored
    duplicate_ids: int = 0  # response ids given more than once: the last one is scored

    def to_json(self) -> dict:
        """Metrics rounded as the official script prints them (2 decimals), so
        they compare one to one with its files; `exact` keeps the unrounded values."""
        return {
            "global": {**official_rounding(self.global_scores),
                       "exact": {k: round(v, 9) for k, v in self.global_scores.items()}},
            "ontologies": self.per_ontology,
            "missing_responses": self.missing_responses,
            "parsed_from_text": self.parsed_from_text,
            "malformed_triples": self.malformed_triples,
            "no_triples": self.no_triples,
            "unknown_ids": self.unknown_ids,
            "duplicate_ids": self.duplicate_ids,
        }


def official_rounding(values: dict[str, float]) -> dict[str, float]:
    """`f"{v:.2f}"` as run_eval.py writes its averages (0.975 → 0.97: binary floats)."""
    return {k: float(f"{v:.2f}") for k, v in values.items()}


def _read_jsonl(path: str) -> list[dict]:
    rows = []
    try:
        for n, row in safejson.iter_jsonl(path):
            if not isinstance(row, dict) or not isinstance(row.get("id"), (str, int)) or isinstance(row["id"], bool):
                raise CdtpError(f"{path}:{n}: expected an object with an 'id' (a string or a number)")
            rows.append(row)
    except OSError as exc:
        raise CdtpError(f"{path}: {exc.strerror}") from None
    except ValueError as exc:
        raise CdtpError(str(exc)) from None
    return rows


def _key_pattern(key: str) -> re.Pattern:
    return re.compile(rf"(?<![0-9A-Za-z]){re.escape(key)}(?![0-9A-Za-z])")


def _file_for(folder: str, key: str, suffix: str) -> str | None:
    pat = _key_pattern(key)
    hits = sorted(f for f in os.listdir(folder) if f.endswith(suffix) and pat.search(f))
    if len(hits) > 1:
        raise CdtpError(f"{folder}: several files match ontology {key}: {', '.join(hits)}")
    return os.path.join(folder, hits[0]) if hits else None


def ontology_keys(data_dir: str) -> list[str]:
    ont_dir = os.path.join(data_dir, "ontologies")
    if not os.path.isdir(ont_dir) or not os.path.isdir(os.path.join(data_dir, "ground_truth")):
        raise CdtpError(f"{data_dir} is not a Text2KGBench dataset folder (needs ontologies/ and ground_truth/)")
    keys = [f[: -len("_ontology.json")] for f in os.listdir(ont_dir) if f.endswith("_ontology.json")]
    if not keys:
        raise CdtpError(f"{ont_dir}: no *_ontology.json files")
    return sorted(keys, key=lambda k: (int(k.split("_")[0]) if k.split("_")[0].isdigit() else 10**9, k))


def _system_triples(rows: list[dict], counters: dict[str, int]) -> tuple[dict[str, list], list[str]]:
    """id -> triples, and the ids given more than once (once each, in file order)."""
    out: dict[str, list] = {}
    repeated: list[str] = []
    for row in rows:
        if row["id"] in out and row["id"] not in repeated:
            repeated.append(row["id"])
        if isinstance(row.get("triples"), list):
            triples = []
            for tr in row["triples"]:
                if isinstance(tr, (list, tuple)) and len(tr) == 3 and all(isinstance(x, str) for x in tr):
                    triples.append(list(tr))
                elif isinstance(tr, dict) and all(isinstance(tr.get(k), str) for k in ("sub", "rel", "obj")):
                    triples.append([tr["sub"], tr["rel"], tr["obj"]])
                else:
                    counters["malformed"] += 1
        else:
            counters["parsed"] += 1
            triples = [list(t) for t in K.parse_triples(str(row.get("response", "")))]
        out[row["id"]] = triples  # a repeated id: the last one wins, as in the official script
    return out, repeated


def score_folder(data_dir: str, responses_dir: str, *, lang: str = "auto",
                 per_sentence: bool = False) -> Text2KGReport:
    if not os.path.isdir(responses_dir):
        raise CdtpError(f"{responses_dir}: no such responses folder")
    keys = ontology_keys(data_dir)
    counters = {"malformed": 0, "parsed": 0, "no_triples": 0, "unknown": 0, "duplicate": 0}
    scored, per_ont, missing = [], {}, []
    for key in keys:
        resp_file = _file_for(responses_dir, key, ".jsonl")
        if resp_file is None:
            missing.append(key)
            continue
        gt_file = _file_for(os.path.join(data_dir, "ground_truth"), key, ".jsonl")
        if gt_file is None:
            raise CdtpError(f"{data_dir}/ground_truth: no ground truth for ontology {key}")
        onto_path = os.path.join(data_dir, "ontologies", f"{key}_ontology.json")
        try:
            with open(onto_path, encoding="utf-8") as fh:
                ontology = safejson.loads(fh.read())
        except (OSError, ValueError) as exc:
            raise CdtpError(f"{onto_path}: not a readable ontology ({exc})") from None
        relations = ontology.get("relations") if isinstance(ontology, dict) else None
        if not (isinstance(relations, list) and all(isinstance(r, dict) and isinstance(r.get("label"), str)
                                                    for r in relations)):
            raise CdtpError(f"{onto_path}: an ontology needs a `relations` list of objects with a `label`")
        gold = {}
        for n, row in enumerate(_read_jsonl(gt_file), 1):
            triples, sent = row.get("triples", []), row.get("sent", "")
            if not (isinstance(sent, str) and isinstance(triples, list) and all(
                    isinstance(t, dict) and all(isinstance(t.get(k), str) for k in ("sub", "rel", "obj"))
                    for t in triples)):
                raise CdtpError(f"{gt_file}, row {n}: expected a `sent` string and `triples` of "
                                "{sub, rel, obj} strings")
            gold[row["id"]] = {"sent": sent, "triples": [[t["sub"], t["rel"], t["obj"]] for t in triples]}
        system, repeated = _system_triples(_read_jsonl(resp_file), counters)
        unknown = [i for i in system if i not in gold]
        agg, rows = K.score_ontology(key, ontology, gold, system, lang=lang)
        no_triples = sum(1 for i in system if i in gold and not system[i])
        counters["no_triples"] += no_triples
        counters["unknown"] += len(unknown)
        counters["duplicate"] += len(repeated)
        scored.append(agg)
        avgs = agg.averages()
        entry = {**official_rounding(avgs), "exact": {k: round(v, 9) for k, v in avgs.items()}}
        entry.update(n_gold=agg.n_gold, n_with_output=agg.n_with_output,
                     responses=os.path.basename(resp_file), no_triples=no_triples,
                     unknown_ids=len(unknown), duplicate_ids=len(repeated))
        if unknown:
            entry["unknown_id_examples"] = [str(i) for i in unknown[:5]]
        if repeated:
            entry["duplicate_id_examples"] = [str(i) for i in repeated[:5]]
        if per_sentence:
            entry["sentences"] = rows
        per_ont[key] = entry
    if not scored:
        raise CdtpError(f"{responses_dir}: no response file names an ontology key of {data_dir} "
                        f"(keys: {', '.join(keys)})")
    return Text2KGReport(per_ont, K.global_scores(scored), missing, counters["parsed"], counters["malformed"],
                         counters["no_triples"], counters["unknown"], counters["duplicate"])
