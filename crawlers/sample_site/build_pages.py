"""Render the bundled sample Baike site from its page data (crawlers/sample_site/*.html).

    python -m crawlers.sample_site.build_pages [OUT_DIR]

The pages are data: `pages/<key>.json`, one hand-editable file per entry (format
in `page_data.py`, what each page exercises in `pages/README.md`). This module only
renders them, in Baidu Baike's older markup (`div.lemma-summary`, `dl.basicInfo-block`,
`#open-tag`) or its current one (`h1.J-lemma-title`, `div.J-summary`,
`dt.basicInfoItem.itemName`, `div.J-lemma-content`), into `<key>.html` in OUT_DIR
(default: this folder). The served site is the committed HTML: after editing a
page, run the command and commit both; a test regenerates the site and checks it
is byte-identical. Bad page data stops with `build_pages: error: <file>: <reason>`
(exit 2), never a half-written site. `seeds.txt` (秦始皇, 李白, 华为: a depth-first
crawl from them reaches all 24 pages within depth 3) is a plain data file too.
"""
from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

from crawlers.sample_site.page_data import CITE, LINK, Page, Site, load_site
from pipeline.errors import CdtpError

OUT_DIR = Path(__file__).resolve().parent

_MARK = LINK.pattern + "|" + CITE.pattern


def render_inline(site: Site, text: str, markup: str, *, in_infobox: bool = False, owner: Page | None = None) -> str:
    """Mini markup -> HTML: `[[key]]`/`[[key|text]]` entry links, `{{n}}` citation marks.

    Links in infobox values carry no lemma id (as on real legacy pages) unless
    the target is polysemous; everything else uses `/item/<title>/<id>`.
    """
    out: list[str] = []
    pos = 0
    for m in re.finditer(_MARK, text):
        out.append(_text(text[pos : m.start()], markup))
        pos = m.end()
        if m.group(3):  # citation
            n = m.group(3)
            if markup == "legacy":
                ident = owner.lemma_id if owner else 0
                out.append(
                    f'<sup class="sup--normal" data-sup="{n}" data-ctrmap=":{n},">\n[{n}]</sup>'
                    f'<a class="sup-anchor" name="ref_[{n}]_{ident}">&nbsp;</a>'
                )
            else:
                out.append(f'<sup class="supWrap_Jt1aC" data-tag="ref" data-index="{n}"><span>[{n}]</span></sup>')
            continue
        target = site.target(m.group(1))
        label = html.escape(m.group(2) or target.title)
        with_id = not in_infobox or len(site.senses(target.title)) > 1
        href = target.href(with_id)
        if markup == "legacy":
            lid = f' data-lemmaid="{target.lemma_id}"' if with_id else ""
            out.append(f'<a target=_blank href="{href}"{lid}>{label}</a>')
        else:
            out.append(f'<a class="innerLink_Qx1Tb" href="{href}?fromModule=lemma_inlink" target="_blank">{label}</a>')
    out.append(_text(text[pos:], markup))
    return "".join(out)


def _text(chunk: str, markup: str) -> str:
    if not chunk:
        return ""
    if markup == "current":
        return f'<span class="text_H38Vn">{chunk}</span>' if "<br/>" not in chunk else "<br/>".join(
            f'<span class="text_H38Vn">{c}</span>' for c in chunk.split("<br/>")
        )
    return chunk  # legacy: plain text; names may carry &nbsp; entities on purpose


def _head(site: Site, page: Page, charset: str) -> str:
    title = page.title + (f"（{page.subtitle}）" if page.subtitle else "")
    desc = html.escape(site.plain(page.summary[0])[:90], quote=True)
    return (
        "<!DOCTYPE html>\n<!--STATUS OK-->\n<html>\n<head>\n"
        f'<meta charset="{charset}">\n'
        '<meta http-equiv="X-UA-Compatible" content="IE=Edge" />\n'
        f'<meta name="description" content="{desc}...">\n'
        f"<title>{html.escape(title)}_百度百科</title>\n"
        '<link rel="shortcut icon" href="/favicon.ico" type="image/x-icon" />\n'
        f'<meta name="keywords" content="{html.escape(page.title)} {" ".join(html.escape(s) for s, _ in page.sections)}">\n'
        "</head>\n"
    )


_NAV = (
    '<div class="header-wrapper"><div class="header">\n'
    '<a class="logo" href="/" title="到百科首页">百度百科</a>\n'
    '<form class="search" action="/search/word" method="get"><input name="word" type="text"/>'
    '<button type="submit">进入词条</button></form>\n'
    '<dl class="nav"><dd><a href="/wikicategory/view?categoryName=%E5%8E%86%E5%8F%B2" target="_blank">历史</a></dd>'
    '<dd><a href="/usercenter" target="_blank">个人中心</a></dd>'
    '<dd><a href="javascript:void(0);" class="j-login">登录</a></dd></dl>\n'
    "</div></div>\n"
)

_FOOTER = (
    '<div class="footer"><p>&copy;2026 cdtp 示例站点 本页面内容为项目自行撰写的示例词条'
    ' <a href="/help" target="_blank">使用百科前必读</a></p></div>\n'
)


def render_legacy(site: Site, page: Page) -> str:
    charset = "GBK" if page.encoding == "gbk" else "UTF-8"
    lid = page.lemma_id
    parts = [_head(site, page, charset), "<body>\n", _NAV, '<div class="body-wrapper">\n<div class="before-content">\n']
    senses = site.senses(page.title)
    if len(senses) > 1:
        parts.append(
            '<div class="polysemant-list polysemant-list-normal">\n<div class="polysemantList-header">'
            f'<b class="polysemant-list-lemma-title">{page.title}</b>是一个多义词，请在下列义项上选择浏览'
            f"（共{len(senses)}个义项）</div>\n"
            '<ul class="polysemantList-wrapper cmn-clearfix">\n'
        )
        for s in senses:
            if s is page:
                parts.append(f'<li class="item">▪<span class="selected">{s.subtitle}</span></li>\n')
            else:
                parts.append(
                    f'<li class="item">▪<a title="{s.subtitle}" href="{s.href()}#viewPageContent">{s.subtitle}</a></li>\n'
                )
        parts.append("</ul>\n</div>\n")
    parts.append(
        '</div>\n<div class="content-wrapper">\n<div class="content">\n<div class="main-content">\n'
        '<div class="top-tool"><a class="add-sub-icon top-tool-icon" href="javascript:;" title="添加义项"></a></div>\n'
        '<dl class="lemmaWgt-lemmaTitle lemmaWgt-lemmaTitle-">\n<dd class="lemmaWgt-lemmaTitle-title">\n'
        f"<h1 >{page.title}</h1>\n"
    )
    if page.subtitle:
        parts.append(f"<h2>（{page.subtitle}）</h2>\n")
    parts.append(
        '<a href="javascript:;" class="edit-lemma cmn-btn-hover-blue cmn-btn-28 j-edit-link">编辑</a>\n'
        f'<a href="/planet/talk?lemmaId={lid}" target="_blank" class="lemma-discussion cmn-btn-hover-blue cmn-btn-28 j-discussion-link">讨论</a>\n'
        "</dd>\n"
    )
    if page.english:
        parts.append(f'<dd class="lemmaWgt-lemmaTitle-subTitle">\n<h3>{page.english}</h3>\n</dd>\n')
    parts.append('</dl><div class="lemma-summary" label-module="lemmaSummary">\n')
    for para in page.summary:
        parts.append(f'<div class="para" label-module="para">{render_inline(site, para, "legacy", owner=page)}</div>\n')
    parts.append('</div>\n<div class="configModuleBanner">\n</div><div class="basic-info cmn-clearfix">\n')
    half = (len(page.infobox) + 1) // 2
    for side, rows in (("left", page.infobox[:half]), ("right", page.infobox[half:])):
        parts.append(f'<dl class="basicInfo-block basicInfo-{side}">\n')
        for name, value in rows:
            parts.append(
                f'<dt class="basicInfo-item name">{name}</dt>\n'
                f'<dd class="basicInfo-item value">\n{render_inline(site, value, "legacy", in_infobox=True)}\n</dd>\n'
            )
        parts.append("</dl>")
    parts.append('</div>\n<div class="lemmaWgt-lemmaCatalog">\n<div class="lemma-catalog">\n<h2 class="block-title">目录</h2>\n<ol>\n')
    for i, (heading, _) in enumerate(page.sections, 1):
        parts.append(f'<li class="level1"><span class="index">{i}</span><span class="text"><a href="#{i}">{heading}</a></span></li>\n')
    parts.append("</ol>\n</div>\n</div>\n")
    for i, (heading, paras) in enumerate(page.sections, 1):
        parts.append(
            f'<div class="anchor-list">\n<a name="{i}" class="lemma-anchor para-title" ></a>\n</div>'
            f'<div class="para-title level-2" label-module="para-title">\n'
            f'<h2 class="title-text"><span class="title-prefix">{page.title}</span>{heading}</h2>\n'
            f'<a class="edit-icon j-edit-link" data-edit-dl="{i}" href="javascript:;">编辑</a>\n</div>\n'
        )
        for para in paras:
            parts.append(f'<div class="para" label-module="para">{render_inline(site, para, "legacy", owner=page)}</div>\n')
    parts.append(
        '<dl class="lemma-reference collapse nslog-area" data-nslog-type="2">\n<dt class="reference-title">参考资料</dt>\n'
        '<dd class="reference-list-wrap">\n<ul class="reference-list">\n'
        f'<li class="reference-item" id="reference-[1]-{lid}-wrap"><span class="index">1.</span>'
        f'<a class="gotop anchor" name="refIndex_1_{lid}" href="#ref_[1]_{lid}">&nbsp;&nbsp;</a>'
        '<span class="text">本示例站点的编写说明</span><span class="site">．cdtp项目</span></li>\n'
        "</ul>\n</dd>\n</dl>\n"
    )
    parts.append('<div id="open-tag">\n<div class="open-tag-title">词条标签：</div>\n<dd id="open-tag-item">\n')
    parts.append("\n，".join(f'<span class="taglist">\n{t}\n</span>' for t in page.tags))
    parts.append("\n</dd>\n</div>\n</div>\n")  # open-tag, main-content
    parts.append(
        '<div class="side-content">\n'
        f'<div class="lemmaWgt-promotion-rightPreciseAd" data-lemmaId="{lid}" data-lemmaTitle="{page.title}"></div>'
        '<div class="lemmaWgt-sideRecommend">\n'
        f'<div class="zhixin-box" id="zhixinWrap" data-source="" data-newLemmaId="{lid}">\n</div>\n</div>\n'
        '<dl class="side-box lemma-statistics"><dt class="title">词条统计</dt><dd class="description">'
        f'<a href="/historylist/{quote(page.title, safe="")}/{lid}" target="_blank">历史版本</a></dd></dl>\n'
        "</div>\n</div>\n</div>\n</div>\n"
    )
    parts.append(
        _FOOTER + "<script>\n!function(){    require.async([\"wiki-lemma:widget/basicElement/topShare/topShare\"],function(topShare){\n"
        f"        topShare({{\n            newLemmaId: '{lid}'\n        }});\n    }});\n}}();\n</script>\n"
        "</body>\n</html>\n"
    )
    return "".join(parts)


def render_current(site: Site, page: Page) -> str:
    lid = page.lemma_id
    data = {"lemmaId": lid, "lemmaTitle": page.title}
    if page.subtitle:
        data["lemmaDesc"] = page.subtitle
    parts = [_head(site, page, "utf-8").replace("<html>", '<html lang="zh-CN">')]
    parts[0] = parts[0].replace(
        "</head>\n",
        f'<link rel="canonical" href="https://baike.baidu.com{page.href()}">\n'
        f"<script>window.PAGE_DATA = {json.dumps(data, ensure_ascii=False)};</script>\n</head>\n",
    )
    parts.append(
        '<body>\n<div class="header_Ab3Kd"><a class="logo_Lk2Xs" href="/">百度百科</a>'
        '<form class="searchBox_Ym7Qe" action="/search/word"><input name="word"/></form></div>\n'
        '<div class="mainContent_dvM3V" id="J-lemma-main-wrapper">\n  <div class="lemmaTitleBox_Kx2p0">\n'
        f'    <h1 class="lemmaTitle_qmNnR J-lemma-title">{page.title}</h1>\n'
    )
    if page.subtitle:
        parts.append(f'    <div class="lemmaDesc_Yh2rT"><span class="lemmaDescText_Tr9Xa">（{page.subtitle}）</span></div>\n')
    parts.append("  </div>\n")
    senses = site.senses(page.title)
    if len(senses) > 1:
        parts.append('  <div class="polysemantList_Wr3Hb"><span>多义词：</span>')
        for s in senses:
            if s is page:
                parts.append(f'<span class="selected_Mn4Rt">{s.subtitle}</span>')
            else:
                parts.append(f'<a class="contentItem_Lg8Tz" href="{s.href()}?fromModule=disambiguation">{s.subtitle}</a>')
        parts.append("</div>\n")
    parts.append('  <div class="lemmaSummary__tEeY J-summary">\n')
    for para in page.summary:
        parts.append(
            '    <div class="para_SkYG9 summary_Iw34L MARK_MODULE" data-tag="paragraph">'
            f"{render_inline(site, para, 'current')}</div>\n"
        )
    parts.append('  </div>\n  <div class="basicInfo_Gvg0x J-basic-info">\n')
    half = (len(page.infobox) + 1) // 2
    for side, rows in (("left", page.infobox[:half]), ("right", page.infobox[half:])):
        parts.append(f'    <dl class="basicInfoBlock_B6Tjr {side}">\n')
        for name, value in rows:
            parts.append(
                '      <div class="itemWrapper_Wt5JN">'
                f'<dt class="basicInfoItem_teWwQ itemName_A9AXb">{name}</dt>'
                f'<dd class="basicInfoItem_teWwQ itemValue_ZbhBC">{render_inline(site, value, "current", in_infobox=True)}</dd></div>\n'
            )
        parts.append("    </dl>\n")
    parts.append('  </div>\n  <div class="contentWrapper_Rt9Qm J-lemma-content">\n')
    for i, (heading, paras) in enumerate(page.sections, 1):
        parts.append(
            f'    <div class="paraTitle_Zb7Lk level-1_Ym3Nc J-pgc-after-dom" data-index="{i}">'
            f'<h2 class="h2_Kd8Tz">{heading}</h2></div>\n'
        )
        for para in paras:
            parts.append(
                '    <div class="para_SkYG9 content_cFweI MARK_MODULE" data-tag="paragraph">'
                f"{render_inline(site, para, 'current')}</div>\n"
            )
    parts.append('  </div>\n  <div class="lemmaTagList_Q1Vb8 J-tag"><span class="tagTitle_Pq2Wd">词条标签：</span>')
    parts.append("".join(f'<span class="tagItem_M9wxP">{t}</span>' for t in page.tags))
    parts.append("</div>\n</div>\n")
    parts.append(
        '<div class="footer_Hn6Vc"><p>&copy;2026 cdtp 示例站点 本页面内容为项目自行撰写的示例词条</p></div>\n'
        "</body>\n</html>\n"
    )
    return "".join(parts)


def render(site: Site, page: Page) -> bytes:
    text = render_legacy(site, page) if page.markup == "legacy" else render_current(site, page)
    try:
        return text.encode(page.encoding)
    except UnicodeEncodeError as err:
        raise CdtpError(f"{page.key}.json: {text[err.start:err.end]!r} cannot be written as {page.encoding}") from None


def build(site: Site) -> dict[str, bytes]:
    """All pages as {file name: bytes}."""
    return {p.filename: render(site, p) for p in site.pages}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else OUT_DIR
    try:
        if len(args) > 1 or (args and args[0].startswith("-")):
            raise CdtpError("usage: python -m crawlers.sample_site.build_pages [OUT_DIR]")
        site = load_site()
        files = build(site)
    except CdtpError as err:
        print(f"build_pages: error: {err}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (out / name).write_bytes(data)
    print(f"wrote {len(site.pages)} pages to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
