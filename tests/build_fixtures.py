"""Raw entries for the build tests: real facts, sentences written for this project.

Each entry is designed to meet one fate of the cleaning stages, so tests can
assert reasons, not just counts.
"""
from __future__ import annotations

import json
from pathlib import Path


def _e(lemma: str, title: str, summary: str, infobox: list[tuple[str, str]], tags=("测试",), **kw) -> dict:
    d = {
        "url": f"https://baike.baidu.com/item/{title}/{lemma}",
        "source": "baidu",
        "lemma_id": lemma,
        "title": title,
        "subtitle": kw.pop("subtitle", None),
        "summary": summary,
        "infobox": [{"name": n, "value": v, "value_links": []} for n, v in infobox],
        "links": [],
        "tags": list(tags),
        "depth": 1,
        "seed": "上海大学",
        "fetched_at": "2026-11-01T00:00:00Z",
    }
    d.update(kw)
    return d


# (entry, expected entry fate at the end: ("kept", None) or (stage, reason))
ENTRIES: list[tuple[dict, tuple[str, str]]] = [
    (_e("101", "鲁迅", "鲁迅，出生于浙江绍兴，中国现代文学家、思想家。",
        [("中文名", "鲁迅"), ("出生地", "浙江绍兴"), ("职业", "文学家、思想家"), ("代表作品", "《朝花夕拾》")]),
     ("finalise", "kept")),
    (_e("102", "长江", "长江全长6397公里，发源于青藏高原。",
        [("中文名", "长江"), ("全长", "6397公里"), ("发源地", "青藏高原")]),
     ("finalise", "kept")),
    (_e("103", "黄河", "黄河发源于青藏高原，流经九个省区，最后注入渤海。",
        [("中文名", "黄河"), ("发源地", "青藏高原"), ("注入", "渤海")]),
     ("finalise", "kept")),
    (_e("104", "杭州", "杭州地处中国东部，隶属浙江省。",
        [("中文名", "杭州"), ("所属地区", "浙江省")]),
     ("finalise", "kept")),
    # No triple is stated by the text.
    (_e("105", "泰山", "这座山以日出景色闻名。", [("海拔", "1545米"), ("所在地", "山东泰安")]),
     ("redundant_triple", "no_supported_triple")),
    # No summary text.
    (_e("106", "西湖", "", [("所在地", "杭州")]), ("redundant_triple", "empty_text")),
    # No infobox.
    (_e("107", "李白", "李白是唐代诗人。", []), ("redundant_triple", "no_triples")),
    # The triple is stated at the very start, then a long description follows.
    (_e("108", "上海大学", "上海大学位于上海，学校有多个校区，历史可以追溯到二十世纪初期，长期以来培养了大量人才，并在许多学科领域开展研究。",
        [("中文名", "上海大学")]),
     ("redundant_description", "position_index_below_threshold")),
    # A relation no other entry uses: removed by the relation-frequency filter
    # (the tests repeat the entries 3 times and ask for a min count of 4).
    (_e("109", "珠穆朗玛峰", "珠穆朗玛峰的峰顶岩石为奥陶纪石灰岩。", [("岩石年代", "奥陶纪")]),
     ("relation_frequency", "no_triple_left")),
]

BAD_LINES = [
    "this is not json",  # malformed JSON
    json.dumps({"url": "https://baike.baidu.com/item/x", "summary": "没有标题"}, ensure_ascii=False),  # missing title
    json.dumps({"title": 42, "summary": "标题不是字符串"}, ensure_ascii=False),  # wrong type
    json.dumps({"title": "故宫", "infobox": "not a list"}, ensure_ascii=False),  # wrong type
    json.dumps(["a", "list"]),  # not an object
]


def write_fixture(path: Path, repeat: int = 1, bad: bool = True) -> dict:
    """Write raw-*.jsonl: the entries `repeat` times (fresh lemma ids), then bad lines.

    Returns {"entries": n valid entries, "bad": n bad lines}.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for r in range(repeat):
            for entry, _ in ENTRIES:
                e = dict(entry)
                if r:
                    e["lemma_id"] = f"{entry['lemma_id']}-{r}"
                fh.write(json.dumps(e, ensure_ascii=False) + "\n")
                n += 1
        fh.write("\n")  # a blank line is not an entry
        if bad:
            for line in BAD_LINES:
                fh.write(line + "\n")
    return {"entries": n, "bad": len(BAD_LINES) if bad else 0}


def embed_cache_folder(cache_root: Path) -> Path:
    """The default embedder's folder of the embedding cache under `cache_root`, made."""
    from pipeline.items_embed import _spec_dir
    from transforms.items.config import ItemsConfig

    folder = Path(_spec_dir(str(cache_root), ItemsConfig().embedder))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def write_cut_cache_file(cache_root: Path) -> Path:
    """A vector file cut to a third of its bytes in the embedding cache under
    `cache_root` (embed_cache_folder): its schema reads, its body does not.
    Returns its path."""
    import numpy as np

    from pipeline.items_embed import _write_table

    folder = embed_cache_folder(cache_root)
    whole = folder / "whole.tmp"
    _write_table(str(whole), [f"名{i}" for i in range(500)], np.ones((500, 512), np.float32))
    data = whole.read_bytes()
    whole.unlink()
    cut = folder / "cache-cut.arrow"
    cut.write_bytes(data[: len(data) // 3])
    return cut
