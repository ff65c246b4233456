"""Forum page parsers, one module per forum engine, all with the same functions:
posts(html, tz, now=None), page_info(html), inbox(html, tz, now=None), message(html, tz, now=None),
form(html, name); thread(html, tz, now=None) reads a thread page's page_info and posts, and
folder(html, tz, now=None, sent=False) a PM folder page's rows and listing, each page parsed once.
`tz` is the forum account's timezone; `now` (the fetch time) is needed to read relative dates such
as "Today at 1:59 PM".
"""
from __future__ import annotations

from datetime import datetime, tzinfo

from forumgm.parsers.forums import fluxbb, generic, ipb3, ipb4, mybb, phpbb, smf, vbulletin3, vbulletin4, xenforo
from forumgm.parsers.forums.base import ColoredFragment, Post

ENGINES = {
    "phpbb": phpbb,
    "mybb": mybb,
    "smf": smf,
    "fluxbb": fluxbb,
    "xenforo": xenforo,
    "ipb3": ipb3,
    "ipb4": ipb4,
    "vbulletin3": vbulletin3,
    "vbulletin4": vbulletin4,
    "generic": generic,   # its functions also take config= (see docs/generic-forum.md)
}


def engine_functions(engine: str, config: generic.Config | None = None):
    """The parser functions of `engine`; the generic engine needs its selector config."""
    if engine not in ENGINES:
        raise ValueError(f"unknown forum engine {engine!r}; known: {', '.join(sorted(ENGINES))}")
    if engine == "generic":
        if config is None:
            raise ValueError("the generic engine needs a selector config (see docs/generic-forum.md)")
        return generic.engine(config)
    return ENGINES[engine]


def parse_page(engine: str, html: str, tz: tzinfo | str, now: datetime | None = None,
               config: generic.Config | None = None) -> dict:
    """The JSON document of `forumgm parse-page` for one thread page."""
    info, posts = engine_functions(engine, config).thread(html, tz, now)
    return {
        "engine": engine,
        "page": info.page,
        "pages": info.pages,
        "posts": [_post_json(post) for post in posts],
    }


def _post_json(post: Post) -> dict:
    edited_at = post.edited_at.isoformat() if isinstance(post.edited_at, datetime) else post.edited_at
    return {
        "id": post.id,
        "author": post.author,
        "author_id": post.author_id,
        "posted_at": post.posted_at.isoformat() if post.posted_at else None,
        "edited_at": edited_at,
        "edited_by": post.edited_by,
        "text": post.text_unquoted,
        "colored": [fragment.as_json() for fragment in post.colored],
        "flagged": [_flagged_json(fragment) for fragment in post.flagged],
    }


def _flagged_json(fragment: ColoredFragment) -> dict:
    return {**fragment.as_json(), "where": fragment.where}
