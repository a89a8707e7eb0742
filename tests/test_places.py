"""Place values read largest unit first: the country prefix goes, other names stay whole."""
from __future__ import annotations

import pytest

from transforms.items.kinds import countries
from transforms.places import COUNTRIES, place_cores, place_parts


@pytest.mark.parametrize("value, parts", [
    ("日本大阪", ("大阪",)),
    ("中国江苏省苏州市", ("江苏省", "苏州市")),
    ("美国,德克萨斯州,尤瓦尔迪", ("德克萨斯州", "尤瓦尔迪")),
    # Names that start with a state's name are no country and its town.
    ("马里兰州巴尔的摩", ("马里兰州", "巴尔的摩")),
    ("巴林左旗", ("巴林左旗",)),
    ("黑山县", ("黑山县",)),
])
def test_a_country_prefix_only_locates_the_place(value, parts):
    assert place_parts(value) == parts


def test_the_prefix_countries_are_states_the_option_kinds_know():
    """Two lists for two jobs: every prefix stripped is a country to items/kinds.py too."""
    assert set(COUNTRIES) <= countries()
    assert {"马里", "巴林", "黑山"} <= countries() - set(COUNTRIES)


def test_the_core_is_the_most_specific_unit_with_and_without_its_suffix():
    assert place_cores("中国江苏省苏州市") == ("苏州市", "苏州")
    assert place_cores("苏州") == ()
