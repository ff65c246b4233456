"""The `generic` engine: a board described by the host's selector config (docs/generic-forum.md).

The parser side is the config's [thread]/[inbox]/[message]/[forms] tables; the HTTP side is its
[http] table, read here into the same EngineSpec the built-in engines are (URL templates, the
fields of the login, reply and PM forms, how the board names a new post or PM).
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Mapping

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.errors import ForumError
from forumgm.daemon.forum.spec import EngineSpec, FormStep, Paged, PmSpec
from forumgm.parsers.forums import generic as parser


def spec_from_config(table: Mapping[str, Any]) -> EngineSpec:
    http = _table(table, "http")
    pm = http.get("pm")
    return EngineSpec(
        name=str(table.get("name", "generic")),
        logged_in=_text(http, "logged_in"),
        errors=_text(http, "errors"),
        thread_id=_text(http, "thread_id"),
        thread_page=_paged(http, "thread_page"),
        per_page_link=http.get("per_page_link"),
        login=_step(http, "login", "login", ("username", "password")),
        reply=_step(http, "reply", "reply", ("message",)),
        reply_ref=_text(http, "reply_ref"),
        pm=PmSpec(
            inbox=_paged(pm, "pm.inbox", "inbox"),
            sentbox=_paged(pm, "pm.sentbox", "sentbox"),
            outbox=_paged(pm, "pm.outbox", "outbox") if "outbox" in pm else None,
            oldest_first=bool(pm.get("oldest_first", False)),
            message=_text(pm, "message", "pm.message"),
            send=_step(pm, "send", "pm", ("to", "subject", "message"), where="http.pm.send"),
            sent_ref=pm.get("sent_ref"),
        ) if pm else None,
    )


class GenericForum(ForumAdapter):
    def __init__(self, settings, password, client, **kwargs):
        super().__init__(settings, password, client, **kwargs)
        config = _load(settings.selectors)
        self.spec = spec_from_config(config)
        self.parser = parser.engine(config)


def _load(selectors: Any) -> Mapping[str, Any]:
    if isinstance(selectors, (str, Path)):
        with open(selectors, "rb") as handle:
            return tomllib.load(handle)
    if not selectors:
        raise ForumError('engine = "generic" needs its selector config (forum.selectors, docs/generic-forum.md)')
    return selectors


def _table(section: Mapping[str, Any], key: str, where: str | None = None) -> Mapping[str, Any]:
    value = section.get(key)
    if not isinstance(value, Mapping):
        raise ForumError(f"generic forum config: [{where or key}] must be a table (docs/generic-forum.md)")
    return value


def _text(section: Mapping[str, Any], key: str, where: str | None = None) -> str:
    value = section.get(key)
    if not isinstance(value, str) or not value:
        raise ForumError(f"generic forum config: http.{where or key} is required (docs/generic-forum.md)")
    return value


def _paged(section: Mapping[str, Any], where: str, key: str | None = None) -> Paged:
    value = section.get(key or where)
    if isinstance(value, str) and value:
        return Paged(value)
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return Paged(value[0], value[1])
    raise ForumError(f"generic forum config: http.{where} must be a URL template or [first page, later pages]")


def _step(section: Mapping[str, Any], key: str, form: str, ours: tuple[str, ...], where: str | None = None) -> FormStep:
    where = where or f"http.{key}"
    step = _table(section, key, where)
    fields = step.get("fields", {})
    missing = [name for name in ours if not isinstance(fields.get(name), str)]
    if missing:
        raise ForumError(f"generic forum config: {where}.fields needs {', '.join(missing)} "
                         "(the form's field names)")
    return FormStep(_text(step, "page", f"{where.removeprefix('http.')}.page"), form, dict(fields),
                    dict(step.get("fixed", {})))
