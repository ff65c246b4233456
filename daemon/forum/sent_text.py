"""Is a text the board shows the one we sent? Matching what survives every board's handling.

Boards change what they are given: MyBB and FluxBB trim trailing invisible characters, SMF 2.1
turns some into U+FFFD, BBCode becomes markup (a colour, a link's words without its address,
a quote's "X wrote:", a picture its alt text), whitespace is collapsed, `<` comes back as `&lt;`. What every board keeps
is the sequence of letters and digits, so two texts are compared on that (their skeleton).
"""
from __future__ import annotations

import html
import re
import unicodedata

# a picture's address or attached file is never shown as words (a board shows the picture, with
# its alt text, file name and size at most): phpBB's [attachment=0]name[/attachment], SMF's [attach id=1]name[/attach]
_PICTURE = re.compile(r"\[(img|attachment|attach)\b[^\]\n]*\].*?\[/\1\]|\[attachment=\d+\]", re.IGNORECASE | re.DOTALL)
_BBCODE_TAG = re.compile(r"\[/?[a-z*][a-z0-9*]*(?:=[^\]\n]*)?\]", re.IGNORECASE)
_NOT_WORD = re.compile(r"[\W_]+")
# what a board adds around the sent words when rendering them: "Кума wrote:", "Spoiler", "Code: Select all"
RENDERING_SLACK = 40
# where a board writes such a label inside the text: before each block's contents
_LABELLED_BLOCK = re.compile(r"\[(?:code|quote|spoiler)\b[^\]\n]*\]", re.IGNORECASE)


def skeleton(text: str) -> str:
    """The letters and digits of a text or of a BBCode source, case-folded, in order."""
    plain = html.unescape(_BBCODE_TAG.sub(" ", _PICTURE.sub(" ", text)))
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", plain).casefold())


def same_text(sent_bbcode: str, shown_text: str) -> bool:
    """Whether `shown_text` (what the board shows: a post's or a PM's text) is `sent_bbcode`
    as the board rendered it: the same words, give or take what rendering adds."""
    shown = skeleton(shown_text)
    # the words between the blocks in their order, whatever label the board put before each block
    # (a [code] in the middle of a text, as the deal's commitment post has, was never found again)
    pieces = [piece for piece in map(skeleton, _LABELLED_BLOCK.split(sent_bbcode)) if piece]
    if not pieces:
        return not shown
    at = 0
    for piece in pieces:
        at = shown.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    ours = sum(map(len, pieces))
    return len(shown) - ours <= max(RENDERING_SLACK * len(pieces), ours // 10)


def same_name(one: str, other: str) -> bool:
    """A recipient or subject as the board shows it: spacing and case may differ, nothing else."""
    def folded(value: str) -> str:
        return " ".join(unicodedata.normalize("NFC", value).split()).casefold()
    return folded(one) == folded(other)
