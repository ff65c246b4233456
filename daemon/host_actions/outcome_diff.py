"""What a re-run of a phase changes: eliminations, the state, the text of each draft.

Pure: two `PhaseOutcome`s in, an `OutcomeDiff` out; the host sees it before he confirms.
"""
from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forumgm.daemon.drafts.pictures import MARK


@dataclass(frozen=True)
class DraftText:
    id: int
    kind: str
    target: str                 # 'thread' or a nickname
    status: str
    body: str
    pictures: tuple[str, ...] = ()     # files it is posted with (a turn report's map)

    def shown(self) -> str:
        """The body and, after it, the pictures by their folder (named by their content) and name."""
        return "\n".join([self.body, *(f"{MARK} {'/'.join(Path(p).parts[-2:])}" for p in self.pictures)])


@dataclass(frozen=True)
class PhaseOutcome:
    eliminations: tuple[tuple[str, str], ...]     # (nick, cause)
    state: Any                                   # the snapshot as JSON
    drafts: tuple[DraftText, ...]


@dataclass(frozen=True)
class StateChange:
    path: str                   # "players.Лиса.alive"
    old: Any
    new: Any


@dataclass(frozen=True)
class DraftChange:
    kind: str
    target: str
    old: DraftText | None       # None: the re-run drafts something new
    new: DraftText | None       # None: the re-run no longer drafts it
    lines: tuple[str, ...]      # unified diff of the bodies (empty when equal)

    @property
    def changed(self) -> bool:
        return self.old is None or self.new is None or self.old.shown() != self.new.shown()


@dataclass(frozen=True)
class OutcomeDiff:
    eliminated_before: tuple[tuple[str, str], ...]
    eliminated_after: tuple[tuple[str, str], ...]
    state: tuple[StateChange, ...]
    drafts: tuple[DraftChange, ...]

    @property
    def changed(self) -> bool:
        return (self.eliminated_before != self.eliminated_after or bool(self.state)
                or any(change.changed for change in self.drafts))

    def digest(self) -> str:
        """Names this exact outcome: a confirmation is for the outcome the host saw, not a later one."""
        material = json.dumps([self.eliminated_after, [(c.path, c.new) for c in self.state],
                               [(d.kind, d.target, d.new.shown() if d.new else None) for d in self.drafts]],
                              ensure_ascii=False, sort_keys=True, default=str)
        return hashlib.sha256(material.encode("utf-8")).hexdigest()[:16]


def outcome_diff(before: PhaseOutcome, after: PhaseOutcome) -> OutcomeDiff:
    return OutcomeDiff(before.eliminations, after.eliminations, tuple(state_changes(before.state, after.state)),
                       tuple(draft_changes(before.drafts, after.drafts)))


def state_changes(old: Any, new: Any, path: str = "") -> list[StateChange]:
    """Every leaf that differs, by its dotted path (lists by index)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in list(old) + [k for k in new if k not in old]:
            out += state_changes(old.get(key, _MISSING), new.get(key, _MISSING), _join(path, key))
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [change for index, (a, b) in enumerate(zip(old, new)) for change in state_changes(a, b, _join(path, index))]
    if old == new:
        return []
    return [StateChange(path, None if old is _MISSING else old, None if new is _MISSING else new)]


_MISSING = object()


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def paired(drafts: tuple[DraftText, ...]) -> dict[tuple[str, str, int], DraftText]:
    """Drafts by kind, addressee and rank among those two: how a draft is matched across resolutions."""
    seen: dict[tuple[str, str], int] = {}
    out = {}
    for draft in drafts:
        key = (draft.kind, draft.target)
        out[(*key, seen.get(key, 0))] = draft
        seen[key] = seen.get(key, 0) + 1
    return out


def draft_changes(old: tuple[DraftText, ...], new: tuple[DraftText, ...]) -> list[DraftChange]:
    """Drafts paired by kind and addressee, in the order they were drafted."""
    olds, news = paired(old), paired(new)
    changes = []
    for key in list(olds) + [k for k in news if k not in olds]:
        a, b = olds.get(key), news.get(key)
        changes.append(DraftChange(key[0], key[1], a, b, text_diff(a.shown() if a else "", b.shown() if b else "")))
    return changes


def text_diff(old: str, new: str) -> tuple[str, ...]:
    """The changed lines with one line of context, "+"/"-" marked (empty when equal); without the
    two file-name lines: the heading around it says what was and what will be."""
    return tuple(difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=1))[2:]


def earlier_edit_diff(draft: dict) -> tuple[str, ...]:
    """A re-run's new text against the host's edit of the draft it replaced (empty when none waits)."""
    return text_diff(draft["earlier_edit"], draft["body"]) if draft.get("earlier_edit") else ()
