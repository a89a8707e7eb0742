"""Misfires a review of session 40's and session 41's rules found, each shown
on a sentence written for it (docs/alignment.md, "What session 40 adds",
"What session 41 adds"): the rule must not fire where the text says what the
triple states, nor where it does not."""
from __future__ import annotations

import pytest

from tests.test_align_roles import _dropped, _entry, _kept

KEPT = [
    # a company said to lie in a city (`位于深圳的…企业`) has its seat there
    ("华为", "华为是一家位于深圳的高新技术企业，成立于1987年。", ("总部地点", "深圳")),
    # an entrance exam followed by admission in the same sentence
    ("张三", "1996年报考中央戏剧学院表演系，以专业第一名的成绩被录取。", ("毕业院校", "中央戏剧学院")),
    # 连载 is not `载` (where works are found)
    ("尾田荣一郎", "尾田荣一郎于1997年开始在《周刊少年Jump》上连载《航海王》。", ("代表作品", "航海王")),
    # a film named like a 词牌, with its cast in brackets
    ("张艺谋", "张艺谋于2023年执导电影《满江红》（沈腾、易烊千玺主演）。", ("代表作品", "满江红")),
    # `紧邻颐和园而与故宫齐名`: 故宫 is compared, 颐和园 is beside it
    ("圆明园", "圆明园位于北京市海淀区，紧邻颐和园而与故宫齐名，是清代皇家园林。", ("周边景点", "颐和园")),
    # the residents within a lane are no ranking within it; a grassland is no past tie
    ("四合院", "四合院坐落于南锣鼓巷中居民区的北端。", ("周边景点", "南锣鼓巷")),
    ("敖包", "敖包位于草原中心，草原为锡林郭勒草原的一部分，游人常到此祭拜。", ("周边景点", "锡林郭勒草原")),
    # a later cover by others is not what the release date dates
    ("某歌", "2006年1月1日，这首歌被收录于专辑《新地球》发行，后来多位歌手翻唱了这首歌。", ("发行时间", "2006年1月1日")),
    # session 41: `在世界…` after a date is no `在世` (a year alive in)
    ("十一月的萧邦", "《十一月的萧邦》是周杰伦的第六张音乐专辑，2005年11月1日在世界各地同步发行。",
     ("发行时间", "2005年11月1日")),
    ("某公司", "该公司1950年在世界银行的帮助下成立。", ("成立时间", "1950年")),
    # 家乡 is the hometown, no residence
    ("某将军", "张三（1905－1980），直隶人，家乡丰润（今河北唐山）。1926年考入黄埔军校。", ("籍贯", "河北唐山")),
]

DROPPED = [
    # reciting verse is not writing it
    ("李四", "李四自幼聪颖，他八岁能背诵唐诗，后从商。", ("职业", "诗人")),
    ("李四", "李四自幼聪颖，他擅长朗诵诗歌，后从商。", ("职业", "诗人")),
    # a scholar of ci is no ci writer
    ("王五", "王五，著名词学研究者，任教于南京大学。", ("职业", "词人")),
    # 蒙古 of 内蒙古 is no 蒙古国
    ("赵六", "赵六，1960年出生于中国内蒙古自治区，蒙古族歌手。", ("国籍", "蒙古国")),
    # `像颐和园一样` is a likeness, not an example of what lies near
    ("故宫", "故宫位于北京中轴线的中心，像颐和园一样，是明清两代的皇家建筑。", ("周边景点", "颐和园")),
    # 之弟子 is a disciple, 之女婿 a son-in-law
    ("程颐", "杨时，颢之弟子，尝程门立雪。", ("哥哥", "程颢")),
    ("苏某", "黄庭坚，洵之女婿，亦能文。", ("父亲", "苏洵")),
    # the mountain range named after a sight is not the sight (round 16)
    ("白草畔", "白草畔风景区位于百花山脉之中，海拔两千余米。", ("周边景点", "房山百花山景区")),
    # `八达岭野生动物园` is another park than 北京野生动物园
    ("居庸关长城", "居庸关长城位于昌平区，附近有八达岭野生动物园景区。", ("周边景点", "北京野生动物园")),
    # session 41: verse named inside another word, or another's poem
    ("孙洙", "孙洙，号蘅塘退士，清代学者。其编选的《唐诗三百首》流传极广。", ("职业", "诗人")),
    ("老舍", "老舍，原名舒庆春，现代小说家。其作品语言幽默，用词近于北京口语。", ("职业", "词人")),
    ("彭定求", "彭定求，清代学者。奉敕主持编校《全唐诗》，收唐诗近五万首。", ("职业", "诗人")),
    ("汪伦", "汪伦，唐代泾州人。李白游泾县时受其款待，临别赠诗一首。", ("职业", "诗人")),
    # a brother's first, and the third of the top tier (探花), are no 状元 of the entity
    ("陈尧佐", "陈尧佐，字希元，阆州阆中人。端拱元年进士。弟陈尧咨咸平三年 (1000) 进士第一。",
     ("主要成就", "咸平三年状元")),
    ("张之洞", "张之洞（1837－1909），字孝达，直隶南皮人。同治二年进士第一甲第三名。", ("主要成就", "同治二年状元")),
    # a side of another mountain is no place of the entity's
    ("某寺", "某寺是山东省的一座佛教寺院，位于蒙山西麓，始建于唐代。", ("所在地", "泰山西麓")),
]


@pytest.mark.parametrize("title, text, row", KEPT)
def test_a_rule_does_not_drop_what_the_text_states(title, text, row):
    assert row in _kept(_entry(title, text, [row])), _dropped(_entry(title, text, [row])).get(row)


@pytest.mark.parametrize("title, text, row", DROPPED)
def test_a_rule_does_not_keep_what_the_text_does_not_state(title, text, row):
    assert row in _dropped(_entry(title, text, [row]))
