"""Benchmark items from split pairs (issue 8; CB-ECLLM §4.1, App. C.2).

Pure decisions only; pipeline/items_stage.py wires them into Beam.

  config.py       ItemsConfig (BuildConfig.items)
  templates.py    QA questions, KGC prompts, which triples may be asked (and which side)
  numeric.py      type-consistent perturbations of numbers, dates and formulas
  exclusion.py    "never a true answer": known answers, aliases, containment
  distractors.py  the candidate pool of one item, the semantic band, the choice of 9,
                  the seeded option order and the invariant checker
  t2kg.py         T2T items, domain ontologies (Text2KGBench format), T2KG sentences
  leakage.py      fact keys shared by train and eval (the leakage report)
"""
