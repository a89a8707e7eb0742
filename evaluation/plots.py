"""Leaderboard plots (PNG) with readable Chinese labels.

matplotlib's default font has no CJK glyphs and draws tofu boxes, so the plots
use a Noto CJK font found by file path (Debian's fonts-noto-cjk, installed by
the Makefile). Without one, plotting fails with a clear error instead of
writing unreadable pictures.

- `bars`: one group of bars per dataset (task x domain), one bar per model;
- `radar`: capability scores per model on one polar chart;
- `closed_open_scatter`: closed-ended accuracy against the open-ended judged
  score, one point per model, with Spearman and Pearson in the title.
"""
from __future__ import annotations

import glob
import math
import os
from typing import Sequence

FONT_GLOBS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSans*CJK*.tt[cf]",
    "/usr/share/fonts/**/NotoSansCJK*.tt[cf]",
    "/usr/share/fonts/**/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/**/*CJK*.tt[cf]",
    "/usr/share/fonts/**/wqy*.tt[cf]",
)


class PlotError(RuntimeError):
    """No CJK font, or nothing to plot."""


def cjk_font_path() -> str:
    """Path of a font with CJK glyphs, or PlotError naming the package to install."""
    override = os.environ.get("CDTP_CJK_FONT")
    if override and os.path.isfile(override):
        return override
    for pattern in FONT_GLOBS:
        found = sorted(glob.glob(pattern, recursive=True))
        if found:
            return found[0]
    raise PlotError("no CJK font found: install Debian's fonts-noto-cjk (make does), "
                    "or set CDTP_CJK_FONT to a .ttf/.ttc with Chinese glyphs")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager
    import matplotlib.pyplot as plt

    path = cjk_font_path()
    font_manager.fontManager.addfont(path)
    name = font_manager.FontProperties(fname=path).get_name()
    plt.rcParams["font.family"] = [name, "DejaVu Sans"]
    plt.rcParams["axes.unicode_minus"] = False
    return plt


def bars(path: str, models: Sequence[str], datasets: Sequence[str], scores: dict[str, dict[str, float | None]],
         title: str = "各数据集得分（基线 = 100）") -> str:
    """Grouped bars: datasets on x, one bar per model; missing scores are left out and marked."""
    if not models or not datasets:
        raise PlotError("nothing to plot: no model or no dataset")
    plt = _pyplot()
    width = 0.8 / len(models)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(datasets) + 2), 4.5), dpi=120)
    for i, m in enumerate(models):
        xs, ys = [], []
        for j, d in enumerate(datasets):
            v = scores[m].get(d)
            if v is None:
                ax.text(j + (i - (len(models) - 1) / 2) * width, 0, "缺", ha="center", va="bottom", fontsize=8, color="grey")
                continue
            xs.append(j + (i - (len(models) - 1) / 2) * width)
            ys.append(v)
        ax.bar(xs, ys, width=width, label=m)
    ax.set_xlim(-0.6, len(datasets) - 0.4)
    ax.set_xticks(range(len(datasets)))
    ax.set_xticklabels(datasets, rotation=30, ha="right", fontsize=8)
    ax.axhline(100, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylabel("归一化得分")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def radar(path: str, models: Sequence[str], capabilities: Sequence[tuple[str, str]],
          scores: dict[str, dict[str, float | None]], title: str = "能力雷达图（基线 = 100）") -> str:
    """One polygon per model over the capabilities ((name, label) pairs); a missing score is drawn at 0 and
    labelled as missing in the legend, so it is never mistaken for a score."""
    if len(capabilities) < 3:
        raise PlotError(f"a radar needs at least 3 capabilities, got {len(capabilities)}")
    plt = _pyplot()
    angles = [2 * math.pi * i / len(capabilities) for i in range(len(capabilities))]
    fig = plt.figure(figsize=(5.5, 5.5), dpi=120)
    ax = fig.add_subplot(111, polar=True)
    for m in models:
        vals = [scores[m].get(name) for name, _ in capabilities]
        missing = [label for (name, label), v in zip(capabilities, vals) if v is None]
        data = [v or 0.0 for v in vals]
        label = m if not missing else f"{m}（缺：{'、'.join(missing)}）"
        ax.plot(angles + angles[:1], data + data[:1], label=label)
        ax.fill(angles + angles[:1], data + data[:1], alpha=0.1)
    ax.set_xticks(angles)
    ax.set_xticklabels([label for _, label in capabilities])
    ax.set_title(title, pad=18)
    ax.legend(loc="upper right", bbox_to_anchor=(1.35, 1.1), fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def closed_open_scatter(path: str, points: dict[str, tuple[float, float]], spearman_r: float, pearson_r: float,
                        title: str = "封闭式与开放式结果") -> str:
    """Closed-ended Hits@1 (x) against the open-ended judged score (y), one labelled point per model."""
    if not points:
        raise PlotError("nothing to plot: no model has both closed and open results")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 4.5), dpi=120)
    for m, (x, y) in sorted(points.items()):
        ax.scatter([x], [y])
        ax.annotate(m, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set_xlabel("封闭式问答 Hits@1")
    ax.set_ylabel("开放式问答得分（胜=1，平=0.5）")
    ax.set_title(f"{title}\nSpearman {spearman_r:.2f}  Pearson {pearson_r:.2f}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
