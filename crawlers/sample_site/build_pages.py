"""Generate the bundled sample Baike site (crawlers/sample_site/*.html).

The sample site feeds `cdtp demo` and the crawler tests, so it is designed,
not scraped: 24 entry pages written for this project (real facts, our own
sentences), half in Baidu Baike's older markup (`div.lemma-summary`,
`dl.basicInfo-block`, `#open-tag`) and half in the current one
(`h1.J-lemma-title`, `div.J-summary`, `dt.basicInfoItem.itemName`,
`div.J-lemma-content`), six per CDTP domain (HP, HS, TE, NE).

What the pages exercise downstream:

* most infobox facts are stated in the summary, so the pair survives
  alignment; some rows are not (redundant triples: taxonomy ranks, aliases);
* dates and numbers in other surface forms (`2010-11-16` in the infobox,
  `2010年11月16日` in the text; `350km/h` vs `每小时350千米`; `45000千米` vs
  `4.5万千米`);
* multi-valued values (`A、B、C` and `<br/>`-separated lines);
* one polysemous title, 杜鹃, with two senses (plant and bird) under
  `/item/杜鹃/<id>` with subtitles;
* summaries of 红楼梦 and 长江 that trail off into descriptions no infobox
  row covers (redundant descriptions);
* citation marks `[n]` inside summaries; one page stored as GBK.

Every `/item/` link points at a page of the site; a depth-first crawl from
the seeds in seeds.txt (秦始皇, 李白, 华为) reaches all 24 pages within depth 3.
Lemma ids are made up for this site. Run `python crawlers/sample_site/build_pages.py`
after editing; tests check the committed pages match this file.
"""
from __future__ import annotations

import html
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

OUT_DIR = Path(__file__).resolve().parent
SEEDS = ["秦始皇", "李白", "华为"]


@dataclass
class Page:
    key: str  # link target name used in [[...]] markup
    title: str
    lemma_id: int
    domain: str  # HP, HS, TE, NE
    markup: str  # "legacy" | "current"
    summary: list[str]
    infobox: list[tuple[str, str]]
    sections: list[tuple[str, list[str]]]
    tags: list[str]
    subtitle: str | None = None
    english: str | None = None
    encoding: str = "utf-8"
    extra: dict = field(default_factory=dict)

    @property
    def filename(self) -> str:
        return f"{self.key}.html"


PAGES: list[Page] = [
    # ------------------------------------------------------------------ HP
    Page(
        key="秦始皇", title="秦始皇", lemma_id=6101237, domain="HP", markup="legacy",
        summary=[
            "秦始皇（前259年—前210年），本名嬴政，出生于赵国都城邯郸，是秦庄襄王之子，"
            "也是中国历史上第一位使用“皇帝”称号的君主。{{1}}",
            "嬴政十三岁继承秦王之位，前221年灭齐后完成统一六国的大业，建立起中央集权的秦朝。"
            "他在全国推行郡县制，统一文字、货币和度量衡，又把战国时期各国修筑的城墙连接起来，"
            "形成了最早的万里[[长城]]。{{2}}前210年，秦始皇在东巡途中病逝于沙丘，葬于骊山北麓的秦始皇陵。",
        ],
        infobox=[
            ("中文名", "秦始皇"),
            ("本&nbsp;&nbsp;&nbsp;&nbsp;名", "嬴政"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;名", "赵政、祖龙"),
            ("所处时代", "秦朝"),
            ("民族族群", "华夏族"),
            ("出生地", "邯郸"),
            ("出生日期", "前259年"),
            ("逝世日期", "公元前210年"),
            ("主要成就", "统一六国<br/>推行郡县制<br/>统一文字和度量衡"),
            ("陵&nbsp;&nbsp;&nbsp;&nbsp;墓", "秦始皇陵"),
        ],
        sections=[
            ("统一措施", [
                "秦统一后废除分封制，把全国分为三十六郡，郡下设县，由朝廷直接任免官员。"
                "文字以小篆为标准，货币以圆形方孔的半两钱为标准，车轨的宽度也被统一。",
            ]),
            ("历史评价", [
                "秦始皇的功过历来争议很大。后人常把他与汉武帝、[[唐太宗]]、宋太祖并称，"
                "认为他们都是开创一代格局的帝王；同时他焚书坑儒、大兴土木，又被视为暴政的代表。"
                "秦朝二世而亡，此后历代王朝大多沿用了他建立的郡县制度，直到[[唐朝]]仍以州县治理天下。",
            ]),
        ],
        tags=["历史人物", "帝王", "秦朝", "政治人物"],
    ),
    Page(
        key="赤壁之战", title="赤壁之战", lemma_id=6102418, domain="HP", markup="legacy",
        summary=[
            "赤壁之战是东汉末年孙刘联军在长江赤壁一带大败[[曹操]]军队的一场战役，发生于建安十三年，即公元208年。{{1}}"
            "周瑜、刘备率领联军以火攻焚毁曹军战船，曹操率残部北撤，战役以孙刘联军获胜告终。",
        ],
        infobox=[
            ("中文名", "赤壁之战"),
            ("发生时间", "公元208年"),
            ("地&nbsp;&nbsp;&nbsp;&nbsp;点", "[[长江]]赤壁一带"),
            ("参战方", "孙刘联军、曹操军"),
            ("结&nbsp;&nbsp;&nbsp;&nbsp;果", "孙刘联军获胜"),
            ("主要指挥官", "周瑜、刘备、曹操"),
            ("所属时期", "东汉末年"),
        ],
        sections=[
            ("战役经过", [
                "这场战役是中国历史上以少胜多、以弱胜强的著名战例，为此后三国鼎立的局面奠定了基础。",
                "208年秋，[[曹操]]在基本统一北方后率军南下，占领荆州。孙权采纳鲁肃、周瑜的建议，与刘备结盟抗曹。"
                "双方在赤壁相遇，曹军不习水战，又多染疾病，初战失利。"
                "黄盖诈降，以装满柴草的船只顺风纵火，曹军战船被焚，大败而归。{{2}}",
            ]),
            ("文学影响", [
                "《三国演义》用大量篇幅描写这场战役，草船借箭、借东风等情节多出自小说的虚构。"
                "这些故事后来被[[京剧]]等戏曲改编为《群英会》《借东风》等剧目。",
            ]),
        ],
        tags=["历史事件", "战役", "三国"],
    ),
    Page(
        key="唐朝", title="唐朝", lemma_id=6103522, domain="HP", markup="legacy",
        english="Tang Dynasty",
        summary=[
            "唐朝（618年—907年），英文名Tang Dynasty，是继隋朝之后的大一统王朝，由李渊建立，定都长安，共历二十一帝，享国二百八十九年。{{1}}",
            "唐朝的主要君主有[[唐太宗]]、武则天和唐玄宗，唐太宗时期出现贞观之治，唐玄宗前期又有开元盛世；中央实行三省六部制。",
        ],
        infobox=[
            ("中文名", "唐朝"),
            ("外文名", "Tang Dynasty"),
            ("国&nbsp;&nbsp;&nbsp;&nbsp;号", "唐"),
            ("都&nbsp;&nbsp;&nbsp;&nbsp;城", "长安"),
            ("建立时间", "618年"),
            ("灭亡时间", "907年"),
            ("开国君主", "李渊"),
            ("主要君主", "[[唐太宗]]、武则天、唐玄宗"),
            ("政治制度", "三省六部制"),
        ],
        sections=[
            ("政治", [
                "唐朝沿用并完善了隋朝创立的三省六部制和科举制度。中书省起草诏令，门下省审核，尚书省执行，相互制衡。",
            ]),
            ("文化", [
                "唐朝是中国诗歌的黄金时代，[[李白]]、[[杜甫]]、白居易等诗人留下了大量名篇。"
                "清代康熙年间，[[曹雪芹]]的祖父曹寅主持刊刻《全唐诗》，收录唐代诗作四万八千余首。",
                "唐玄宗在宫中设立梨园教习乐舞，后世因此把戏曲界称为“梨园”，[[京剧]]演员也常以“梨园子弟”自称。",
            ]),
        ],
        tags=["历史", "朝代", "中国古代史"],
    ),
    Page(
        key="唐太宗", title="唐太宗", lemma_id=6104630, domain="HP", markup="current",
        summary=[
            "唐太宗李世民（598年—649年）是[[唐朝]]的第二位皇帝，唐高祖李渊的次子。"
            "626年他通过玄武门之变被立为太子，同年即位，次年改年号为贞观。{{1}}",
            "在位期间他虚心纳谏，重用魏征、房玄龄等大臣，社会安定、经济恢复，史称“贞观之治”。649年病逝，葬于昭陵。",
        ],
        infobox=[
            ("本&nbsp;&nbsp;&nbsp;&nbsp;名", "李世民"),
            ("所处时代", "[[唐朝]]"),
            ("出生日期", "598年"),
            ("逝世日期", "649年"),
            ("在位时间", "626年—649年"),
            ("年&nbsp;&nbsp;&nbsp;&nbsp;号", "贞观"),
            ("父&nbsp;&nbsp;&nbsp;&nbsp;亲", "李渊"),
            ("陵&nbsp;&nbsp;&nbsp;&nbsp;墓", "昭陵"),
            ("主要成就", "开创贞观之治、击败东突厥"),
        ],
        sections=[
            ("治国", [
                "唐太宗以隋朝二世而亡为鉴，主张轻徭薄赋、任用贤能。魏征前后进谏二百余次，太宗多能采纳。",
            ]),
            ("对外关系", [
                "630年唐军击败东突厥，西北各族首领尊称唐太宗为“天可汗”。后人常把他与[[秦始皇]]、汉武帝并列，视为有作为的君主。",
            ]),
        ],
        tags=["历史人物", "帝王", "唐朝"],
    ),
    Page(
        key="长城", title="长城", lemma_id=6105741, domain="HP", markup="current",
        english="The Great Wall",
        summary=[
            "长城（The Great Wall）是中国古代修筑的大型军事防御工程，修建历史可以上溯到西周时期。{{1}}"
            "春秋战国时期，各诸侯国为相互防御纷纷修筑城墙；[[秦始皇]]统一中国后，把北方的城墙连为一体，"
            "汉朝和明朝又进行了大规模修建。",
            "根据国家文物局2012年公布的数据，历代长城的总长度为21196.18千米。1987年12月，长城被列入《世界遗产名录》。",
        ],
        infobox=[
            ("中文名", "长城"),
            ("外文名", "The Great Wall"),
            ("始建时间", "西周时期"),
            ("总长度", "21196.18千米"),
            ("主要修建朝代", "秦朝、汉朝、明朝"),
            ("遗产类别", "文化遗产"),
            ("列入世界遗产时间", "1987年"),
        ],
        sections=[
            ("现存遗迹", [
                "现存保存较完整的多为明长城，东起辽宁丹东的虎山，西至甘肃的嘉峪关。北京的八达岭、慕田峪等段是著名的游览地。",
            ]),
            ("历代修筑", [
                "[[唐朝]]疆域辽阔，主要依靠军镇防守边疆，基本没有大规模修筑长城。明朝为防御北方蒙古各部，前后修筑长城两百多年。",
            ]),
        ],
        tags=["世界遗产", "建筑", "历史遗迹"],
    ),
    Page(
        key="曹操", title="曹操", lemma_id=6106852, domain="HP", markup="current",
        summary=[
            "曹操（155年—220年），字孟德，沛国谯县（今安徽亳州）人，是东汉末年以政治和军事才能著称的人物，也擅长诗文。{{1}}"
            "他挟天子以令诸侯，先后平定北方各地的割据势力，但在208年的[[赤壁之战]]中败于孙刘联军。",
            "曹操的诗作《观沧海》《短歌行》《蒿里行》流传至今。220年3月15日他在洛阳去世，其子曹丕称帝后追尊他为魏武帝，葬于高陵。",
        ],
        infobox=[
            ("中文名", "曹操"),
            ("字", "孟德"),
            ("所处时代", "东汉末年"),
            ("出生地", "沛国谯县"),
            ("出生日期", "155年"),
            ("逝世日期", "220年3月15日"),
            ("追&nbsp;&nbsp;&nbsp;&nbsp;尊", "魏武帝"),
            ("代表作品", "《观沧海》<br/>《短歌行》<br/>《蒿里行》"),
            ("陵&nbsp;&nbsp;&nbsp;&nbsp;墓", "高陵"),
        ],
        sections=[
            ("文学成就", [
                "曹操的诗歌慷慨悲凉，《观沧海》《短歌行》等作品流传至今。他与儿子曹丕、曹植并称“三曹”，是建安文学的代表。",
            ]),
            ("艺术形象", [
                "在[[京剧]]舞台上，曹操通常以白色脸谱的奸雄形象出现，这一形象主要来自小说《三国演义》。",
            ]),
        ],
        tags=["历史人物", "政治人物", "军事人物", "文学家"],
    ),
    # ------------------------------------------------------------------ HS
    Page(
        key="李白", title="李白", lemma_id=6201359, domain="HS", markup="legacy",
        summary=[
            "李白（701年—762年），字太白，号青莲居士，[[唐朝]]伟大的浪漫主义诗人，被后人誉为“诗仙”。{{1}}"
            "他出生于碎叶城，与[[杜甫]]并称“李杜”，代表作有《蜀道难》《将进酒》《静夜思》等。{{2}}",
        ],
        infobox=[
            ("中文名", "李白"),
            ("字", "太白"),
            ("号", "青莲居士"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;称", "诗仙"),
            ("所处时代", "[[唐朝]]"),
            ("出生地", "碎叶城"),
            ("出生日期", "701年"),
            ("逝世日期", "762年"),
            ("代表作品", "《蜀道难》、《将进酒》、《静夜思》、《早发白帝城》"),
        ],
        sections=[
            ("人物生平", [
                "李白出生于碎叶城，幼年随父亲迁居绵州昌隆（今四川江油）。二十四岁前后他离开蜀地，沿[[长江]]东下，漫游各地。",
                "742年李白奉诏进入长安，供奉翰林，不久受到排挤离开朝廷。安史之乱后他因永王李璘事件被流放夜郎，途中遇赦。762年病逝于当涂。",
            ]),
            ("诗歌", [
                "李白描写长江的诗句很多，《早发白帝城》中“千里江陵一日还”写出了顺江而下的轻快。"
                "晚年所作《宣城见杜鹃花》以蜀地的[[杜鹃（鸟类）|子规鸟]]和宣城的[[杜鹃（植物）|杜鹃花]]寄托思乡之情。",
            ]),
        ],
        tags=["历史人物", "诗人", "唐朝", "文学"],
    ),
    Page(
        key="杜甫", title="杜甫", lemma_id=6202468, domain="HS", markup="current",
        summary=[
            "杜甫（712年—770年），字子美，自号少陵野老，河南巩县（今河南巩义）人，唐朝现实主义诗人，被后世尊为“诗圣”。{{1}}",
            "他的诗作记录了安史之乱前后的社会动荡，被称为“诗史”。杜甫与[[李白]]并称“李杜”，代表作有《春望》《登高》以及“三吏”“三别”等。",
        ],
        infobox=[
            ("中文名", "杜甫"),
            ("字", "子美"),
            ("号", "少陵野老"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;称", "诗圣"),
            ("所处时代", "[[唐朝]]"),
            ("出生地", "河南巩县"),
            ("出生日期", "712年"),
            ("逝世日期", "770年"),
            ("代表作品", "《春望》、《登高》、《茅屋为秋风所破歌》"),
        ],
        sections=[
            ("生平", [
                "杜甫早年漫游齐赵，744年在洛阳与[[李白]]相识，两人结下深厚的友谊。"
                "安史之乱中他一度被困长安，后来辗转入蜀，在成都浣花溪畔修建草堂。",
                "晚年他携家漂泊于[[长江]]沿岸，770年冬病逝于湘江的一条小船上。",
            ]),
            ("诗作", [
                "《登高》中“无边落木萧萧下，不尽长江滚滚来”一联作于夔州，被誉为古今七律之冠。",
            ]),
        ],
        tags=["历史人物", "诗人", "唐朝", "文学"],
    ),
    Page(
        key="红楼梦", title="红楼梦", lemma_id=6203577, domain="HS", markup="legacy",
        english="A Dream of Red Mansions",
        summary=[
            "《红楼梦》是清代作家[[曹雪芹]]创作的章回体长篇小说，又名《石头记》，被列为中国古典四大名著之首。{{1}}"
            "通行本共一百二十回，一般认为前八十回出自曹雪芹之手，后四十回的作者尚有争议。",
            "小说以贾、史、王、薛四大家族的兴衰为背景，以贾宝玉和林黛玉的爱情悲剧为主线。"
            "它问世后衍生出专门研究它的学问“红学”，各种续书、评点和绘画层出不穷，"
            "书中的诗词、服饰、饮食和园林也常被人单独拿来欣赏和考证。",
        ],
        infobox=[
            ("中文名", "红楼梦"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;名", "石头记、金玉缘、情僧录"),
            ("作&nbsp;&nbsp;&nbsp;&nbsp;者", "[[曹雪芹]]"),
            ("类&nbsp;&nbsp;&nbsp;&nbsp;别", "章回体长篇小说"),
            ("创作年代", "清代"),
            ("回&nbsp;&nbsp;&nbsp;&nbsp;数", "一百二十回"),
            ("主要人物", "贾宝玉、林黛玉、薛宝钗、王熙凤"),
        ],
        sections=[
            ("改编", [
                "《红楼梦》多次被改编为戏曲和影视作品。[[梅兰芳]]在1916年前后编演了《黛玉葬花》等红楼戏，"
                "[[京剧]]和越剧舞台上的红楼剧目至今仍在上演。1987年播出的电视剧版本影响尤其广泛。",
            ]),
        ],
        tags=["文学作品", "小说", "四大名著"],
    ),
    Page(
        key="曹雪芹", title="曹雪芹", lemma_id=6204686, domain="HS", markup="current",
        summary=[
            "曹雪芹（约1715年—约1763年），本名曹霑，字梦阮，号雪芹、芹圃、芹溪，清代小说家，《[[红楼梦]]》的作者。{{1}}",
            "他出身于江宁织造曹家，雍正年间曹家被抄没，家道中落。曹雪芹后半生在北京西郊过着贫困的生活，"
            "用十年时间写成《红楼梦》。他的祖父是深受康熙帝信任的曹寅。",
        ],
        infobox=[
            ("中文名", "曹雪芹"),
            ("本&nbsp;&nbsp;&nbsp;&nbsp;名", "曹霑"),
            ("字", "梦阮"),
            ("号", "雪芹、芹圃、芹溪"),
            ("所处时代", "清代"),
            ("出生日期", "约1715年"),
            ("逝世日期", "约1763年"),
            ("祖&nbsp;&nbsp;&nbsp;&nbsp;父", "曹寅"),
            ("代表作品", "[[红楼梦]]"),
        ],
        sections=[
            ("家世", [
                "曹寅除担任江宁织造外，还在扬州主持刊刻《全唐诗》，收录了[[唐朝]]两千二百余位诗人的作品。",
            ]),
            ("创作", [
                "《[[红楼梦]]》在曹雪芹生前以《石头记》之名的抄本流传，只有前八十回。",
            ]),
        ],
        tags=["历史人物", "作家", "清朝", "文学"],
    ),
    Page(
        key="京剧", title="京剧", lemma_id=6205795, domain="HS", markup="current",
        english="Peking Opera",
        summary=[
            "京剧（Peking Opera）又称京戏、平剧、国剧，是中国影响最大的戏曲剧种之一。{{1}}"
            "1790年起，四大徽班陆续进京演出，与汉调艺人合作，又吸收了昆曲和秦腔的表演方法，在清代道光年间逐渐形成京剧。",
            "京剧的角色分为生、旦、净、丑四大行当，代表人物有[[梅兰芳]]、程砚秋、尚小云、荀慧生四大名旦。"
            "2010年11月16日，京剧被列入联合国教科文组织人类非物质文化遗产代表作名录。",
        ],
        infobox=[
            ("中文名", "京剧"),
            ("外文名", "Peking Opera"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;名", "京戏、平剧、国剧"),
            ("形成时间", "清代道光年间"),
            ("角色行当", "生、旦、净、丑"),
            ("代表人物", "[[梅兰芳]]、程砚秋、尚小云、荀慧生"),
            ("列入非遗名录时间", "2010-11-16"),
        ],
        sections=[
            ("脸谱", [
                "京剧用脸谱的颜色表现人物性格，红色多表示忠勇，黑色多表示刚直，白色多表示奸诈，[[曹操]]的白脸就是典型。",
            ]),
            ("剧目", [
                "传统剧目有《霸王别姬》《贵妃醉酒》《群英会》等。《群英会》取材于[[赤壁之战]]，"
                "《贵妃醉酒》取材于[[唐朝]]唐玄宗与杨贵妃的故事；梅兰芳还根据《[[红楼梦]]》编演了《黛玉葬花》。",
            ]),
        ],
        tags=["戏曲", "非物质文化遗产", "艺术"],
    ),
    Page(
        key="梅兰芳", title="梅兰芳", lemma_id=6206804, domain="HS", markup="legacy",
        summary=[
            "梅兰芳（1894年10月22日—1961年8月8日），本名梅澜，字畹华，[[京剧]]表演艺术家。他祖籍江苏泰州，出生在北京，是“四大名旦”之首。{{1}}"
            "他在长期的舞台实践中形成了独具一格的“梅派”艺术，代表作品有《贵妃醉酒》《霸王别姬》《穆桂英挂帅》《天女散花》等。",
        ],
        infobox=[
            ("中文名", "梅兰芳"),
            ("本&nbsp;&nbsp;&nbsp;&nbsp;名", "梅澜"),
            ("字", "畹华"),
            ("祖&nbsp;&nbsp;&nbsp;&nbsp;籍", "江苏泰州"),
            ("出生地", "北京"),
            ("出生日期", "1894年10月22日"),
            ("逝世日期", "1961年8月8日"),
            ("职&nbsp;&nbsp;&nbsp;&nbsp;业", "京剧表演艺术家"),
            ("代表作品", "《贵妃醉酒》、《霸王别姬》、《穆桂英挂帅》、《天女散花》"),
        ],
        sections=[
            ("艺术经历", [
                "梅兰芳八岁学戏，十一岁登台。1916年前后他编演了取材于《[[红楼梦]]》的《黛玉葬花》等新戏。",
                "1919年和1930年他先后赴日本、美国演出，1935年又访问苏联，使[[京剧]]在海外产生了广泛的影响。",
            ]),
        ],
        tags=["人物", "京剧演员", "艺术家"],
    ),
    # ------------------------------------------------------------------ TE
    Page(
        key="华为", title="华为", lemma_id=6301213, domain="TE", markup="current",
        english="Huawei",
        summary=[
            "华为技术有限公司（Huawei Technologies Co., Ltd.）成立于1987年，总部位于广东省[[深圳]]市龙岗区，是全球领先的信息与通信技术基础设施和智能终端提供商。{{1}}"
            "公司由[[任正非]]创立，主要业务包括通信设备、智能手机和云计算。",
            "华为是一家由员工持股的民营企业，没有在证券交易所上市。",
        ],
        infobox=[
            ("公司名称", "华为技术有限公司"),
            ("外文名", "Huawei Technologies Co., Ltd."),
            ("成立时间", "1987年"),
            ("总部地点", "广东省深圳市龙岗区"),
            ("创始人", "[[任正非]]"),
            ("经营范围", "通信设备、智能手机、云计算"),
            ("公司性质", "民营企业"),
            ("员工数", "约20.7万人（2023年）"),
        ],
        sections=[
            ("发展历程", [
                "华为最初代理销售用户交换机，1990年代开始自主研发程控交换机，此后业务扩展到无线网络、光网络和终端设备。",
                "华为还为[[高速铁路]]提供铁路专用的GSM-R移动通信系统。",
            ]),
        ],
        tags=["企业", "通信", "科技公司"],
    ),
    Page(
        key="任正非", title="任正非", lemma_id=6302324, domain="TE", markup="current",
        summary=[
            "任正非，中国企业家，[[华为]]技术有限公司的主要创始人。{{1}}"
            "他曾在部队从事基建工程兵工作，1983年随部队集体转业到[[深圳]]，1987年集资创办了华为。",
            "任正非1944年10月25日出生于贵州省安顺市镇宁县，毕业于重庆建筑工程学院。",
        ],
        infobox=[
            ("中文名", "任正非"),
            ("国&nbsp;&nbsp;&nbsp;&nbsp;籍", "中国"),
            ("出生地", "贵州省安顺市镇宁县"),
            ("出生日期", "1944-10-25"),
            ("毕业院校", "重庆建筑工程学院"),
            ("职&nbsp;&nbsp;&nbsp;&nbsp;业", "企业家"),
            ("主要成就", "创立[[华为]]技术有限公司"),
        ],
        sections=[
            ("创业经历", [
                "任正非与几位合伙人以两万余元注册资本在[[深圳]]创办华为，起步时主要代理香港公司的交换机产品。",
            ]),
        ],
        tags=["人物", "企业家"],
    ),
    Page(
        key="深圳", title="深圳", lemma_id=6303435, domain="TE", markup="legacy",
        english="Shenzhen",
        summary=[
            "深圳市（Shenzhen），简称“深”，别称鹏城，是广东省辖副省级市，位于珠江口东岸，与香港隔深圳河相望。{{1}}"
            "1980年8月26日，深圳经济特区正式成立。",
            "全市面积1997.47平方千米，下辖福田区、罗湖区、南山区、盐田区、宝安区、龙岗区、龙华区、坪山区、光明区9个行政区。",
        ],
        infobox=[
            ("中文名", "深圳市"),
            ("外文名", "Shenzhen"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;名", "鹏城"),
            ("行政区类别", "副省级市"),
            ("所属地区", "广东省"),
            ("下辖地区", "福田区、罗湖区、南山区、盐田区、宝安区、龙岗区、龙华区、坪山区、光明区"),
            ("面&nbsp;&nbsp;&nbsp;&nbsp;积", "1997.47平方千米"),
            ("经济特区成立时间", "1980年8月26日"),
        ],
        sections=[
            ("交通", [
                "广深港[[高速铁路]]经过深圳北站和福田站，可以直达香港西九龙站。",
            ]),
            ("经济", [
                "深圳以电子信息和通信设备制造业闻名，是[[华为]]、腾讯等企业的总部所在地，并设有[[深圳证券交易所]]。",
            ]),
        ],
        tags=["城市", "广东", "经济特区"],
    ),
    Page(
        key="深圳证券交易所", title="深圳证券交易所", lemma_id=6304546, domain="TE", markup="legacy",
        english="Shenzhen Stock Exchange", encoding="gbk",
        summary=[
            "深圳证券交易所（Shenzhen Stock Exchange），简称深交所，成立于1990年12月1日，位于[[深圳]]市福田区深南大道2012号，"
            "是中国证券监督管理委员会监督管理的证券交易所。{{1}}"
            "深交所现设有主板和创业板两个板块，其中创业板于2009年10月30日正式开市。",
        ],
        infobox=[
            ("中文名", "深圳证券交易所"),
            ("外文名", "Shenzhen Stock Exchange"),
            ("简&nbsp;&nbsp;&nbsp;&nbsp;称", "深交所"),
            ("成立时间", "1990年12月1日"),
            ("所在地", "深圳市福田区深南大道2012号"),
            ("主管单位", "中国证券监督管理委员会"),
            ("主要板块", "主板、创业板"),
            ("创业板开市时间", "2009年10月30日"),
        ],
        sections=[
            ("沿革", [
                "2004年深交所设立中小企业板，2021年4月主板与中小板合并。交易所大楼位于[[深圳]]福田中心区。",
            ]),
        ],
        tags=["金融", "证券交易所", "机构"],
    ),
    Page(
        key="高速铁路", title="高速铁路", lemma_id=6305657, domain="TE", markup="current",
        english="High-speed railway",
        summary=[
            "高速铁路（High-speed railway）简称高铁，在中国指设计速度每小时250千米及以上的新建铁路。{{1}}"
            "世界上第一条高速铁路是1964年开通的日本东海道新干线。",
            "中国第一条设计时速350千米的高速铁路是2008年8月1日开通的京津城际铁路；截至2023年底，中国高铁营业里程达到4.5万千米，居世界第一。",
        ],
        infobox=[
            ("中文名", "高速铁路"),
            ("外文名", "High-speed railway"),
            ("简&nbsp;&nbsp;&nbsp;&nbsp;称", "高铁"),
            ("设计速度", "每小时250千米及以上"),
            ("世界首条", "东海道新干线"),
            ("中国首条", "京津城际铁路"),
            ("中国营业里程", "45000千米（2023年底）"),
        ],
        sections=[
            ("中国高铁网", [
                "[[京沪高速铁路]]是“八纵八横”高铁网中京沪通道的主干。广深港高速铁路连接广州、[[深圳]]和香港。",
            ]),
            ("通信系统", [
                "高铁列车调度依靠铁路专用的GSM-R移动通信系统，[[华为]]等企业是这类系统的供应商。",
            ]),
        ],
        tags=["交通", "铁路", "科技"],
    ),
    Page(
        key="京沪高速铁路", title="京沪高速铁路", lemma_id=6306768, domain="TE", markup="legacy",
        summary=[
            "京沪高速铁路简称京沪高铁，北起北京南站，南至上海虹桥站，全长1318千米，设计速度每小时350千米，"
            "于2011年6月30日正式开通运营。{{1}}"
            "线路在南京大胜关长江大桥跨越[[长江]]，纵贯北京、天津、河北、山东、安徽、江苏、上海七个省市。",
        ],
        infobox=[
            ("中文名", "京沪高速铁路"),
            ("简&nbsp;&nbsp;&nbsp;&nbsp;称", "京沪高铁"),
            ("起&nbsp;&nbsp;&nbsp;&nbsp;点", "北京南站"),
            ("终&nbsp;&nbsp;&nbsp;&nbsp;点", "上海虹桥站"),
            ("全&nbsp;&nbsp;&nbsp;&nbsp;长", "1318千米"),
            ("设计速度", "350km/h"),
            ("开通时间", "2011年6月30日"),
            ("车站数量", "24个"),
            ("途经省市", "北京、天津、河北、山东、安徽、江苏、上海"),
            ("线路类型", "[[高速铁路]]"),
        ],
        sections=[
            ("运营", [
                "京沪高铁是中国客流最繁忙的[[高速铁路]]之一，最快的列车在两地之间运行约四个半小时。",
            ]),
        ],
        tags=["交通", "铁路", "基础设施"],
    ),
    # ------------------------------------------------------------------ NE
    Page(
        key="长江", title="长江", lemma_id=6401879, domain="NE", markup="current",
        english="Yangtze River",
        summary=[
            "长江是中国第一长河、世界第三长河，发源于青藏高原唐古拉山脉主峰各拉丹冬峰西南侧，"
            "干流流经青海、西藏、四川、云南、重庆、湖北、湖南、江西、安徽、江苏、上海11个省级行政区，"
            "在上海崇明岛以东注入东海，全长6300余千米。{{1}}",
            "长江流域面积约180万平方千米，约占中国陆地面积的五分之一。"
            "两岸自古就是人口稠密、物产丰饶的地区，江上的峡谷、沙洲和古镇留下了许多传说，也是历代游人和画家反复描绘的对象。",
        ],
        infobox=[
            ("中文名", "长江"),
            ("外文名", "Yangtze River"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;名", "扬子江"),
            ("发源地", "唐古拉山脉各拉丹冬峰"),
            ("注入海域", "东海"),
            ("全&nbsp;&nbsp;&nbsp;&nbsp;长", "6300余千米"),
            ("流域面积", "180万平方千米"),
            ("流经地区", "青海、西藏、四川、云南、重庆<br/>湖北、湖南、江西、安徽、江苏、上海"),
            ("主要支流", "雅砻江、岷江、嘉陵江、乌江、湘江、汉江、赣江"),
        ],
        sections=[
            ("历史与文学", [
                "三国时期的[[赤壁之战]]就发生在长江中游。[[李白]]、[[杜甫]]都写过许多描写长江的诗句。",
            ]),
            ("生态", [
                "长江上游的岷山、邛崃山是[[大熊猫]]的主要栖息地之一。长江中下游曾是白鳍豚的家园，这一物种已被宣布功能性灭绝。",
                "流域内的山区还保存着[[银杏]]、水杉等孑遗植物的野生种群。",
            ]),
            ("交通", [
                "[[京沪高速铁路]]在南京大胜关跨越长江。",
            ]),
        ],
        tags=["地理", "河流", "自然"],
    ),
    Page(
        key="大熊猫", title="大熊猫", lemma_id=6402980, domain="NE", markup="legacy",
        english="Giant panda",
        summary=[
            "大熊猫（Ailuropoda melanoleuca）是熊科大熊猫属的哺乳动物，中国特有物种，"
            "现存的野生种群主要分布在四川、陕西和甘肃的山区。{{1}}",
            "大熊猫体色为黑白两色，以竹子为主要食物，已在地球上生存了至少800万年，被誉为“活化石”和“中国国宝”。"
            "它是国家一级保护动物，在世界自然保护联盟红色名录中的等级为易危。",
        ],
        infobox=[
            ("中文名", "大熊猫"),
            ("拉丁学名", "Ailuropoda melanoleuca"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;称", "猫熊、竹熊"),
            ("界", "动物界"),
            ("门", "脊索动物门"),
            ("纲", "哺乳纲"),
            ("目", "食肉目"),
            ("科", "熊科"),
            ("属", "大熊猫属"),
            ("分布区域", "四川、陕西、甘肃"),
            ("保护级别", "国家一级保护动物"),
        ],
        sections=[
            ("栖息地", [
                "大熊猫栖息在[[长江]]上游的岷山、邛崃山、秦岭等山系，喜欢在海拔较高的竹林中活动。",
            ]),
            ("保护", [
                "四川的[[卧龙国家级自然保护区]]是中国最早以保护大熊猫为主的自然保护区之一。"
                "第四次全国大熊猫调查显示，截至2013年底野生大熊猫数量为1864只。",
                "与[[银杏]]、水杉等古老物种一样，大熊猫常被称作“活化石”。",
            ]),
        ],
        tags=["动物", "哺乳动物", "保护动物"],
    ),
    Page(
        key="卧龙国家级自然保护区", title="卧龙国家级自然保护区", lemma_id=6403091, domain="NE", markup="legacy",
        summary=[
            "卧龙国家级自然保护区位于四川省阿坝藏族羌族自治州汶川县西南部，始建于1963年，总面积约20万公顷，"
            "主要保护对象为[[大熊猫]]等珍稀野生动物及森林生态系统。{{1}}2021年，保护区被纳入大熊猫国家公园。",
        ],
        infobox=[
            ("中文名", "卧龙国家级自然保护区"),
            ("所在地", "四川省阿坝藏族羌族自治州汶川县"),
            ("始建时间", "1963年"),
            ("面&nbsp;&nbsp;&nbsp;&nbsp;积", "20万公顷"),
            ("保护对象", "[[大熊猫]]等珍稀野生动物及森林生态系统"),
            ("所属国家公园", "大熊猫国家公园"),
        ],
        sections=[
            ("植被", [
                "保护区海拔跨度大，植被垂直分带明显，高山地带生长着多种[[杜鹃（植物）|杜鹃]]花。",
            ]),
            ("历史", [
                "2008年汶川地震中，保护区的设施受到严重破坏，部分大熊猫被转移到雅安碧峰峡基地。"
                "2021年，卧龙保护区被纳入新设立的大熊猫国家公园。",
            ]),
        ],
        tags=["自然保护区", "四川", "地理"],
    ),
    Page(
        key="银杏", title="银杏", lemma_id=6404102, domain="NE", markup="current",
        english="Ginkgo",
        summary=[
            "银杏（Ginkgo biloba）是银杏科银杏属的落叶乔木，别称白果、公孙树、鸭脚树，是现存种子植物中最古老的孑遗植物之一。{{1}}",
            "它的叶片呈扇形，到秋季会变成金黄色。野生银杏被列为国家一级保护野生植物。",
        ],
        infobox=[
            ("中文名", "银杏"),
            ("拉丁学名", "Ginkgo biloba"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;称", "白果、公孙树、鸭脚树"),
            ("界", "植物界"),
            ("门", "银杏门"),
            ("纲", "银杏纲"),
            ("目", "银杏目"),
            ("科", "银杏科"),
            ("属", "银杏属"),
            ("保护级别", "国家一级保护野生植物"),
        ],
        sections=[
            ("活化石", [
                "银杏类植物在恐龙时代就已广泛分布，如今只剩银杏一种，因此它与[[大熊猫]]一样被称为“活化石”。"
                "中国许多古寺中保存着树龄上千年的古银杏。",
            ]),
        ],
        tags=["植物", "树木", "保护植物"],
    ),
    Page(
        key="杜鹃（植物）", title="杜鹃", subtitle="杜鹃花科杜鹃花属植物", lemma_id=6405213, domain="NE", markup="legacy",
        summary=[
            "杜鹃（Rhododendron simsii），又名映山红、山石榴，是杜鹃花科杜鹃花属的落叶灌木，"
            "广泛分布于[[长江]]流域及其以南各地，花期4—5月。{{1}}杜鹃花色彩鲜艳，是中国十大传统名花之一。",
        ],
        infobox=[
            ("中文名", "杜鹃"),
            ("拉丁学名", "Rhododendron simsii"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;称", "映山红、山石榴"),
            ("界", "植物界"),
            ("门", "被子植物门"),
            ("科", "杜鹃花科"),
            ("属", "杜鹃花属"),
            ("花&nbsp;&nbsp;&nbsp;&nbsp;期", "4—5月"),
            ("分布区域", "长江流域及其以南各地"),
        ],
        sections=[
            ("名称由来", [
                "传说古蜀国的国王杜宇死后化为[[杜鹃（鸟类）|杜鹃鸟]]，日夜啼叫直到口中流血，血滴染红了满山的花朵，这种花因此也被叫作杜鹃。",
                "[[李白]]的《宣城见杜鹃花》写道：“蜀国曾闻子规鸟，宣城还见杜鹃花。”",
            ]),
            ("分布", [
                "四川[[卧龙国家级自然保护区]]等高山地区分布着多种杜鹃花属植物。",
            ]),
        ],
        tags=["植物", "花卉"],
    ),
    Page(
        key="杜鹃（鸟类）", title="杜鹃", subtitle="杜鹃科杜鹃属鸟类", lemma_id=6406324, domain="NE", markup="current",
        summary=[
            "杜鹃是鹃形目杜鹃科杜鹃属鸟类的通称，俗称布谷鸟，古称子规、杜宇。{{1}}"
            "杜鹃属的鸟类不自己筑巢孵卵，而是把卵产在其他鸟类的巢中，由义亲代为孵化和育雏，这种行为称为巢寄生。",
            "它们主要以昆虫为食，尤其喜欢捕食松毛虫等多毛的虫子，是农林益鸟。",
        ],
        infobox=[
            ("中文名", "杜鹃"),
            ("别&nbsp;&nbsp;&nbsp;&nbsp;称", "布谷鸟、子规、杜宇"),
            ("界", "动物界"),
            ("门", "脊索动物门"),
            ("纲", "鸟纲"),
            ("目", "鹃形目"),
            ("科", "杜鹃科"),
            ("属", "杜鹃属"),
            ("食&nbsp;&nbsp;&nbsp;&nbsp;性", "以昆虫为食"),
        ],
        sections=[
            ("文化", [
                "[[杜鹃（植物）|杜鹃花]]的名字相传就来自这种鸟。[[李白]]诗中的“子规鸟”指的也是杜鹃。",
            ]),
        ],
        tags=["动物", "鸟类"],
    ),
]

BY_KEY = {p.key: p for p in PAGES}

# ----------------------------------------------------------------- rendering

_LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")
_CITE = re.compile(r"\{\{(\d+)\}\}")


def item_href(page: Page, with_id: bool = True) -> str:
    path = "/item/" + quote(page.title, safe="")
    return f"{path}/{page.lemma_id}" if with_id else path


def _target(key: str) -> Page:
    try:
        return BY_KEY[key]
    except KeyError:
        raise SystemExit(f"link to unknown page {key!r}") from None


def render_inline(text: str, markup: str, *, in_infobox: bool = False, owner: Page | None = None) -> str:
    """Mini markup -> HTML: `[[key]]`/`[[key|text]]` entry links, `{{n}}` citation marks.

    Links in infobox values carry no lemma id (as on real legacy pages) unless
    the target is polysemous; everything else uses `/item/<title>/<id>`.
    """
    out: list[str] = []
    pos = 0
    pattern = re.compile(_LINK.pattern + "|" + _CITE.pattern)
    for m in pattern.finditer(text):
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
        target = _target(m.group(1))
        label = html.escape(m.group(2) or target.title)
        polysemous = sum(1 for p in PAGES if p.title == target.title) > 1
        with_id = not in_infobox or polysemous
        href = item_href(target, with_id)
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


def plain(text: str) -> str:
    """Text with the mini markup removed (for meta descriptions)."""
    text = _CITE.sub("", text)
    return _LINK.sub(lambda m: m.group(2) or _target(m.group(1)).title, text)


def _head(page: Page, charset: str) -> str:
    title = page.title + (f"（{page.subtitle}）" if page.subtitle else "")
    desc = html.escape(plain(page.summary[0])[:90], quote=True)
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


def render_legacy(page: Page) -> str:
    charset = "GBK" if page.encoding == "gbk" else "UTF-8"
    lid = page.lemma_id
    parts = [_head(page, charset), "<body>\n", _NAV, '<div class="body-wrapper">\n<div class="before-content">\n']
    senses = [p for p in PAGES if p.title == page.title]
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
                    f'<li class="item">▪<a title="{s.subtitle}" href="{item_href(s)}#viewPageContent">{s.subtitle}</a></li>\n'
                )
        parts.append("</ul>\n</div>\n")
    parts.append('</div>\n<div class="content-wrapper">\n<div class="content">\n<div class="main-content">\n')
    parts.append(
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
        parts.append(f'<div class="para" label-module="para">{render_inline(para, "legacy", owner=page)}</div>\n')
    parts.append('</div>\n<div class="configModuleBanner">\n</div><div class="basic-info cmn-clearfix">\n')
    half = (len(page.infobox) + 1) // 2
    for side, rows in (("left", page.infobox[:half]), ("right", page.infobox[half:])):
        parts.append(f'<dl class="basicInfo-block basicInfo-{side}">\n')
        for name, value in rows:
            parts.append(
                f'<dt class="basicInfo-item name">{name}</dt>\n'
                f'<dd class="basicInfo-item value">\n{render_inline(value, "legacy", in_infobox=True)}\n</dd>\n'
            )
        parts.append("</dl>")
    parts.append("</div>\n")
    parts.append('<div class="lemmaWgt-lemmaCatalog">\n<div class="lemma-catalog">\n<h2 class="block-title">目录</h2>\n<ol>\n')
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
            parts.append(f'<div class="para" label-module="para">{render_inline(para, "legacy", owner=page)}</div>\n')
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
    parts.append(_FOOTER)
    parts.append(
        "<script>\n!function(){    require.async([\"wiki-lemma:widget/basicElement/topShare/topShare\"],function(topShare){\n"
        f"        topShare({{\n            newLemmaId: '{lid}'\n        }});\n    }});\n}}();\n</script>\n"
    )
    parts.append("</body>\n</html>\n")
    return "".join(parts)


def render_current(page: Page) -> str:
    lid = page.lemma_id
    data = {"lemmaId": lid, "lemmaTitle": page.title}
    if page.subtitle:
        data["lemmaDesc"] = page.subtitle
    parts = [_head(page, "utf-8").replace("<html>", '<html lang="zh-CN">')]
    parts[0] = parts[0].replace(
        "</head>\n",
        f'<link rel="canonical" href="https://baike.baidu.com{item_href(page)}">\n'
        f"<script>window.PAGE_DATA = {json.dumps(data, ensure_ascii=False)};</script>\n</head>\n",
    )
    parts.append("<body>\n")
    parts.append(
        '<div class="header_Ab3Kd"><a class="logo_Lk2Xs" href="/">百度百科</a>'
        '<form class="searchBox_Ym7Qe" action="/search/word"><input name="word"/></form></div>\n'
    )
    parts.append('<div class="mainContent_dvM3V" id="J-lemma-main-wrapper">\n')
    parts.append('  <div class="lemmaTitleBox_Kx2p0">\n')
    parts.append(f'    <h1 class="lemmaTitle_qmNnR J-lemma-title">{page.title}</h1>\n')
    if page.subtitle:
        parts.append(f'    <div class="lemmaDesc_Yh2rT"><span class="lemmaDescText_Tr9Xa">（{page.subtitle}）</span></div>\n')
    parts.append("  </div>\n")
    senses = [p for p in PAGES if p.title == page.title]
    if len(senses) > 1:
        parts.append('  <div class="polysemantList_Wr3Hb"><span>多义词：</span>')
        for s in senses:
            if s is page:
                parts.append(f'<span class="selected_Mn4Rt">{s.subtitle}</span>')
            else:
                parts.append(f'<a class="contentItem_Lg8Tz" href="{item_href(s)}?fromModule=disambiguation">{s.subtitle}</a>')
        parts.append("</div>\n")
    parts.append('  <div class="lemmaSummary__tEeY J-summary">\n')
    for para in page.summary:
        parts.append(
            '    <div class="para_SkYG9 summary_Iw34L MARK_MODULE" data-tag="paragraph">'
            f"{render_inline(para, 'current')}</div>\n"
        )
    parts.append("  </div>\n")
    parts.append('  <div class="basicInfo_Gvg0x J-basic-info">\n')
    half = (len(page.infobox) + 1) // 2
    for side, rows in (("left", page.infobox[:half]), ("right", page.infobox[half:])):
        parts.append(f'    <dl class="basicInfoBlock_B6Tjr {side}">\n')
        for name, value in rows:
            parts.append(
                '      <div class="itemWrapper_Wt5JN">'
                f'<dt class="basicInfoItem_teWwQ itemName_A9AXb">{name}</dt>'
                f'<dd class="basicInfoItem_teWwQ itemValue_ZbhBC">{render_inline(value, "current", in_infobox=True)}</dd></div>\n'
            )
        parts.append("    </dl>\n")
    parts.append("  </div>\n")
    parts.append('  <div class="contentWrapper_Rt9Qm J-lemma-content">\n')
    for i, (heading, paras) in enumerate(page.sections, 1):
        parts.append(
            f'    <div class="paraTitle_Zb7Lk level-1_Ym3Nc J-pgc-after-dom" data-index="{i}">'
            f'<h2 class="h2_Kd8Tz">{heading}</h2></div>\n'
        )
        for para in paras:
            parts.append(
                '    <div class="para_SkYG9 content_cFweI MARK_MODULE" data-tag="paragraph">'
                f"{render_inline(para, 'current')}</div>\n"
            )
    parts.append("  </div>\n")
    parts.append('  <div class="lemmaTagList_Q1Vb8 J-tag"><span class="tagTitle_Pq2Wd">词条标签：</span>')
    parts.append("".join(f'<span class="tagItem_M9wxP">{t}</span>' for t in page.tags))
    parts.append("</div>\n</div>\n")
    parts.append(
        '<div class="footer_Hn6Vc"><p>&copy;2026 cdtp 示例站点 本页面内容为项目自行撰写的示例词条</p></div>\n'
        "</body>\n</html>\n"
    )
    return "".join(parts)


def render(page: Page) -> bytes:
    text = render_legacy(page) if page.markup == "legacy" else render_current(page)
    return text.encode("gbk" if page.encoding == "gbk" else "utf-8")


def build(out_dir: Path = OUT_DIR) -> dict[str, bytes]:
    """All pages as {file name: bytes}, plus seeds.txt."""
    files = {p.filename: render(p) for p in PAGES}
    files["seeds.txt"] = ("".join(s + "\n" for s in SEEDS)).encode("utf-8")
    return files


def main(argv: list[str] | None = None) -> int:
    out = Path(argv[0]) if argv else OUT_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, data in build().items():
        (out / name).write_bytes(data)
    print(f"wrote {len(PAGES)} pages and seeds.txt to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
