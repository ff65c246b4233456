"""Session ids and form tokens out of a page before it is stored.

The store keeps raw thread pages for the host to look back at; each carries the host's session
(phpBB's `sid=` in every link, the logout link's hash) and anti-forgery tokens. Anyone with a
backup of the store could take over the host's forum account with them, so they are blanked:
in links, hidden form fields and the boards' inline scripts, plus any value the caller
knows to be secret (the session cookies). A session id blanked where a pattern finds it is blanked
wherever else it stands, where nothing names it: SMF passes it to its quick-modify script as a bare
argument (`oQuickModify.modifySave('<session id>', '<session variable>')`). The page still parses
as before.

Each pattern below says what is blanked. Searched for as written, they were tried at nearly every
character of the page (a look-behind, a boundary or a class of characters opens them, which the
regex engine cannot skip ahead to) and cost several times the page's parse. Each is searched for
in the page reversed instead, where an `=` or `:` opens it (the `_STARTS` patterns), which the engine finds
as fast as str.find; then the pattern as written is tried where a start was found.
"""
from __future__ import annotations

import re
from typing import Iterable

# Names boards give session ids and tokens (phpBB, MyBB, SMF, vBulletin, XenForo, IPB, FluxBB).
SECRET_NAMES = ("sid", "s", "sesc", "phpsessid", "sessionid", "session_id", "smf_session_id", "_xftoken", "csrfkey",
                "csrf", "csrf_token", "securitytoken", "my_post_key", "logouthash", "auth_key", "md5check", "form_token",
                "token", "hash")
_NAMES = "|".join(sorted(SECRET_NAMES, key=len, reverse=True))
# a link's parameter: ?sid=…, &amp;sid=…, ;sesc=… (SMF separates with ;)
_URL_PARAM = re.compile(rf"([?&;](?:amp;)?(?:{_NAMES})=)[^&;\"'\s<>#]+", re.IGNORECASE)
# SMF's session variable has a random name: ;a1b2c3d=<32 hex> in links, name="a1b2c3d" in forms
_HEX_PARAM = re.compile(r"([?&;](?:amp;)?[A-Za-z0-9_]{1,40}=)[0-9a-fA-F]{32,}(?![0-9a-zA-Z])")
# inline scripts and attributes: my_post_key = "…", SECURITYTOKEN = "…", csrfKey: "…", data-csrf="…";
# never a link's parameter (after ? & ;): once blanked it ends at the attribute's quote, and
# `sesc=" class="` would read as a quoted value and eat into the next attribute
_SCRIPT_VALUE = re.compile(rf"((?<![?&;])(?:\b|data-)(?:{_NAMES})[\"']?\s*[:=]\s*)([\"'])[^\"'\n]*\2", re.IGNORECASE)
_FOLDS = {"i": "İı", "k": "\u212a", "s": "ſ"}     # the non-ASCII letters IGNORECASE takes for these


def _letters(words) -> str:
    """A regex matching exactly `words`, in any case IGNORECASE matches, one branch per common first
    letter (an alternation of the words would try every word at every place)."""
    rest: dict[str, list[str]] = {}
    for word in words:
        if word:
            rest.setdefault(word[0], []).append(word[1:])
    branches = [(f"[{c}{c.upper()}{_FOLDS.get(c, '')}]" if c.isalpha() else re.escape(c)) + _letters(tails)
                for c, tails in sorted(rest.items())]
    tree = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})" if branches else ""
    return f"(?:{tree})?" if "" in words and tree else tree


# What must stand where each pattern starts, read backwards from its `=` or `:`. Every start of a
# match is found, or one within it that blanks the same text (more may be found: the pattern
# decides): a parameter after `&amp;` is found at its `;`, a script value's `data-` alternative
# at the name's own start.
_REVERSED_NAMES = _letters(name[::-1] for name in SECRET_NAMES)
_URL_PARAM_STARTS = (re.compile(rf"={_REVERSED_NAMES}[?&;]"),)
_HEX_PARAM_STARTS = (re.compile(r"=(?<=[0-9a-fA-F]{32}=)[A-Za-z0-9_]{1,40}[?&;]"),)
_SCRIPT_VALUE_STARTS = tuple(re.compile(rf"{sign}\s*[\"']?{_REVERSED_NAMES}(?![\w?&;])") for sign in "=:")
_INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
_INPUT_NAME = re.compile(rf"\bname\s*=\s*[\"']?(?:{_NAMES})[\"'\s/>]", re.IGNORECASE)
_INPUT_VALUE = re.compile(r"(\bvalue\s*=\s*)([\"'])[^\"']*\2|(\bvalue\s*=\s*)[^\s>\"']+", re.IGNORECASE)
_HEX_VALUE = re.compile(r"\bvalue\s*=\s*[\"']?[0-9a-fA-F]{32,}[\"'\s/>]", re.IGNORECASE)
# what of a blanked text is a session id to blank wherever else it stands: a run of hex digits as
# long as the boards' ids (32 for phpBB's sid, SMF's and MyBB's, 40 for FluxBB's and phpBB's tokens)
SESSION_ID = re.compile(r"[0-9a-fA-F]{32,}")
MIN_SECRET = 8      # shorter known values (a cookie flag) would blank ordinary words


def scrub_page(html: str, secrets: Iterable[str] = ()) -> str:
    blanked: list[str] = []      # each text a pattern blanked, whole
    html = _substitute(_URL_PARAM, _URL_PARAM_STARTS, r"\1", html, blanked)
    html = _substitute(_HEX_PARAM, _HEX_PARAM_STARTS, r"\1", html, blanked)
    html = _substitute(_SCRIPT_VALUE, _SCRIPT_VALUE_STARTS, r"\1\2\2", html, blanked)
    html = _INPUT.sub(lambda found: blank_input(found, blanked), html)
    return blank_everywhere(html, blanked, secrets)


def blank_everywhere(html: str, blanked: list[str], secrets: Iterable[str]) -> str:
    """The session ids among what was blanked, and the caller's secrets (masked), wherever they stand."""
    for session_id in sorted({found for text in blanked for found in SESSION_ID.findall(text)}, key=len, reverse=True):
        html = html.replace(session_id, "")
    for secret in sorted({s for s in secrets if len(s) >= MIN_SECRET}, key=len, reverse=True):
        html = html.replace(secret, "***")
    return html


def blank_input(found: re.Match, blanked: list[str]) -> str:
    tag = found.group(0)
    if not (_INPUT_NAME.search(tag) or _HEX_VALUE.search(tag)):
        return tag
    blanked.append(tag)
    return _INPUT_VALUE.sub(lambda value: f'{value.group(1) or value.group(3)}""', tag)


def _substitute(pattern: re.Pattern, starts: tuple[re.Pattern, ...], replacement: str, html: str,
                blanked: list[str]) -> str:
    """`pattern.sub(replacement, html)`, with the pattern tried only where one of `starts`, searched
    for in the page reversed, ends; each match is added to `blanked`."""
    backwards = html[::-1]
    pieces, done = [], 0
    for start in sorted({len(html) - found.end() for finder in starts for found in finder.finditer(backwards)}):
        found = pattern.match(html, start) if start >= done else None
        if found is not None:
            pieces += (html[done:start], found.expand(replacement))
            blanked.append(found.group(0))
            done = found.end()
    return "".join(pieces) + html[done:] if pieces else html
