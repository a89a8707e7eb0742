"""The figures of a dataset release (PNG, matplotlib): the paper's Figures 6 and 7, and more.

* relations.png       top-20 relations (paper Figure 6)
* triples_per_pair.png pairs by triples per pair, 1-1 / 1-2 / 1-3 / 1-3+ (paper Figure 7)
* domains.png         pairs per domain and split
* text_lengths.png    distribution of text lengths (characters)
* funnel.png          entries and triples entering each stage

Labels are Chinese, so a CJK font is required: matplotlib's default DejaVu
Sans draws every hanzi as an empty box ("tofu"). The font is found by file
path (Debian's fonts-noto-cjk, or CDTP_CJK_FONT), never by family name, and
a missing font, or any glyph the font lacks, is an error rather than a plot
full of boxes.
"""
from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

from pipeline.errors import CdtpError

FONT_ENV = "CDTP_CJK_FONT"
CJK_FONT_PATHS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  # Debian/Ubuntu fonts-noto-cjk
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",  # Arch, Fedora
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  # fonts-wqy-microhei
    "/System/Library/Fonts/PingFang.ttc",  # macOS
)
DOMAIN_NAMES = {"HP": "历史与政治", "HS": "人文与社会", "TE": "科技与经济", "NE": "自然与环境", "unknown": "未分类"}
STAGE_NAMES = {
    "read": "读取", "redundant_triple": "冗余三元组", "redundant_description": "冗余描述",
    "relation_frequency": "关系频率", "relation_review": "关系审核", "search_validation": "搜索共现",
    "entity_typing": "实体类型", "domain_classification": "领域分类", "split": "划分", "finalise": "最终",
}
HIST_BINS = ("1-1", "1-2", "1-3", "1-3+")
PLOTS = ("relations.png", "triples_per_pair.png", "domains.png", "text_lengths.png", "funnel.png")


def find_cjk_font() -> str:
    """Path of a font with CJK glyphs: $CDTP_CJK_FONT, else the first known path that exists."""
    wanted = os.environ.get(FONT_ENV)
    if wanted:
        if not Path(wanted).is_file():
            raise CdtpError(f"{FONT_ENV}={wanted} is not a font file")
        return wanted
    for path in CJK_FONT_PATHS:
        if Path(path).is_file():
            return path
    raise CdtpError("no CJK font found for the Chinese plot labels (looked for "
                    + ", ".join(CJK_FONT_PATHS) + "). Install Debian's fonts-noto-cjk "
                    "(apt-get install fonts-noto-cjk; `make test` does it as root) or set "
                    f"{FONT_ENV}=/path/to/font.ttc")


class _Figures:
    """matplotlib set up with the CJK font; every missing glyph becomes an error."""

    def __init__(self, font_path: str):
        import matplotlib

        matplotlib.use("Agg", force=True)
        from matplotlib import font_manager
        import matplotlib.pyplot as plt

        font_manager.fontManager.addfont(font_path)
        self.family = font_manager.FontProperties(fname=font_path).get_name()
        self.plt = plt
        self.rc = {"font.family": [self.family], "axes.unicode_minus": False, "figure.dpi": 100,
                   "savefig.dpi": 120, "axes.spines.top": False, "axes.spines.right": False}

    @staticmethod
    def integer_ticks():
        from matplotlib.ticker import MaxNLocator

        return MaxNLocator(integer=True)

    def save(self, fig, path: Path) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fig.savefig(path, bbox_inches="tight", metadata={"Software": None})
        self.plt.close(fig)
        missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
        if missing:
            path.unlink(missing_ok=True)
            raise CdtpError(f"{path.name}: the font {self.family} lacks glyphs ({missing[0]}); "
                            "the plot would show empty boxes")


def _bar_labels(ax, bars, values, fmt="{:,}") -> None:
    for bar, v in zip(bars, values):
        ax.annotate(fmt.format(v), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    ha="center", va="bottom", fontsize=8, xytext=(0, 2), textcoords="offset points")


def plot_relations(F: _Figures, top: list[dict[str, Any]], path: Path) -> None:
    top = top[:20]
    with F.plt.rc_context(F.rc):
        fig, ax = F.plt.subplots(figsize=(7, max(2.5, 0.3 * len(top) + 1)))
        names = [t["relation"] for t in top][::-1]
        counts = [t["count"] for t in top][::-1]
        bars = ax.barh(names, counts, color="#4C72B0")
        for bar, v in zip(bars, counts):
            ax.annotate(f"{v:,}", (bar.get_width(), bar.get_y() + bar.get_height() / 2), va="center",
                        fontsize=8, xytext=(3, 0), textcoords="offset points")
        ax.set_xlabel("三元组数")
        ax.xaxis.set_major_locator(F.integer_ticks())
        ax.set_title(f"出现最多的 {len(top)} 种关系（图 6）")
        F.save(fig, path)


def plot_triples_per_pair(F: _Figures, counts: dict[str, int], path: Path) -> None:
    values = [counts.get(b, 0) for b in HIST_BINS]
    total = sum(values) or 1
    with F.plt.rc_context(F.rc):
        fig, ax = F.plt.subplots(figsize=(5, 3.5))
        bars = ax.bar(HIST_BINS, values, color="#55A868")
        for bar, v in zip(bars, values):
            ax.annotate(f"{v:,}\n{v / total:.1%}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        ha="center", va="bottom", fontsize=8, xytext=(0, 2), textcoords="offset points")
        ax.set_xlabel("每个数据-文本对的三元组数（1-1：一个，1-3+：多于三个）")
        ax.set_ylabel("数据-文本对数")
        ax.yaxis.set_major_locator(F.integer_ticks())
        ax.set_title("每对三元组数分布（图 7）")
        ax.margins(y=0.2)
        F.save(fig, path)


def plot_domains(F: _Figures, by_domain_split: dict[str, dict[str, int]], path: Path) -> None:
    domains = sorted(by_domain_split)
    splits = sorted({s for d in by_domain_split.values() for s in d}, key=lambda s: (s != "train", s))
    labels = [f"{d}\n{DOMAIN_NAMES.get(d, d)}" for d in domains]
    with F.plt.rc_context(F.rc):
        fig, ax = F.plt.subplots(figsize=(6, 3.8))
        bottom = [0] * len(domains)
        colours = {"train": "#4C72B0", "eval": "#DD8452"}
        split_names = {"train": "训练集 train", "eval": "评测集 eval", "unassigned": "未划分"}
        for s in splits:
            values = [by_domain_split[d].get(s, 0) for d in domains]
            ax.bar(labels, values, bottom=bottom, label=split_names.get(s, s), color=colours.get(s))
            bottom = [b + v for b, v in zip(bottom, values)]
        for x, total in enumerate(bottom):
            ax.annotate(f"{total:,}", (x, total), ha="center", va="bottom", fontsize=8, xytext=(0, 2),
                        textcoords="offset points")
        ax.set_ylabel("数据-文本对数")
        ax.yaxis.set_major_locator(F.integer_ticks())
        ax.set_ylim(0, max(bottom or [1]) * 1.15 + 0.5)
        ax.set_title("各领域的数据-文本对", pad=12)
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        F.save(fig, path)


def plot_text_lengths(F: _Figures, lengths: list[int], path: Path) -> None:
    with F.plt.rc_context(F.rc):
        fig, ax = F.plt.subplots(figsize=(6, 3.5))
        if lengths:
            ax.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="#8172B2")
            ordered = sorted(lengths)
            median = ordered[len(ordered) // 2]
            ax.axvline(median, color="#333333", linestyle="--", linewidth=1)
            ax.annotate(f"中位数 {median}", (median, ax.get_ylim()[1]), xytext=(4, -10),
                        textcoords="offset points", fontsize=8,
                        bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.8})
        ax.set_xlabel("文本长度（字符）")
        ax.set_ylabel("数据-文本对数")
        ax.yaxis.set_major_locator(F.integer_ticks())
        ax.set_title(f"文本长度分布（{len(lengths):,} 对）")
        F.save(fig, path)


def plot_funnel(F: _Figures, funnel: list[dict[str, Any]], totals: dict[str, Any], path: Path) -> None:
    """Entries and triples left after each stage, after a first bar for the whole input.

    The read stage counts raw entries, which have no triples yet, so the input
    bars come from the audit totals (every input is kept or dropped exactly once).
    """
    steps = [s for s in funnel if s["stage"] != "read" and (s["in"]["entries"] or s["out"]["entries"])]
    names = ["输入"] + [STAGE_NAMES.get(s["stage"], s["stage"]) for s in steps]
    entries = [sum(totals.get("entry", {}).values())] + [s["out"]["entries"] for s in steps]
    triples = [sum(totals.get("triple", {}).values())] + [s["out"]["triples"] for s in steps]
    with F.plt.rc_context(F.rc):
        fig, (a1, a2) = F.plt.subplots(1, 2, figsize=(10, 3.8))
        for ax, values, colour, title in ((a1, entries, "#4C72B0", "各阶段后保留的条目"),
                                          (a2, triples, "#C44E52", "各阶段后保留的三元组")):
            bars = ax.bar(range(len(names)), values, color=colour)
            _bar_labels(ax, bars, values)
            ax.yaxis.set_major_locator(F.integer_ticks())
            ax.set_xticks(range(len(names)), names, rotation=35, ha="right")
            ax.set_title(title)
            ax.margins(y=0.15)
        fig.suptitle("构建漏斗（本次构建）")
        F.save(fig, path)


def make_plots(out_dir: Path, stats: dict[str, Any], by_domain_split: dict[str, dict[str, int]],
               lengths: list[int], relations: list[dict[str, Any]]) -> list[Path]:
    """Write the five PNGs into `out_dir`; their paths.

    `relations` ({relation, count}, most frequent first) are the released
    pairs' own counts (release.pair_columns), not stats.json's top relations,
    which a build of an earlier version took from the relation-frequency stage,
    before later stages dropped triples (search validation, near-duplicates).
    """
    F = _Figures(find_cjk_font())
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / name for name in PLOTS]
    plot_relations(F, relations, paths[0])
    plot_triples_per_pair(F, stats.get("triples_per_pair", {}).get("counts", {}), paths[1])
    plot_domains(F, by_domain_split, paths[2])
    plot_text_lengths(F, lengths, paths[3])
    plot_funnel(F, stats.get("funnel", []), stats.get("totals", {}), paths[4])
    return paths
