"""What the host's page shows, read from the store: games, the running tally, orders, maps.

Read-only views over `Store`; nothing here writes. Rows come back as small frozen records
so the templates never reach into the store's column names.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

from forumgm.daemon.drafts.pictures import in_game_folder
from forumgm.daemon.settings.games import game_maps, game_title
from forumgm.daemon.store import Store
from forumgm.daemon.store.inputs import correction_number
from forumgm.daemon.tick.stops import Stop, stops
from forumgm.daemon.tick.votes import pm_vote_tally, stored_tally
from forumgm.engines.base import Phase, Tally

# The daemon drafts one receipt per order PM under this reference (see drafts/compose.py draft).
RECEIPT_REF = "receipt:{pm_id}"
IMAGE_TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
# served at a draft's file address, shown on no page: the game's archive its record post links to
SERVED_TYPES = {**IMAGE_TYPES, ".json": "application/json"}


@dataclass(frozen=True)
class GameView:
    id: str
    type: str
    phase_key: str | None
    deadline: datetime | None
    alive: tuple[str, ...]
    title: str                            # the game's name, e.g. «Мафия»
    has_maps: bool                        # its engine draws maps (Bellum): the page has a maps section
    stops: tuple[Stop, ...]               # every reason the game is not being run
    winner: str | None                    # once it is finished


@dataclass(frozen=True)
class TallyLine:
    target: str
    voters: tuple[str, ...]
    corrected: frozenset[str] = frozenset()    # voters whose vote is the host's correction


@dataclass(frozen=True)
class DiscardedLine:
    voter: str
    text: str
    reason: str
    detail: str


@dataclass(frozen=True)
class TallyView:
    phase_key: str | None
    lines: tuple[TallyLine, ...]          # most votes first
    discarded: tuple[DiscardedLine, ...]


@dataclass(frozen=True)
class OrderView:
    pm_id: str
    phase_key: str
    sender: str
    sent_at: datetime | None
    raw_text: str
    verdicts: tuple[dict, ...]            # {"line", "ok", "canonical" | "reason"}
    receipt: dict | None                  # the receipt draft, when one was drafted
    entered_by: str | None = None         # the host who entered this order for the player (a correction)
    replaced_by: str | None = None        # the number of the correction that replaced this PM

    @property
    def correction(self) -> str:
        """The host's number of this order when it is his correction."""
        return correction_number(self.pm_id)


@dataclass(frozen=True)
class MapImage:
    draft_id: int
    index: int                            # position of the file among the draft's pictures
    path: Path
    phase_key: str | None

    @property
    def media_type(self) -> str:
        return SERVED_TYPES[self.path.suffix.lower()]


def current_phase(store: Store, game_id: str) -> dict | None:
    """The earliest phase not yet resolved: the one whose deadline the page counts down to."""
    pending = store.phases(game_id, status="pending")
    return pending[0] if pending else None


def alive_players(store: Store, game_id: str) -> tuple[str, ...]:
    gone = {row["nick"] for row in store.eliminations(game_id)}
    return tuple(row["nick"] for row in store.players(game_id) if row["nick"] not in gone)


def game_view(store: Store, game: dict) -> GameView:
    phase = current_phase(store, game["id"])
    return GameView(
        id=game["id"],
        type=game["type"],
        phase_key=phase["key"] if phase else None,
        deadline=phase["deadline"] if phase and not game.get("finished_at") else None,    # a finished game has none
        alive=alive_players(store, game["id"]),
        title=game_title(game["type"]),
        has_maps=game_maps(game["type"]) is not None,
        stops=tuple(stops(store, game["id"])),
        winner=game.get("winner") if game.get("finished_at") else None,
    )


def games(store: Store) -> list[GameView]:
    return [game_view(store, game) for game in store.games()]


def running_tally(store: Store, game_id: str, game: Any = None) -> TallyView:
    """The current phase's votes: who votes for whom, and what did not count. Thread votes as the
    daemon last counted them; the day votes of a game that takes them by PM (Mafia) as its engine
    counts them from the orders in force (`game`: the tick.GameRun; a page served without the
    installation has no engine and shows the thread's votes only)."""
    phase = current_phase(store, game_id)
    if phase is None:
        return TallyView(None, (), ())
    snapshot = None if game is None else store.latest_snapshot(game_id)
    by_pm = None
    if snapshot is not None:
        state = game.rules.load(snapshot["state"])
        by_pm = pm_vote_tally(game, store, state, Phase(phase["kind"], phase["number"]))
    return tally_view(phase["key"], by_pm or stored_tally(store, game_id, phase["key"]))


def tally_view(phase_key: str, tally: Tally) -> TallyView:
    lines = sorted((TallyLine(target, tuple(vote.voter for vote in votes),
                              frozenset(vote.voter for vote in votes if vote.entered_by))
                    for target, votes in tally.by_target().items()),
                   key=lambda line: (-len(line.voters), line.target))
    discarded = tuple(DiscardedLine(vote.voter, vote.text, vote.reason, vote.detail) for vote in tally.discarded)
    return TallyView(phase_key, tuple(lines), discarded)


def orders_with_receipts(store: Store, game_id: str) -> list[OrderView]:
    """Every order PM of the game, newest first, beside the receipt drafted for it; the host's corrections
    and the PMs they replaced among them."""
    receipts = {row["ref"]: row for row in store.drafts(game_id=game_id)
                if row["ref"] and row["status"] != "superseded"}
    rows = store.orders(game_id, superseded=True)
    pm_ids = {row["id"]: row["pm_id"] for row in rows}
    views = [OrderView(
        pm_id=row["pm_id"], phase_key=row["phase_key"], sender=row["sender"], sent_at=row["sent_at"],
        raw_text=row["raw_text"], verdicts=tuple(row["verdicts"]),
        receipt=receipts.get(RECEIPT_REF.format(pm_id=row["pm_id"])),
        entered_by=row["entered_by"], replaced_by=correction_number(pm_ids[row["superseded_by"]]) if row["superseded_by"] in pm_ids else None,
    ) for row in rows]
    return views[::-1]


def draft_images(store: Store, draft: dict, types: Mapping[str, str] = IMAGE_TYPES) -> list[MapImage]:
    """The picture files a draft carries (a turn report's map) that exist in its game's pictures folder."""
    images = []
    for index, name in enumerate(draft["pictures"] or []):
        path = Path(name)
        if path.suffix.lower() in types and in_game_folder(store.path, draft["game_id"], path):
            images.append(MapImage(draft["id"], index, path, draft["phase_key"]))
    return images


def map_images(store: Store, game_id: str) -> list[MapImage]:
    """The pictures of the game's live drafts, newest draft first."""
    return [image for draft in reversed(store.drafts(game_id=game_id)) if draft["status"] != "superseded"
            for image in draft_images(store, draft)]


def map_image(store: Store, game_id: str, draft_id: int, index: int) -> MapImage | None:
    """One file a live draft of this game carries (a picture, or the record's archive), inside this
    game's pictures folder."""
    drafts = [d for d in store.drafts(game_id=game_id) if d["id"] == draft_id and d["status"] != "superseded"]
    return next((image for draft in drafts for image in draft_images(store, draft, SERVED_TYPES)
                 if image.index == index), None)

