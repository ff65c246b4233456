"""Session ids and form tokens out of a page before it is stored.

The store keeps raw thread pages for the host to look back at; each carries the host's session
(phpBB's `sid=` in every link, the logout link's hash) and anti-forgery tokens. Anyone with a
backup of the store could take over the host's forum account with them, so they are blanked:
in links, hidden form fields and the boards' inline scripts, plus any value the caller knows
to be secret (the session cookies). The page still parses as before.
"""
from __future__ import annotations

import re
from typing import Iterable

# Names boards give session ids and tokens (phpBB, MyBB, SMF, vBulletin, XenForo, IPB, FluxBB).
SECRET_NAMES = ("sid", "s", "sesc", "phpsessid", "sessionid", "session_id", "_xftoken", "csrfkey", "csrf",
                "csrf_token", "securitytoken", "my_post_key", "logouthash", "auth_key", "md5check", "form_token",
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
_INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
_INPUT_NAME = re.compile(rf"\bname\s*=\s*[\"']?(?:{_NAMES})[\"'\s/>]", re.IGNORECASE)
_INPUT_VALUE = re.compile(r"(\bvalue\s*=\s*)([\"'])[^\"']*\2|(\bvalue\s*=\s*)[^\s>\"']+", re.IGNORECASE)
_HEX_VALUE = re.compile(r"\bvalue\s*=\s*[\"']?[0-9a-fA-F]{32,}[\"'\s/>]", re.IGNORECASE)
MIN_SECRET = 8      # shorter known values (a cookie flag) would blank ordinary words


def scrub_page(html: str, secrets: Iterable[str] = ()) -> str:
    html = _URL_PARAM.sub(r"\1", html)
    html = _HEX_PARAM.sub(r"\1", html)
    html = _SCRIPT_VALUE.sub(r"\1\2\2", html)
    html = _INPUT.sub(_blank_input, html)
    for secret in sorted({s for s in secrets if len(s) >= MIN_SECRET}, key=len, reverse=True):
        html = html.replace(secret, "***")
    return html


def _blank_input(found: re.Match) -> str:
    tag = found.group(0)
    if not (_INPUT_NAME.search(tag) or _HEX_VALUE.search(tag)):
        return tag
    return _INPUT_VALUE.sub(lambda value: f'{value.group(1) or value.group(3)}""', tag)
