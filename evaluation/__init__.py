"""Evaluation stage: ask models the benchmark items and score them as the papers define.

Pure modules (no I/O): metrics.py (QA/KGC), t2t_metrics.py (BLEU/ROUGE/METEOR),
text2kg.py (Text2KGBench metrics and parser), ranking.py (reading rankings),
prompts.py (every Chinese template), scoring.py (records → scores).
Thin I/O: items.py (DuckDB), runner.py (journal, resume), results.py (outputs),
text2kg_io.py. Backends: backends.py (interface), models.py (specs), baselines.py,
openai_backend.py, hf_backend.py; local_server.py serves the protocol on
127.0.0.1 for tests and benchmarks. CLI: eval_commands.py, score_commands.py.
"""
