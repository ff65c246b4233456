"""A forum engine described by the host in TOML: CSS selectors, attributes and patterns.

For boards whose engine has no module here (or a heavily customised theme). The keys are
documented in docs/generic-forum.md; config/forums/generic.example.toml is a worked example.
Module functions take the config as `config=` (a parsed TOML table or a path to the file).
"""
from __future__ import annotations

import re
import tomllib
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from forumgm.parsers.forums.base import Form, PageInfo, PmHeader, PmMessage, Post
from forumgm.parsers.forums.layout import (
    BodyMarkup, EditMarker, EngineLayout, Field, Fields, InboxLayout, MessageLayout, Pagination, ThreadLayout,
)
from forumgm.parsers.forums.reader import EngineFunctions, Zone, bind

Config = Mapping[str, Any] | Path | str


class GenericConfigError(ValueError):
    """The selector config is incomplete or malformed; the message names the key."""


def _folder(folder: Mapping[str, Any], name: str) -> InboxLayout:
    """[inbox], or [sent] where the sent folders' rows differ (the recipient and date elsewhere)."""
    return InboxLayout(
        page=_text(folder, f"{name}.page"), row=_text(folder, f"{name}.row"),
        id=_field(folder, f"{name}.id"), subject=_field(folder, f"{name}.subject"),
        sender=_field(folder, f"{name}.sender"), sender_id=_field(folder, f"{name}.sender_id", required=False),
        sent_at=_fields(folder, f"{name}.sent_at"), unread=_text(folder, f"{name}.unread"),
        pagination=Pagination(container=folder.get("pagination"), current=folder.get("current_page")),
        total=_field(folder, f"{name}.total", required=False),
        fill=_field(folder, f"{name}.fill", required=False),
    )


def load_layout(config: Config) -> EngineLayout:
    table = _table(config)
    thread = _section(table, "thread", required=True)
    inbox, message = _section(table, "inbox"), _section(table, "message")
    edit_marker = thread.get("edit_marker")
    return EngineLayout(
        name=str(table.get("name", "generic")),
        thread=ThreadLayout(
            post=_text(thread, "thread.post"),
            post_id=_field(thread, "thread.post_id"),
            author=_field(thread, "thread.author"),
            author_id=_field(thread, "thread.author_id", required=False),
            posted_at=_fields(thread, "thread.posted_at"),
            body=_text(thread, "thread.body"),
            edit=EditMarker(
                marker=edit_marker,
                time=_fields(thread, "thread.edit_time", required=False),
                editor=_field(thread, "thread.edit_by", required=False),
            ) if edit_marker else None,
            pagination=Pagination(
                container=thread.get("pagination"),
                current=thread.get("current_page"),
                total=_field(thread, "thread.total_pages", required=False),
            ),
        ),
        body=BodyMarkup(
            quote=thread.get("quote", "blockquote"), spoiler=thread.get("spoiler"),
            code=thread.get("code"), ignore=thread.get("ignore"),
        ),
        inbox=_folder(inbox, "inbox") if inbox else None,
        sent=_folder(sent, "sent") if (sent := _section(table, "sent")) else None,
        message=MessageLayout(
            container=_text(message, "message.container"), id=_field(message, "message.id"),
            subject=_field(message, "message.subject"), sender=_field(message, "message.sender"),
            sender_id=_field(message, "message.sender_id", required=False),
            sent_at=_fields(message, "message.sent_at"), body=_text(message, "message.body"),
        ) if message else None,
        forms=dict(_section(table, "forms")),
    )


def engine(config: Config) -> EngineFunctions:
    """posts/page_info/inbox/message/form bound to one selector config."""
    if isinstance(config, (str, Path)):
        return _engine_from_file(str(config))
    return bind(load_layout(config))


def posts(html: str, tz: Zone, now: datetime | None = None, *, config: Config) -> list[Post]:
    return engine(config).posts(html, tz, now)


def page_info(html: str, *, config: Config) -> PageInfo:
    return engine(config).page_info(html)


def inbox(html: str, tz: Zone, now: datetime | None = None, *, config: Config) -> list[PmHeader]:
    return engine(config).inbox(html, tz, now)


def message(html: str, tz: Zone, now: datetime | None = None, *, config: Config) -> PmMessage:
    return engine(config).message(html, tz, now)


def form(html: str, name: str, *, config: Config) -> Form:
    return engine(config).form(html, name)


@lru_cache(maxsize=16)
def _engine_from_file(path: str) -> EngineFunctions:
    return bind(load_layout(path))


def _table(config: Config) -> Mapping[str, Any]:
    if isinstance(config, Mapping):
        return config
    try:
        with open(config, "rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise GenericConfigError(f"{config}: {error}") from None


def _section(table: Mapping[str, Any], key: str, required: bool = False) -> Mapping[str, Any]:
    section = table.get(key, {})
    if not isinstance(section, Mapping) or (required and not section):
        raise GenericConfigError(f"[{key}] must be a table of selectors")
    return section


def _text(section: Mapping[str, Any], path: str) -> str:
    value = section.get(path.rsplit(".", 1)[1])
    if not isinstance(value, str) or not value.strip():
        raise GenericConfigError(f"{path}: a CSS selector is required")
    return value


def _field(section: Mapping[str, Any], path: str, required: bool = True) -> Field | None:
    value = section.get(path.rsplit(".", 1)[1])
    if value is None and not required:
        return None
    return _as_field(value, path)


def _fields(section: Mapping[str, Any], path: str, required: bool = True) -> Fields:
    value = section.get(path.rsplit(".", 1)[1])
    if value is None and not required:
        return ()
    values = value if isinstance(value, list) else [value]
    return tuple(_as_field(item, f"{path}[{n}]") for n, item in enumerate(values))


def _as_field(value: Any, path: str) -> Field:
    if isinstance(value, str):
        return Field(selector=value or None)
    if isinstance(value, Mapping):
        unknown = set(value) - {"selector", "attr", "pattern"}
        if unknown:
            raise GenericConfigError(f"{path}: unknown keys {sorted(unknown)} (selector, attr, pattern)")
        try:
            return Field(value.get("selector"), value.get("attr"), value.get("pattern"))
        except re.error as error:
            raise GenericConfigError(f"{path}.pattern: {error}") from None
    raise GenericConfigError(f"{path}: expected a CSS selector or a table {{selector, attr, pattern}}")
