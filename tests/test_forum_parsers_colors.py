import pytest

from forumgm.parsers.colors import normalize_color, style_color


@pytest.mark.parametrize("value", [
    "blue", "BLUE", " Blue ", "#00f", "#00F", "#0000ff", "#0000FF", "rgb(0,0,255)",
    "rgb( 0 , 0 , 255 )", "RGB(0, 0, 255)", "rgba(0,0,255,1)", "rgb(0%, 0%, 100%)", '"blue"', "0000ff",
])
def test_every_spelling_of_blue_is_the_same(value):
    assert normalize_color(value) == "#0000ff"


@pytest.mark.parametrize("value, expected", [
    ("red", "#ff0000"), ("#F00", "#ff0000"), ("navy", "#000080"), ("darkblue", "#00008b"),
    ("royalblue", "#4169e1"), ("green", "#008000"), ("lime", "#00ff00"), ("#1E90FF", "#1e90ff"),
])
def test_other_colours_keep_their_identity(value, expected):
    assert normalize_color(value) == expected


@pytest.mark.parametrize("value", [None, "", "notacolor", "#12", "#ggg", "abc", "rgb(1,2)"])
def test_unrecognised_values_give_none(value):
    assert normalize_color(value) is None


@pytest.mark.parametrize("style, expected", [
    ("color:blue", "#0000ff"), ("color: blue", "#0000ff"), ("font-weight: bold; COLOR : #00F;", "#0000ff"),
    ("background-color: red", None), ("background-color:red;color:blue", "#0000ff"),
    ("color: red; color: blue", "#0000ff"), ("color: blue !important", "#0000ff"), ("", None), (None, None),
])
def test_style_color_reads_only_the_text_colour(style, expected):
    assert style_color(style) == expected
