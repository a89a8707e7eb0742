"""Issue 10, session 9: the rules found on round 10's errors and on round 11
(KdConv travel sights, the first pages of that domain). Each test sentence is
our own; each assertion names the reason the aligner gives."""
from __future__ import annotations

from tests.test_align_roles import _dropped, _entry, _kept
from transforms.cells import PairConfig, split_values
from transforms.redundancy import CleaningConfig


# ------------------------------------------------------------------- sights

def test_a_nearby_sight_is_said_to_be_near():
    text = "景山公园位于故宫北面。清代画家常把它与颐和园相比。"
    raw = _entry("景山公园", text, [("周边景点", "故宫"), ("周边景点", "颐和园")])
    assert ("周边景点", "故宫") in _kept(raw)
    assert "no nearness said" in _dropped(raw)[("周边景点", "颐和园")]
    # one inside the other
    raw = _entry("十七孔桥", "十七孔桥是颐和园中最大的石桥。", [("周边景点", "颐和园")])
    assert ("周边景点", "颐和园") in _kept(raw)


def test_a_town_or_street_named_after_a_sight_is_not_the_sight():
    raw = _entry("戒台寺", "戒台寺在门头沟区永定镇，离潭柘寺镇不远。", [("周边景点", "潭柘寺")])
    assert "a place named after it: 潭柘寺镇" in _dropped(raw)[("周边景点", "潭柘寺")]


def test_a_sight_glued_before_the_entity_s_other_name_is_a_piece_of_that_name():
    raw = _entry("武英殿", "故宫书画馆常年展出古代书画。", [("周边景点", "故宫")], subtitle="书画馆")
    assert "before the entity's name 书画馆" in _dropped(raw)[("周边景点", "故宫")]
    # A disambiguation is no name: nothing is cut before it.
    raw = _entry("武英殿", "武英殿在故宫西侧。", [("周边景点", "故宫")], subtitle="故宫建筑")
    assert ("周边景点", "故宫") in _kept(raw)


def test_a_sight_without_the_generic_head_of_its_name():
    raw = _entry("卧佛寺", "卧佛寺在香山附近，是一座唐代古寺。", [("周边景点", "香山公园")])
    assert _kept(raw)[("周边景点", "香山公园")]["match"] == "sight"
    cfg = CleaningConfig()
    cfg.align.sights = False
    assert ("周边景点", "香山公园") not in _kept(raw, cfg)


def test_a_price_list_or_a_timetable_is_one_value():
    assert split_values("鼓楼20元，钟楼、鼓楼30元", "门票", PairConfig()) == ["鼓楼20元，钟楼、鼓楼30元"]
    assert split_values("8:30-17:00，16:00停止售票", "开放时间", PairConfig()) == ["8:30-17:00，16:00停止售票"]
    raw = _entry("钟鼓楼", "钟鼓楼由钟楼和鼓楼两座建筑组成。", [("门票", "鼓楼20元，钟楼、鼓楼30元")])
    assert not _kept(raw)  # no `钟楼` left as a price


def test_a_price_or_a_duration_needs_its_unit():
    raw = _entry("植物园", "植物园一年四季都有花可看，园内有20多处景观。", [("建议游玩时间", "1小时"), ("门票", "20元")])
    dropped = _dropped(raw)
    assert ("建议游玩时间", "1小时") in dropped and ("门票", "20元") in dropped
    raw = _entry("植物园", "植物园门票20元，游览一圈约需1小时。", [("建议游玩时间", "1小时"), ("门票", "20元")])
    assert set(_kept(raw)) == {("建议游玩时间", "1小时"), ("门票", "20元")}


def test_an_address_by_its_most_specific_part():
    text = "故宫坐落在东城区景山前街4号。"
    t = _kept(_entry("故宫", text, [("地址", "北京市东城区景山前街4号")]))[("地址", "北京市东城区景山前街4号")]
    assert text[t["start"]:t["end"]] == "景山前街4号" and t["match"] == "place"
    assert ("地址", "北京市延庆区") in _kept(_entry("龙庆峡", "龙庆峡在北京延庆。", [("地址", "北京市延庆区")]))
    # a village's stem is the sight's own name, not its address
    raw = _entry("居庸关长城", "居庸关是长城上的一座关隘。", [("地址", "北京市昌平区南口镇居庸关村")])
    assert ("地址", "北京市昌平区南口镇居庸关村") in _dropped(raw)


# ------------------------------------------------------------ round 10's kinds

def test_a_place_that_qualifies_a_kind_of_person_is_not_a_birthplace_or_release_region():
    raw = _entry("张惠妹", "张惠妹，台湾著名流行女歌手。", [("出生地", "台湾")])
    assert "it qualifies a 著名流行女歌手" in _dropped(raw)[("出生地", "台湾")]
    raw = _entry("范特西", "《范特西》是中国台湾男歌手周杰伦在2001年推出的专辑。", [("发行地区", "中国台湾")])
    assert "it qualifies a 男歌手" in _dropped(raw)[("发行地区", "中国台湾")]
    # `上海人` stays a demonym
    assert ("出生地", "上海市") in _kept(_entry("韩寒", "韩寒，上海人，作家。", [("出生地", "上海市")]))


def test_a_band_member_is_said_to_be_in_the_band():
    raw = _entry("十一月的肖邦", "专辑的歌曲大多由方文山写词。", [("乐队成员", "方文山")])
    assert "no cue of 乐队成员 in its sentence" in _dropped(raw)[("乐队成员", "方文山")]
    raw = _entry("五月天", "五月天由阿信、怪兽、石头、玛莎和冠佑组成。", [("乐队成员", "阿信")])
    assert ("乐队成员", "阿信") in _kept(raw)


def test_a_work_inside_a_quoted_show_name_is_not_named():
    raw = _entry("五月天", "2012年，五月天开始“诺亚方舟世界巡回演唱会”。", [("代表作", "诺亚方舟")])
    assert "诺亚方舟世界巡回演唱会" in _dropped(raw)[("代表作", "诺亚方舟")]


def test_a_first_sale_is_not_the_release():
    text = "专辑于2003年7月29日在台北举行首卖会，7月31日正式发行。"
    raw = _entry("叶惠美", text, [("发行时间", "2003年7月29日")])
    assert ("发行时间", "2003年7月29日") in _dropped(raw)


def test_a_dotted_foreign_name_spelt_otherwise():
    raw = _entry("幸福终点站", "这部影片的导演是斯蒂芬·斯皮尔伯格。", [("导演", "史蒂文·斯皮尔伯格")])
    assert _kept(raw)[("导演", "史蒂文·斯皮尔伯格")]["match"] == "transliteration"
    # brothers share the family name, not the given name
    raw = _entry("老无所依", "该片由伊桑·科恩执导。", [("导演", "乔尔·科恩")])
    assert ("导演", "乔尔·科恩") in _dropped(raw)
    # another name of the entity is a spelling of its own
    raw = _entry("克里斯托弗·沃尔兹", "克里斯托弗·瓦尔兹是奥地利演员。", [("别名", "克里斯托弗·华尔兹")])
    assert ("别名", "克里斯托弗·华尔兹") in _dropped(raw)


def test_a_factory_site_is_its_seat():
    raw = _entry("长春电影制片厂", "长春电影制片厂是新中国第一家电影制片厂，厂址长春。", [("总部地点", "长春")])
    assert _kept(raw)[("总部地点", "长春")]["cue"] == "厂址"


# ------------------------------------------------------------ round 12's kinds

def test_a_timetable_may_say_it_is_closed():
    raw = _entry("某寺", "寺院现在不对外开放，只能在山门外看看。", [("开放时间", "不对外开放")])
    assert ("开放时间", "不对外开放") in _kept(raw)


def test_a_sight_that_holds_the_entity_or_that_it_holds():
    raw = _entry("太和殿", "太和殿是故宫的主体建筑之一。", [("周边景点", "故宫")])
    assert ("周边景点", "故宫") in _kept(raw)
    raw = _entry("明十三陵", "明十三陵景区内有长陵、定陵和昭陵等陵墓。", [("周边景点", "定陵")])
    assert ("周边景点", "定陵") in _kept(raw)


def test_other_names_of_a_sight():
    raw = _entry("午门", "午门是紫禁城的正门。", [("周边景点", "故宫")])
    assert _kept(raw)[("周边景点", "故宫")]["match"] == "sight"
    raw = _entry("鹫峰", "鹫峰东南不远就是大觉禅寺。", [("周边景点", "大觉寺")])
    assert _kept(raw)[("周边景点", "大觉寺")]["match"] == "sight"
    text = "清华大学西北与圆明园遗址公园相邻。"
    t = _kept(_entry("清华大学", text, [("周边景点", "圆明园")]))[("周边景点", "圆明园")]
    assert text[t["start"]:t["end"]] == "圆明园遗址公园"


def test_an_address_below_a_district_is_told_with_the_unit_above_it():
    cell = "北京市门头沟区妙峰山镇涧沟村(近妙峰山)"
    text = "景区地处门头沟区妙峰山镇涧沟村。"
    t = _kept(_entry("某景区", text, [("地址", cell)]))[("地址", cell)]
    assert text[t["start"]:t["end"]] == "涧沟村"
    raw = _entry("某景区", "游客可以从涧沟村步行上山。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)


# ------------------------------------------- session 10: round 13's errors

def test_a_visit_length_range_is_stated_with_both_bounds():
    raw = _entry("玉渊潭公园", "玉渊潭公园以樱花闻名，游完全园约需两到三个小时。",
                 [("建议游玩时间", "2小时 - 3小时"), ("门票", "3小时")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert kept[("建议游玩时间", "2小时 - 3小时")]["match"] == "number"
    # a bound of the range is no duration of its own
    assert ("门票", "3小时") in dropped
    raw = _entry("景山公园", "登上万春亭俯瞰故宫，一两个小时足够。", [("建议游玩时间", "1小时 - 2小时")])
    assert ("建议游玩时间", "1小时 - 2小时") in _kept(raw)
    # one bound alone does not state the range
    raw = _entry("景山公园", "登上万春亭俯瞰故宫，约需2小时。", [("建议游玩时间", "1小时 - 2小时")])
    assert ("建议游玩时间", "1小时 - 2小时") in _dropped(raw)


def test_a_sight_s_stem_the_text_uses_as_a_place_is_the_place():
    raw = _entry("怡心园", "怡心园位于延庆城区东部，是延庆市民晨练的去处。", [("周边景点", "延庆公园")])
    assert ("周边景点", "延庆公园") in _dropped(raw)
    raw = _entry("玻璃栈道", "玻璃栈道位于十渡镇的山顶上，全长一百多米。", [("周边景点", "十渡风景名胜区")])
    assert ("周边景点", "十渡风景名胜区") in _dropped(raw)


def test_a_town_of_the_address_is_no_sight_beside_it():
    raw = _entry("桃花园", "桃花园位于平谷区大华山镇后北宫村，春天游客很多。", [("周边景点", "大华山镇")])
    assert "a town of its address" in _dropped(raw)[("周边景点", "大华山镇")]


def test_a_sight_named_without_its_district_its_honour_or_the_sight_that_holds_it():
    text = "百瑞谷景区位于百花山东麓，景区内有始建于北周的瑞云寺。"
    kept = _kept(_entry("百瑞谷景区", text, [("周边景点", "房山百花山景区"), ("周边景点", "敕赐瑞云禅寺")]))
    assert {k: text[t["start"]:t["end"]] for k, t in kept.items()} == {
        ("周边景点", "房山百花山景区"): "百花山", ("周边景点", "敕赐瑞云禅寺"): "瑞云寺"}
    text = "北京植物园的北部有一条樱桃沟，沟中溪水常年不断。"
    t = _kept(_entry("北京植物园", text, [("周边景点", "北京植物园樱桃沟")]))[("周边景点", "北京植物园樱桃沟")]
    assert (text[t["start"]:t["end"]], t["match"]) == ("樱桃沟", "sight")


def test_a_list_of_names_says_no_nearness():
    raw = _entry("某画廊", "画廊于2005年建于798艺术区。", [("周边景点", "798艺术区")])
    assert ("周边景点", "798艺术区") in _kept(raw)
    raw = _entry("某画廊", "画廊收藏有齐白石、798艺术区、王中军等的藏品。", [("周边景点", "798艺术区")])
    assert "no nearness said" in _dropped(raw)[("周边景点", "798艺术区")]


def test_an_address_located_of_another_subject_is_not_the_entity_s():
    text = "五塔寺旧有东西二塔。西塔位于海淀区白石桥村，早已不存。"
    raw = _entry("五塔寺", text, [("地址", "位于海淀区白石桥村")])
    assert "the address of 西塔" in _dropped(raw)[("地址", "位于海淀区白石桥村")]
    raw = _entry("五塔寺", "五塔寺位于海淀区白石桥村。", [("地址", "位于海淀区白石桥村")])
    assert ("地址", "位于海淀区白石桥村") in _kept(raw)


def test_an_address_s_finest_part_read_from_a_loose_cell():
    # a direction after the village, and a village glued to its town's name
    text = "山庄位于平谷区大华山镇挂甲峪村，三面环山。"
    cell = "北京市平谷区大华山镇挂甲峪村内"
    assert ("地址", cell) in _kept(_entry("某山庄", text, [("地址", cell)]))
    text = "采摘园地处北京昌平区兴寿镇桃林村。"
    cell = "北京市昌平区兴寿桃林村"
    t = _kept(_entry("某采摘园", text, [("地址", cell)]))[("地址", cell)]
    assert text[t["start"]:t["end"]] == "桃林村"
    # a doubled unit; a named street is precise enough when the cell has no number
    text = "东四胡同在东四北大街的东侧。"
    cell = "北京市东城区东四北大街路"
    assert ("地址", cell) in _kept(_entry("东四胡同", text, [("地址", cell)]))
    # a street that is the entity itself is no mention of its address
    raw = _entry("北京文津街", "文津街从北海公园西墙外经过。", [("地址", "北京西城区文津街")])
    assert "the entity itself" in _dropped(raw)[("地址", "北京西城区文津街")]


# ------------------------------------------- session 10: round 14's errors

def test_more_ways_to_say_one_sight_holds_the_other():
    cases = [("宝珠洞", "宝珠洞为八大处地势最高的一处。", "八大处公园"),
             ("工字厅", "工字厅是清华园现存的老建筑之一。", "清华园"),
             ("圜丘", "圜丘在天坛南半边，是皇帝祭天之所。", "天坛"),
             ("动物园", "动物园里另设有北京海洋馆。", "北京海洋馆"),
             ("康西草原", "康西草原沿官厅水库展开。", "官厅水库"),
             ("仙峰谷", "仙峰谷在十渡风景名胜区的五渡桥东南方。", "十渡风景名胜区")]
    for entity, text, sight in cases:
        assert ("周边景点", sight) in _kept(_entry(entity, text, [("周边景点", sight)])), text
    # a symbol of the sight is not in it; an area named after it is not the sight
    raw = _entry("西洋楼", "这些残柱如今已成为圆明园的象征。", [("周边景点", "圆明园")])
    assert "no nearness said" in _dropped(raw)[("周边景点", "圆明园")]
    raw = _entry("纪念馆", "纪念馆讲述了当年在妙峰山地区活动的地下交通员。", [("周边景点", "妙峰山")])
    assert "a place named after it: 妙峰山地区" in _dropped(raw)[("周边景点", "妙峰山")]


def test_a_sight_that_names_the_entity_itself():
    raw = _entry("云蒙峡", "云蒙峡位于怀柔区琉璃庙镇，峡谷内有瀑布。", [("周边景点", "云蒙峡风景区")])
    assert "the entity itself" in _dropped(raw)[("周边景点", "云蒙峡风景区")]
    # the tower an area is named after is inside the area, not the area
    raw = _entry("白塔风景区", "白塔风景区的主要建筑白塔建于元代。", [("周边景点", "白塔")])
    assert ("周边景点", "白塔") in _kept(raw)
    # the dynasty before a tomb's name
    raw = _entry("定陵博物馆", "博物馆位于十三陵景区内，紧邻定陵。", [("周边景点", "明定陵")])
    assert _kept(raw)[("周边景点", "明定陵")]["match"] == "sight"


def test_an_address_told_of_a_part_named_after_the_entity_or_by_its_own_word():
    raw = _entry("普度寺", "普渡寺大殿坐落在东城区南池子大街普渡寺前巷。", [("地址", "东城区南池子大街普渡寺前巷")])
    assert ("地址", "东城区南池子大街普渡寺前巷") in _kept(raw)
    raw = _entry("同乐轩", "同乐轩是老戏园，地址在大栅栏街路北。", [("地址", "大栅栏街路北")])
    assert ("地址", "大栅栏街路北") in _kept(raw)


def test_a_landmark_after_a_comma_is_a_part_of_the_address():
    cell = "北京市密云区京密路，西大桥南"
    raw = _entry("某公园", "公园在密云区西大桥南，是市民休闲的地方。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)
    raw = _entry("某公园", "公园位于密云区京密路西大桥南。", [("地址", cell)])
    assert ("地址", cell) in _kept(raw)


# ------------------------------------------------ session 11: round 15's errors

def test_more_words_of_nearness():
    # 靠近, 比邻, 呼应 say nearness; a sight inside the school's grounds is beside it
    raw = _entry("前门", "正阳门城楼靠近天安门广场，箭楼在它南边。", [("周边景点", "天安门广场")])
    assert ("周边景点", "天安门广场") in _kept(raw)
    raw = _entry("国家体育馆", "国家体育馆与“鸟巢”比邻而居。", [("周边景点", "鸟巢（国家体育场）")])
    assert ("周边景点", "鸟巢（国家体育场）") in _kept(raw)
    raw = _entry("某峡谷", "峡谷与北面的妙峰山遥相呼应。", [("周边景点", "妙峰山")])
    assert ("周边景点", "妙峰山") in _kept(raw)
    raw = _entry("北京大学", "校内的未名湖是学生们散步的地方。", [("周边景点", "未名湖")])
    assert ("周边景点", "未名湖") in _kept(raw)


def test_the_town_of_a_water_town_and_the_nth_temple_of_a_park():
    # `古北水镇镇子里`: the town itself, not a town named after it
    raw = _entry("山顶教堂", "教堂坐落在古北水镇镇子里一座小山的顶上。", [("周边景点", "古北水镇")])
    assert ("周边景点", "古北水镇") in _kept(raw)
    raw = _entry("大悲寺", "大悲寺是八大处公园的第四处寺庙。", [("周边景点", "八大处公园")])
    assert ("周边景点", "八大处公园") in _kept(raw)


def test_hours_counted_with_a_measure_word():
    raw = _entry("白云观", "白云观不大，参观一圈约2个小时。", [("建议游玩时间", "2小时")])
    assert _kept(raw)[("建议游玩时间", "2小时")]["match"] == "number"
    raw = _entry("某寺", "寺院建了3个月。", [("建议游玩时间", "3小时")])
    assert ("建议游玩时间", "3小时") in _dropped(raw)


def test_free_admission_said_with_whom_it_is_free_for():
    raw = _entry("奥林匹克森林公园", "奥运会后，公园免费向公众开放。", [("门票", "免费开放。")])
    assert _kept(raw)[("门票", "免费开放。")]["match"] == "paraphrase"
    raw = _entry("某公园", "园中设有一处免费的儿童乐园。", [("门票", "免费开放。")])
    assert ("门票", "免费开放。") in _dropped(raw)


def test_an_address_whose_finest_part_is_a_landmark():
    # a park, a temple or a palace's side is precise enough alone
    cell = "北京市丰台区王佐镇青龙湖公园内"
    raw = _entry("青龙湖水上乐园", "水上乐园地处青龙湖公园内，夏季开放。", [("地址", cell)])
    assert _kept(raw)[("地址", cell)]["match"] == "place"
    cell = "北京市门头沟区东南部潭柘山麓潭柘寺内"
    raw = _entry("帝王树", "帝王树是长在潭柘寺内的一棵古银杏。", [("地址", cell)])
    assert ("地址", cell) in _kept(raw)
    cell = "北京市西城区故宫西侧"
    raw = _entry("中南海", "中南海位于故宫西侧。", [("地址", cell)])
    assert ("地址", cell) in _kept(raw)
    # the landmark named in another clause is no address
    raw = _entry("某乐园", "乐园离青龙湖公园不远。", [("地址", "北京市丰台区王佐镇青龙湖公园内")])
    assert ("地址", "北京市丰台区王佐镇青龙湖公园内") in _dropped(raw)


def test_an_address_with_a_number_needs_the_number_and_a_country_word_inside_a_name_is_no_unit():
    cell = "北京市昌平区南口镇马坊村1号中国北方国际射击场内"
    raw = _entry("轻武器博物馆", "2011年建成的这座博物馆设在北京市昌平区中国北方国际射击场内。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)


def test_a_township_told_with_its_city():
    cell = "北京市怀柔区喇叭沟门满族乡"
    raw = _entry("白桦谷", "白桦谷地处北京喇叭沟门满族乡，秋景最美。", [("地址", cell)])
    assert ("地址", cell) in _kept(raw)
    # a village alone is still a place the text names, not where the sight is
    cell = "北京市房山区窦店镇西安庄村"
    raw = _entry("某果园", "果园的梨卖到了西安庄村。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)


def test_a_section_of_the_great_wall_named_the_other_way_round():
    raw = _entry("八达岭森林公园", "公园地处长城八达岭与居庸关之间。", [("周边景点", "八达岭长城")])
    assert _kept(raw)[("周边景点", "八达岭长城")]["match"] == "sight"
    raw = _entry("蟠龙山长城", "蟠龙山长城往西与卧虎长城相连。", [("周边景点", "卧虎山长城")])
    assert _kept(raw)[("周边景点", "卧虎山长城")]["match"] == "sight"


# ------------------------------------------------ session 11: round 16's errors

def test_a_university_by_its_short_names_and_a_lake_without_its_places():
    raw = _entry("成府路", "成府路东段紧临北大，往西是圆明园。", [("周边景点", "北京大学")])
    assert ("周边景点", "北京大学") in _kept(raw)
    raw = _entry("博雅塔", "博雅塔位于燕园东部，是校园的标志。", [("周边景点", "北京大学")])
    assert ("周边景点", "北京大学") in _kept(raw)
    raw = _entry("海子水库", "水库在金海湖畔，四面环山。", [("周边景点", "北京平谷金海湖")])
    assert _kept(raw)[("周边景点", "北京平谷金海湖")]["match"] == "sight"
    # not before a kind of building, and a wall not by its pass (towns as often)
    raw = _entry("某公园", "公园旁边新开了一家海洋馆。", [("周边景点", "北京海洋馆")])
    assert ("周边景点", "北京海洋馆") in _dropped(raw)
    raw = _entry("某村", "村子在古北口附近。", [("周边景点", "古北口长城")])
    assert ("周边景点", "古北口长城") in _dropped(raw)


def test_a_sight_by_its_stem_with_another_head_or_by_the_first_of_two_joined_names():
    raw = _entry("黑龙潭", "黑龙潭在云蒙山风景区附近。", [("周边景点", "云蒙山森林公园")])
    assert _kept(raw)[("周边景点", "云蒙山森林公园")]["match"] == "sight"
    raw = _entry("金仙公主塔", "塔立在云居寺石经山的山腰上。", [("周边景点", "云居寺·石经山")])
    assert ("周边景点", "云居寺·石经山") in _kept(raw)
    raw = _entry("北顶娘娘庙", "庙紧临国家体育场。", [("周边景点", "鸟巢（国家体育场）")])
    assert ("周边景点", "鸟巢（国家体育场）") in _kept(raw)


def test_the_entity_itself_by_its_own_name_or_its_stem():
    raw = _entry("朝宗桥", "朝宗桥位于昌平区沙河镇。", [("周边景点", "朝宗桥")])
    assert "the entity itself" in _dropped(raw)[("周边景点", "朝宗桥")]
    raw = _entry("白羊沟风景区", "白羊沟全长12公里，风景区内植被茂盛。", [("周边景点", "白羊沟")])
    assert "the entity itself" in _dropped(raw)[("周边景点", "白羊沟")]
    raw = _entry("云蒙三峪景区", "云蒙三峪风景区里林木茂密。", [("周边景点", "三峪风景区")])
    assert "the entity itself" in _dropped(raw)[("周边景点", "三峪风景区")]


def test_a_bound_of_a_range_is_no_visit_length_even_word_for_word():
    raw = _entry("某山", "绕山走一圈约需1.5-2小时左右。", [("建议游玩时间", "2小时")])
    assert ("建议游玩时间", "2小时") in _dropped(raw)
    raw = _entry("某山", "绕山走一圈约需2小时。", [("建议游玩时间", "2小时")])
    assert ("建议游玩时间", "2小时") in _kept(raw)


def test_house_numbers_listed_in_an_address_are_one_value():
    assert split_values("东城区门楼胡同3号、5号", "地址", PairConfig()) == ["东城区门楼胡同3号、5号"]
    # a street whose name a far place shares is still the street
    cell = "北京市宣武区官菜园上街"
    raw = _entry("过街楼", "过街楼坐落于官菜园上街，靠近自新路。", [("地址", cell)])
    assert _kept(raw)[("地址", cell)]["start"] == 6
    # but only where the text says the sight is there
    cell = "北京市西城区护国寺大街"
    raw = _entry("护国寺", "庙会那天，护国寺大街上人头攒动。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)
    # nor is the second house number alone a part of the place
    cell = "东城区门楼胡同3号、5号"
    raw = _entry("当铺", "当铺的3号和5号以前是一个院子。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)


# ------------------------------------------------ session 12: round 17's errors

def test_a_stem_that_is_a_town_a_district_or_an_everyday_word_is_no_name_of_the_sight():
    # 南口 is 南口镇, 世界 a common noun: neither names the park
    raw = _entry("某村", "村子在南口东边的山脚下。", [("周边景点", "南口公园")])
    assert "value not found" in _dropped(raw)[("周边景点", "南口公园")]
    raw = _entry("某塔", "这座塔在世界建筑史上很有名，塔旁有一片草坪。", [("周边景点", "世界公园")])
    assert ("周边景点", "世界公园") in _dropped(raw)
    # 游乐园 is no generic head: 亲子 of 亲子游乐园 is a kind of restaurant too
    raw = _entry("某乐园", "园区旁边有一家亲子餐厅。", [("周边景点", "亲子游乐园")])
    assert ("周边景点", "亲子游乐园") in _dropped(raw)
    # 天安门 is the gate, not the square
    raw = _entry("太庙", "太庙在天安门东侧，是明清皇家的祖庙。", [("周边景点", "天安门广场")])
    assert ("周边景点", "天安门广场") in _dropped(raw)


def test_a_bar_street_or_a_farm_named_after_a_sight_is_not_the_sight():
    raw = _entry("什刹海酒吧街", "这里的酒吧在胡同院内，比三里屯酒吧街安静。", [("周边景点", "三里屯")])
    assert "a place named after it: 三里屯酒吧街" in _dropped(raw)[("周边景点", "三里屯")]
    raw = _entry("南口农场果园", "果园属于南口农场，在昌平区。", [("周边景点", "南口")])
    assert "a place named after it: 南口农场" in _dropped(raw)[("周边景点", "南口")]


def test_more_words_of_nearness_from_round_17():
    cases = [("八奇洞", "八奇洞距潭柘寺仅五百米。", "潭柘寺"),
             ("某采摘园", "采摘园距离汉石桥湿地非常近。", "汉石桥湿地"),
             ("郭守敬纪念馆", "纪念馆在汇通祠内，什刹海西海北岸。", "什刹海"),
             ("云峰山", "景区中有座古刹叫超胜庵。", "超胜庵"),
             ("灵水村", "村里有举人宅院、古戏台等景点。", "举人宅院")]
    for entity, text, sight in cases:
        assert ("周边景点", sight) in _kept(_entry(entity, text, [("周边景点", sight)])), text
    # 距今 dates, it does not measure a distance
    raw = _entry("某寺", "某寺建于唐朝，距今一千多年，香山寺的僧人曾来此讲经。", [("周边景点", "香山寺")])
    assert "no nearness said" in _dropped(raw)[("周边景点", "香山寺")]


def test_free_admission_said_by_what_a_visitor_does_for_free():
    for text in ("西游记主题公园正在整修，目前是免费的。", "纪念馆每周二免费参观。"):
        raw = _entry("某公园", text, [("门票", "免费开放。")])
        assert _kept(raw)[("门票", "免费开放。")]["match"] == "paraphrase", text
    raw = _entry("某公园", "公园提供免费的讲解服务。", [("门票", "免费开放。")])
    assert ("门票", "免费开放。") in _dropped(raw)


def test_an_address_with_a_market_mouth_or_a_spaced_house_number():
    # `珠市口` is one name: 市 before 口 closes no city
    cell = "北京市西城区珠市口西大街"
    raw = _entry("九湾胡同", "九湾胡同位于珠市口西大街南侧。", [("地址", cell)])
    assert _kept(raw)[("地址", cell)]["start"] == 6
    cell = "北京市东城区地安门东大街47号"
    raw = _entry("僧格林沁祠", "僧格林沁祠地处地安门东大街47 号。", [("地址", cell)])
    kept = _kept(raw)[("地址", cell)]
    assert (kept["start"], kept["end"]) == (7, 17)


def test_a_quoted_project_name_holds_the_sight_wherever_it_is_quoted():
    text = "“顶美鸟巢-空中走廊”位于奥林匹克公园内，要乘电梯登顶才能走上去。整条“顶美鸟巢-空中走廊”项目位于鸟巢的顶层。"
    raw = _entry("鸟巢空中走廊", text, [("周边景点", "鸟巢（国家体育场）")])
    assert _kept(raw)[("周边景点", "鸟巢（国家体育场）")]["start"] == text.rindex("鸟巢")


def test_an_address_closing_with_the_sights_own_name_is_placed_by_the_part_before():
    # The cell names the village itself last; the text places it by its town.
    text = "洪水口村地处北京市门头沟区清水镇，村旁就是灵山。"
    raw = _entry("洪水口村", text, [("地址", "北京市门头沟区清水镇洪水口村")])
    hit = _kept(raw)[("地址", "北京市门头沟区清水镇洪水口村")]
    assert text[hit["start"]:hit["end"]] == "清水镇" and hit["match"] == "place"
    # A scenic area's own name after its village: the village places it.
    text = "双龙峡地处门头沟区斋堂镇火村以南的山谷中。"
    raw = _entry("双龙峡", text, [("地址", "北京市门头沟区斋堂镇火村双龙峡景区")])
    assert text[_kept(raw)[("地址", "北京市门头沟区斋堂镇火村双龙峡景区")]["start"]:].startswith("火村")
    # The sight names itself as the subject its town or place is told of:
    # the town (or the place) and the sight's own name are the finest parts.
    text = "六渡河村地处渤海镇东南一带，山清水秀。"
    raw = _entry("六渡河村", text, [("地址", "北京市怀柔区渤海镇六渡河村")])
    assert _kept(raw)[("地址", "北京市怀柔区渤海镇六渡河村")]["start"] == text.index("渤海镇")
    text = "老甲艺术馆地处城北的霍营，离回龙观不远。"
    raw = _entry("老甲艺术馆", text, [("地址", "北京市昌平区霍营老甲艺术馆")])
    assert _kept(raw)[("地址", "北京市昌平区霍营老甲艺术馆")]["start"] == text.index("霍营")
    # So is a village the text places the sight in by its title, though the cell has more.
    cell = "北京市房山区窦店镇窦店村"
    assert ("地址", cell) in _kept(_entry("金绿园", "金绿园坐落在窦店村以南，占地约四百亩。", [("地址", cell)]))
    assert ("地址", cell) in _dropped(_entry("金绿园", "金绿园离窦店村不远，占地约四百亩。", [("地址", cell)]))
    # Another subject's town is no place of the sight.
    raw = _entry("六渡河村", "六渡河村风景秀美。镇中心小学位于渤海镇西边。", [("地址", "北京市怀柔区渤海镇六渡河村")])
    assert ("地址", "北京市怀柔区渤海镇六渡河村") in _dropped(raw)
    # Only its district before the own name: the much larger area states no address.
    text = "琉璃渠村地处门头沟区，村民世代烧制琉璃。"
    raw = _entry("琉璃渠村", text, [("地址", "北京市门头沟区琉璃渠村")])
    assert ("地址", "北京市门头沟区琉璃渠村") in _dropped(raw)
    # Without the page's own name the cell stays whole: another village is no part of it.
    raw = _entry("灵水举人村", "灵水举人村地处门头沟区斋堂镇。", [("地址", "北京市门头沟区斋堂镇洪水口村")])
    assert ("地址", "北京市门头沟区斋堂镇洪水口村") in _dropped(raw)


def test_a_stem_that_names_a_town_still_names_the_sight_before_a_generic_head():
    # 金海湖镇 is the town; 金海湖风景区 right after it is the sight of the cell.
    text = "金花公主墓地处北京市平谷区金海湖镇金海湖风景区内。墓在水库主坝的东边，建于金章宗时期。"
    raw = _entry("金花公主墓", text, [("周边景点", "北京平谷金海湖")])
    hit = _kept(raw)[("周边景点", "北京平谷金海湖")]
    assert hit["start"] == text.index("金海湖风景区")
    # The town alone is still no name of the sight.
    raw = _entry("金花公主墓", "金花公主墓地处北京市平谷区金海湖镇。墓在水库主坝的东边，建于金章宗时期。", [("周边景点", "北京平谷金海湖")])
    assert ("周边景点", "北京平谷金海湖") in _dropped(raw)


def test_a_university_by_its_common_short_name_but_not_its_people_or_an_old_school():
    text = "北京航空航天大学在海淀区，北大、清华都离它不远。"
    raw = _entry("北京航空航天大学", text, [("周边景点", "清华大学")])
    assert _kept(raw)[("周边景点", "清华大学")]["start"] == text.index("清华")
    text = "工字厅在校园中部，早年是清华学堂的办公处，几代清华人都对它很熟悉。"
    raw = _entry("工字厅", text, [("周边景点", "清华大学")])
    assert ("周边景点", "清华大学") in _dropped(raw)


def test_words_of_a_sight_at_the_centre_open_standing_or_seen_from_the_entity():
    cases = [("灵慧山", "以七星池为中心散布着朝阳寺、天溪庵等古迹。", "天溪庵"),
             ("明十三陵", "陵区如今开放的有定陵、长陵和神路。", "定陵"),
             ("三教庙", "寺后屹立着一座燃灯佛舍利塔。", "燃灯佛舍利塔"),
             ("万春亭", "从亭上往南能看到整个故宫。", "故宫"),
             ("昆明湖", "颐和园大半面积被昆明湖占据。", "颐和园"),
             ("望海楼茶社", "茶社座落在什刹海，游人如织。", "什刹海")]  # 座落, the other spelling of 坐落
    for entity, text, sight in cases:
        assert ("周边景点", sight) in _kept(_entry(entity, text, [("周边景点", sight)])), text
    # A sight named in a clause that says none of them is still no neighbour.
    raw = _entry("天溪庵", "天溪庵始建于明代，香火旺盛，与潭柘寺齐名。", [("周边景点", "潭柘寺")])
    assert ("周边景点", "潭柘寺") in _dropped(raw)


def test_a_sight_named_inside_the_entry_s_own_address_is_not_cut_by_it():
    # The address cell is a description, not one name: the sight inside it is a mention.
    text = "金花公主墓地处北京市平谷区金海湖镇金海湖风景区内。墓在水库主坝的东边，建于金章宗时期。"
    cells = [("地址", "北京市平谷区金海湖镇金海湖风景区内"), ("周边景点", "北京平谷金海湖")]
    kept = _kept(_entry("金花公主墓", text, cells))
    assert kept[("周边景点", "北京平谷金海湖")]["start"] == text.index("金海湖风景区")


def test_a_street_named_after_a_sight_with_a_direction_or_a_number_is_not_the_sight():
    raw = _entry("三里屯银杏大道", "银杏大道地处朝阳区三里屯东五街一带。", [("周边景点", "三里屯")])
    assert "a place named after it: 三里屯东五街" in _dropped(raw)[("周边景点", "三里屯")]


def test_the_address_of_another_subject_located_earlier_in_its_clause():
    # 南顶 is located (位于) in the clause; the village at its end is its address, not the entity's.
    text = "五顶庙是京城五座碧霞元君庙的总称。南顶坐落在丰台区大红门外南顶村，始建于明朝。"
    cell = "北京市丰台区大红门外南顶村"
    raw = _entry("五顶庙", text, [("地址", cell)])
    assert "the address of 南顶" in _dropped(raw)[("地址", cell)]


def test_more_generic_heads_a_geopark_a_wetland_park_an_art_district_a_central_area():
    # The stem with another generic head names the same sight (`硅化木中心区`).
    raw = _entry("长寿岭", "长寿岭距硅化木中心区约5公里远。", [("周边景点", "硅化木国家地质公园")])
    assert ("周边景点", "硅化木国家地质公园") in _kept(raw)
    # A wetland park is a park: on the page of 三里河湿地生态公园, 延庆三里河湿地公园 is the entity itself.
    raw = _entry("三里河湿地生态公园", "三里河湿地公园位于延庆城区东部，园内水草碧绿。",
                 [("周边景点", "延庆三里河湿地公园")])
    assert "the entity itself" in _dropped(raw)[("周边景点", "延庆三里河湿地公园")]


# ------------------------------------------------- session 40 (tune travel)

def test_a_word_that_opens_with_zhong_is_no_inside():
    # `中国` after the sight opens a word: the museum is praised, nothing is put inside it.
    raw = _entry("瓷器馆", "颐和园堪称中国最大的皇家园林，收藏瓷器数千件。", [("周边景点", "颐和园")])
    assert "no nearness said" in _dropped(raw)[("周边景点", "颐和园")]
    # `园中` still puts one inside the other.
    raw = _entry("谐趣园", "谐趣园是颐和园中的一座园中园。", [("周边景点", "颐和园")])
    assert ("周边景点", "颐和园") in _kept(raw)


def test_built_in_a_year_is_a_time_not_a_place():
    # `建于1958年` says when the reservoir was built: no place beside the entity.
    raw = _entry("白河峡谷", "白河峡谷归密云水库管理，密云水库建于1958年。", [("周边景点", "密云水库")])
    assert "no nearness said" in _dropped(raw)[("周边景点", "密云水库")]
    raw = _entry("白塔", "白塔建于妙应寺内，通体洁白。", [("周边景点", "妙应寺")])
    assert ("周边景点", "妙应寺") in _kept(raw)


def test_a_sight_in_another_role_ranked_grouped_compared_keeping_or_a_past_tie():
    cases = [
        # ranked within a group: its size among the tombs, not a tomb beside it
        ("明定陵", "定陵的地宫在十三陵中属最早发掘的一座。", "明十三陵", "a group it is ranked within"),
        # one of a group lying outside the sight
        ("宣仁庙", "宣仁庙在北池子大街，为故宫外八庙之一。", "故宫", "a group named after it"),
        # two sights a visitor confuses, though a nearness word follows in the run-on clause
        ("白草畔", "游客常把白草畔和百花山景区混淆起来事实上两地都位于同一山脉", "百花山景区", "a comparison"),
        # where the entity's things are kept
        ("南府戏楼", "南府的戏本和行头如今都保存在故宫博物院内。", "故宫", "where a collection is kept"),
        # a tie of the past
        ("勺园", "勺园在明代为清华园附属的一处私家园林。", "清华园", "a tie of the past"),
    ]
    for entity, text, sight, why in cases:
        assert why in _dropped(_entry(entity, text, [("周边景点", sight)]))[("周边景点", sight)], text
    # the largest temple of a park is still inside it
    raw = _entry("香界寺", "香界寺是八大处中面积最大的寺院。", [("周边景点", "八大处公园")])
    assert ("周边景点", "八大处公园") in _kept(raw)


def test_a_resort_named_after_a_sight_and_the_entity_told_short_are_not_the_sight():
    # `雾灵山度假村` is a resort named after the mountain (rule 4: a piece of a longer name);
    # `雾灵山瀑布` opens the text as the entity 雾灵山大瀑布 told short.
    text = "雾灵山瀑布位于雾灵山度假村中，落差约三十米。"
    raw = _entry("雾灵山大瀑布", text, [("周边景点", "雾灵山")])
    assert "a place named after it: 雾灵山度假村" in _dropped(raw)[("周边景点", "雾灵山")]
    raw = _entry("雾灵山大瀑布", "雾灵山瀑布位于兴隆县境内，落差约三十米。", [("周边景点", "雾灵山")])
    assert "before the entity's name 瀑布" in _dropped(raw)[("周边景点", "雾灵山")]
    # the mountain itself, said to be beside the entity, is still its neighbour
    raw = _entry("雾灵山大瀑布", "雾灵山瀑布在雾灵山北麓。", [("周边景点", "雾灵山")])
    assert _kept(raw)[("周边景点", "雾灵山")]["start"] == 6


def test_an_address_road_before_a_landmark_and_a_village_on_the_way():
    # The cell names the road before the landmark: the text must give it too.
    cell = "北京市东城区东长安街天安门广场东侧"
    raw = _entry("国家博物馆", "国家博物馆位于天安门广场东侧，与人民大会堂相对。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)
    raw = _entry("国家博物馆", "国家博物馆位于东长安街天安门广场东侧。", [("地址", cell)])
    assert ("地址", cell) in _kept(raw)
    # A village the visitor passes on the way is no address, though the district is named first.
    cell = "门头沟区王平镇韭园村"
    raw = _entry("西落坡古道", "西落坡古道位于门头沟区，进入韭园村后沿山路上行即到。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)
    raw = _entry("西落坡古道", "西落坡古道位于门头沟区王平镇韭园村，是一条古商道。", [("地址", cell)])
    assert ("地址", cell) in _kept(raw)


def test_examples_of_what_is_near_and_an_ordinal_among_a_sight_s_own():
    # `如…` lists examples of what the clause before says lies beside the street.
    text = "前门大街两侧还有很多老字号，如全聚德、天坛公园的小吃摊。"
    raw = _entry("前门大街", text, [("周边景点", "天坛公园")])
    assert ("周边景点", "天坛公园") in _kept(raw)
    # examples after a clause that says no nearness are none
    raw = _entry("前门大街", "北京有很多名胜，如天坛公园。", [("周边景点", "天坛公园")])
    assert ("周边景点", "天坛公园") in _dropped(raw)
    # `北大第一座…`: the entity counted among the university's own
    raw = _entry("红楼", "1920年红楼成为北大第一座学生活动中心。", [("周边景点", "北京大学")])
    assert ("周边景点", "北京大学") in _kept(raw)


def test_a_stem_told_with_another_generic_head_and_what_an_area_mainly_holds():
    # `欢乐谷景区` names 欢乐谷游乐园: the text's head makes the stem a sight's name.
    raw = _entry("玉泉营", "玉泉营紧邻欢乐谷景区，交通便利。", [("周边景点", "欢乐谷游乐园")])
    assert _kept(raw)[("周边景点", "欢乐谷游乐园")]["match"] == "sight"
    # the places before the name left out (`云居寨景区` for 上方云居寨)
    raw = _entry("上方山", "上方山内的景点主要有云居寨景区、藏经阁。", [("周边景点", "上方云居寨")])
    assert ("周边景点", "上方云居寨") in _kept(raw)
    cfg = CleaningConfig()
    cfg.align.sights = False
    assert ("周边景点", "上方云居寨") not in _kept(raw, cfg)
    # what an area mainly holds (`主要有…`) is inside it
    raw = _entry("香山公园", "香山公园可以游览的主要有碧云寺和双清别墅。", [("周边景点", "碧云寺")])
    assert ("周边景点", "碧云寺") in _kept(raw)


def test_tibet_before_a_sight_is_no_collection_and_a_name_opening_the_text_is_read_safely():
    # a bare 藏 before the name is 西藏's, not a keeping word (`藏于` is)
    raw = _entry("大昭寺", "大昭寺位于西藏布达拉宫东侧，步行约十分钟。", [("周边景点", "布达拉宫")])
    assert ("周边景点", "布达拉宫") in _kept(raw)
    # a sight at the very start of the text: the entity told short is looked for
    # only before it, never from the text's end
    raw = _entry("雾灵山大瀑布", "雾灵山北麓有一道瀑布，雾灵山大瀑布落差约三十米。", [("周边景点", "雾灵山")])
    assert ("周边景点", "雾灵山") in _kept(raw)


# ------------------------------------------------ session 41: the travel tune half's misses

def test_a_great_wall_section_by_its_pass_alone_when_the_pass_is_a_guan():
    # `居庸关` is the pass 居庸关长城 is named after, told beside the town
    raw = _entry("南口镇", "南口镇北面紧邻居庸关，是关沟的南端入口。", [("周边景点", "居庸关长城")])
    assert _kept(raw)[("周边景点", "居庸关长城")]["match"] == "sight"
    # a pass not named …关 is a town as often (`古北口`): not the wall
    raw = _entry("司马台长城", "司马台长城西面紧邻古北口。", [("周边景点", "古北口长城")])
    assert _dropped(raw)[("周边景点", "古北口长城")] == "value not found in text at any level"


def test_a_timetable_that_only_says_the_sight_is_closed_is_stated_by_closure_in_other_words():
    cell = "现为办公场所，不对外开放。"
    raw = _entry("孚王府", "孚王府如今是机关的办公地，游客不能进去参观。", [("开放时间", cell)])
    kept = _kept(raw)[("开放时间", cell)]
    assert kept["match"] == "paraphrase"
    assert "孚王府如今是机关的办公地，游客不能进去参观。"[kept["start"]:kept["end"]] == "不能进去"
    # a cell with hours is a timetable: closure alone does not state it
    cell = "9:00-16:00，周一不开放"
    raw = _entry("孚王府", "孚王府周一不开放。", [("开放时间", cell)])
    assert _dropped(raw)[("开放时间", cell)] == "value not found in text at any level"


def test_an_address_between_two_streets_or_at_their_crossing():
    # the area between two streets, stated by its bounds in either order
    cell = "北京市东城区，地安门东大街与鼓楼东大街之间"
    text = "南锣鼓巷南起地安门东大街，北至鼓楼东大街，全长七百多米。"
    kept = _kept(_entry("南锣鼓巷", text, [("地址", cell)]))[("地址", cell)]
    assert text[kept["start"]:kept["end"]] == "地安门东大街，北至鼓楼东大街"
    raw = _entry("南锣鼓巷", "南锣鼓巷的南口就在地安门东大街上。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)
    # a crossing is a point: both streets at it, with the cell's corner; the
    # landmark after the comma describes the same point again
    cell = "北京市朝阳区三里屯路与工体北路交叉口东北角，工人体育场北侧"
    text = "太古里坐落在工体北路与三里屯路交叉口东北角，是一片开放式街区。"
    kept = _kept(_entry("三里屯太古里", text, [("地址", cell)]))[("地址", cell)]
    assert text[kept["start"]:kept["end"]] == "工体北路与三里屯路交叉口东北角"
    raw = _entry("三里屯太古里", "太古里在工体北路与三里屯路交叉口西南角一带。", [("地址", cell)])
    assert _dropped(raw)[("地址", cell)] == "value not found in text at any level"


def test_a_landmark_s_centre_or_side_said_another_way_and_a_garden_as_a_landmark():
    cell = "北京市东城区中山公园中央"
    text = "社稷坛在中山公园中心，坛上铺着五色土。"
    kept = _kept(_entry("社稷坛", text, [("地址", cell)]))[("地址", cell)]
    assert text[kept["start"]:kept["end"]] == "中山公园中心"
    cell = "北京市海淀区颐和园东侧"
    text = "圆明园在颐和园以东，两园相距不过两公里。"
    kept = _kept(_entry("圆明园", text, [("地址", cell)]))[("地址", cell)]
    assert text[kept["start"]:kept["end"]] == "颐和园以东"
    # `东门` is a gate of the landmark, not its side
    raw = _entry("圆明园", "游客多从颐和园东门出来再去圆明园。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)


def test_a_house_number_after_the_side_of_its_street_and_a_scenic_area_under_another_head():
    cell = "北京市西城区文津街7号"
    text = "国家图书馆古籍馆位于文津街北侧七号，紧邻北海公园。"
    kept = _kept(_entry("国家图书馆古籍馆", text, [("地址", cell)]))[("地址", cell)]
    assert text[kept["start"]:kept["end"]] == "文津街北侧七号"
    # another number on the same street is another house
    raw = _entry("国家图书馆古籍馆", "古籍馆位于文津街北侧九号。", [("地址", cell)])
    assert ("地址", cell) in _dropped(raw)
    cell = "北京市延庆区龙庆峡风景区"
    text = "冰灯艺术节每年冬天在延庆区龙庆峡景区举办。"
    kept = _kept(_entry("龙庆峡冰灯艺术节", text, [("地址", cell)]))[("地址", cell)]
    assert text[kept["start"]:kept["end"]] == "龙庆峡景区"


def test_a_sight_inside_the_entity_named_after_it_and_the_corners_of_a_sight():
    # `香山双清别墅` on the page of 香山公园: told without the park's name
    text = "香山公园内的双清别墅曾是毛泽东的住处。"
    kept = _kept(_entry("香山公园", text, [("周边景点", "香山双清别墅")]))[("周边景点", "香山双清别墅")]
    assert (kept["match"], text[kept["start"]:kept["end"]]) == ("sight", "双清别墅")
    # what is left a generic head only is the entity's kind, not a sight in it
    from transforms.sight_names import _inside_the_entity_spans
    assert _inside_the_entity_spans("鹫峰国家森林公园", "鹫峰的国家森林公园很大。", ("鹫峰",)) == []
    # on the corners of a sight is beside it
    raw = _entry("角楼", "紫禁城城墙的四个角上各有一座角楼。", [("周边景点", "故宫")])
    assert _kept(raw)[("周边景点", "故宫")]["match"] == "sight"
    raw = _entry("角楼", "角楼的样式常被拿来和紫禁城的宫殿比较。", [("周边景点", "故宫")])
    assert ("周边景点", "故宫") in _dropped(raw)
