"""`cdtp score text2kg|t2t`: score saved outputs without running a model.

    cdtp score text2kg --data DATA --responses DIR [--out FILE] [--lang auto|en|zh]
    cdtp score t2t --predictions FILE.jsonl [--out FILE]

Both print JSON on stdout (and write it to --out when given), so other tools
can depend on the shape: text2kg gives p, r, f1, oc, sh, rh, oh per ontology
(under "ontologies", keyed like `1_movie`) and under "global", rounded to 2
decimals exactly as Text2KGBench's script prints them, with the unrounded
values under "exact", and counts of what the scores do not show: responses
with no triple (`no_triples`, scored OC 1 as the script does), ids not in the
ontology's ground truth (`unknown_ids`, not scored) and repeated ids
(`duplicate_ids`, the last one scored); t2t gives bleu4, rouge1, rouge2,
rougeL, meteor, n, and the counts `empty_output` and `output_truncated`.
"""
from __future__ import annotations

import json
import sys


def register(subparsers) -> None:
    p = subparsers.add_parser("score", help="score saved outputs (Text2KGBench T2KG, T2T) without a model")
    sub = p.add_subparsers(dest="score_command", metavar="WHAT")
    t = sub.add_parser("text2kg", help="Text2KGBench P/R/F1/OC/SH/RH/OH, as its evaluation script computes them")
    t.add_argument("--data", required=True, help="dataset folder with ontologies/ and ground_truth/")
    t.add_argument("--responses", required=True, help="folder of one JSON Lines file per ontology")
    t.add_argument("--out", help="also write the JSON here")
    t.add_argument("--lang", choices=("auto", "en", "zh"), default="auto",
                   help="en: Porter stems; zh: normalisation; auto: per sentence (default)")
    t.add_argument("--per-sentence", action="store_true", help="include per-sentence scores")
    t.set_defaults(handler=_text2kg)
    g = sub.add_parser("t2t", help="BLEU-4, ROUGE-1/2/L, METEOR on jieba tokens")
    g.add_argument("--predictions", required=True, help="JSON Lines with 'reference' (string or list) and 'prediction'")
    g.add_argument("--out", help="also write the JSON here")
    g.set_defaults(handler=_t2t)
    p.set_defaults(handler=lambda args: (p.print_help(), 2)[1])


def _emit(doc: dict, out: str | None) -> None:
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    sys.stdout.write(text + "\n")


def _text2kg(args) -> int:
    from evaluation.text2kg_io import score_folder

    report = score_folder(args.data, args.responses, lang=args.lang, per_sentence=args.per_sentence)
    _emit(report.to_json(), args.out)
    if report.missing_responses:
        print(f"cdtp: warning: no responses for {', '.join(report.missing_responses)}; "
              "global = mean over the ontologies scored", file=sys.stderr)
    if report.unknown_ids:
        print(f"cdtp: warning: {report.unknown_ids} response id(s) are not in their ontology's ground truth "
              "(another ontology's file, or a mistyped id) and were not scored; see unknown_ids", file=sys.stderr)
    if report.duplicate_ids:
        print(f"cdtp: warning: {report.duplicate_ids} response id(s) occur more than once; the last one was "
              "scored, as the official script does; see duplicate_ids", file=sys.stderr)
    return 0


def _t2t(args) -> int:
    from evaluation.t2t_metrics import corpus_t2t_scores
    from pipeline.errors import CdtpError
    from transforms.safejson import iter_jsonl

    preds, refs = [], []
    try:
        for n, row in iter_jsonl(args.predictions):
            ref, pred = (row.get("reference"), row.get("prediction")) if isinstance(row, dict) else (None, None)
            ok_ref = isinstance(ref, str) or (isinstance(ref, list) and ref and all(isinstance(r, str) for r in ref))
            if not ok_ref or not isinstance(pred, str):
                raise CdtpError(f"{args.predictions}:{n}: needs a string 'prediction' and a 'reference' "
                                "(string or list of strings)")
            preds.append(pred)
            refs.append(ref)
    except OSError as exc:
        raise CdtpError(f"{args.predictions}: {exc.strerror}") from None
    except ValueError as exc:
        raise CdtpError(str(exc)) from None
    if not preds:
        raise CdtpError(f"{args.predictions}: no predictions")
    from evaluation.t2t_metrics import cap_output

    scores = corpus_t2t_scores(preds, refs)
    counts = {"empty_output": sum(1 for p in preds if not p.strip()),
              "output_truncated": sum(1 for p, r in zip(preds, refs) if cap_output(p, r)[1])}
    _emit({**{k: round(v, 6) for k, v in scores.items()}, "n": len(preds), **counts}, args.out)
    return 0
