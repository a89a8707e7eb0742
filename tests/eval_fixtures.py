"""Small benchmark items in ITEM_SCHEMA for the evaluation tests, written by us.

Real facts, our own sentences. Two domains (HP 历史与政治, NE 自然与环境),
train and eval splits, all four tasks, Hive-partitioned exactly as the items
stage writes them: items/task=…/domain=…/split=…/part-0.parquet.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from schemas.items import ITEM_SCHEMA

# (domain, split, head, relation, tail, our own sentence stating it)
FACTS = [
    ("HP", "train", "秦始皇", "朝代", "秦朝", "秦始皇是秦朝的开国皇帝，朝代为秦朝。"),
    ("HP", "train", "唐太宗", "朝代", "唐朝", "唐太宗李世民是唐朝的第二位皇帝。"),
    ("HP", "train", "李白", "朝代", "唐朝", "李白是唐朝著名的浪漫主义诗人。"),
    ("HP", "train", "曹操", "字", "孟德", "曹操，字孟德，是东汉末年的政治家。"),
    ("HP", "eval", "杜甫", "朝代", "唐朝", "杜甫是唐朝的现实主义诗人，被称为诗圣。"),
    ("HP", "eval", "赤壁之战", "时间", "公元208年", "赤壁之战发生于公元208年，孙刘联军击败曹操。"),
    ("HP", "eval", "唐太宗", "本名", "李世民", "唐太宗本名李世民，年号贞观。"),
    ("NE", "train", "大熊猫", "分布区域", "中国", "大熊猫是中国特有的熊科动物，主要分布在四川。"),
    ("NE", "train", "长江", "发源地", "青藏高原", "长江发源于青藏高原的唐古拉山脉。"),
    ("NE", "train", "黄河", "入海口", "渤海", "黄河自西向东流，最终注入渤海。"),
    ("NE", "eval", "银杏", "科", "银杏科", "银杏是银杏科银杏属的落叶乔木，被称为活化石。"),
    ("NE", "eval", "珠穆朗玛峰", "海拔", "8848.86米", "珠穆朗玛峰是世界最高峰，海拔8848.86米。"),
    ("NE", "eval", "长江", "长度", "6300公里", "长江全长约6300公里，是中国第一长河。"),
]
FILLERS = ["宋朝", "明朝", "清朝", "汉朝", "元朝", "北京", "上海", "西安", "南京", "杭州", "孔明", "玄德",
           "公元200年", "公元220年", "李渊", "李治", "松科", "柏科", "8611米", "5895米", "5464公里", "东海",
           "南海", "黄海", "美国", "日本", "云贵高原", "蒙古高原"]


def _h(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("\x00".join(parts).encode()).digest()[:4], "big")


def _options(gold: str, key: str) -> tuple[list[str], int]:
    pool = sorted(({t for *_, t, _s in FACTS} | set(FILLERS)) - {gold}, key=lambda x: _h(key, x))[:9]
    idx = _h(key, "answer") % 10
    return pool[:idx] + [gold] + pool[idx:], idx


def _empty(**kw):
    row = {f.name: None for f in ITEM_SCHEMA}
    row.update(options=[], distractor_origins=[], distractor_similarity=[], triples=[], gold_triples=[],
               in_subset=True)
    row.update(kw)
    return row


def fixture_items() -> list[dict]:
    rows = []
    for n, (dom, split, head, rel, tail, sent) in enumerate(FACTS):
        pair = f"p{n:02d}"
        for task, question in (("qa", f"{head}的{rel}是什么？"), ("kgc", f"（{head}，{rel}，？）")):
            opts, idx = _options(tail, f"{task}{pair}")
            rows.append(_empty(item_id=f"{task}-{pair}", task=task, domain=dom, split=split, pair_id=pair,
                               head=head, relation=rel, tail=tail, question=question, asked="tail",
                               options=opts, answer=tail, answer_index=idx,
                               distractor_origins=["frequency"] * 9, distractor_similarity=[0.5] * 9))
        triple = {"head": head, "relation": rel, "tail": tail}
        rows.append(_empty(item_id=f"t2t-{pair}", task="t2t", domain=dom, split=split, pair_id=pair, head=head,
                           triples=[triple], reference=sent))
        rows.append(_empty(item_id=f"t2kg-{pair}", task="t2kg", domain=dom, split=split, pair_id=pair,
                           head=head, text=sent, gold_triples=[triple], ontology=f"cdtp_{dom}"))
    return rows


def write_items(build_dir: Path, rows: list[dict] | None = None) -> Path:
    rows = fixture_items() if rows is None else rows
    groups: dict[tuple, list] = {}
    for r in rows:
        groups.setdefault((r["task"], r["domain"], r["split"]), []).append(r)
    for (task, dom, split), grp in groups.items():
        d = build_dir / "items" / f"task={task}" / f"domain={dom}" / f"split={split}"
        d.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist(grp, schema=ITEM_SCHEMA), d / "part-0.parquet")
    # a finished build has its stats.json (written last); these items have no output check to compare
    (build_dir / "stats.json").write_text("{}\n", encoding="utf-8")
    return build_dir
