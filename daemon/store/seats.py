"""Seats: a player is a seat, and the forum account that holds it may change (forumgm replace).

A seat is named for good by the nick it was dealt with (the game file's [[players]] nick): the
engines key their state, their dice and every stored input (orders, votes, eliminations) by that
name, and nothing is ever renamed. The store keeps who took each seat over and when (the
`replacements` rows); the daemon reads a post or a PM as the seat its author held at that moment,
and shows and addresses a seat by the account holding it.

A store made before seats existed renamed the replaced player everywhere instead: there the seat
is known by the nick its chain of replacements ended at (the migration names each row's seat so),
and the dealt nick only begins its history.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Sequence

from forumgm.parsers.names import Holding, Roster


@dataclass(frozen=True)
class Seat:
    id: str
    aliases: tuple[str, ...] = ()
    # (account, since): who held the seat from when, oldest first; the dealt account since the deal (None)
    holders: tuple[tuple[str, datetime | None], ...] = ()
    # the gender the host gave each later holder (forumgm replace --gender), in the order of holders[1:]
    genders: tuple[str | None, ...] = ()

    def _held(self, at: datetime | None) -> int:
        return sum(1 for _account, since in self.holders if at is None or since is None or since <= at) - 1

    def holder(self, at: datetime | None = None) -> str:
        """The account holding the seat at `at` (None: now)."""
        held = self._held(at)
        return self.holders[held][0] if held >= 0 else self.id

    def holder_gender(self, at: datetime | None = None) -> str | None:
        """The gender the host gave the account holding the seat at `at` when it took the seat over
        (None: not given, or the dealt account, whose gender is the game file's)."""
        held = self._held(at)
        return self.genders[held - 1] if 0 < held <= len(self.genders) else None

    def holdings(self) -> tuple[Holding, ...]:
        ends = [since for _account, since in self.holders[1:]] + [None]
        return tuple(Holding(account, self.id, since, until)
                     for (account, since), until in zip(self.holders, ends))


@dataclass(frozen=True)
class Seats:
    """A game's seats in the order they were dealt."""

    seats: tuple[Seat, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(seat.id for seat in self.seats)

    def get(self, seat_id: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.id == seat_id), None)

    def holder(self, seat_id: str, at: datetime | None = None) -> str:
        """The account to show and address the seat by; a name that is no seat (the thread, the
        host's account) is itself."""
        seat = self.get(seat_id)
        return seat.holder(at) if seat is not None else seat_id

    def named(self, name: str) -> str | None:
        """The seat the host means by `name`: its id or the account holding it now (exact after NFC)."""
        name = unicodedata.normalize("NFC", name.strip())
        return next((seat.id for seat in self.seats
                     if name in (unicodedata.normalize("NFC", seat.id), unicodedata.normalize("NFC", seat.holder()))),
                    None)

    def holders(self, at: datetime | None = None) -> dict[str, str]:
        """seat id -> the account holding it at `at`, for the seats whose account changed."""
        return {seat.id: seat.holder(at) for seat in self.seats if seat.holder(at) != seat.id}

    def showing(self, texts, at: datetime | None = None):
        """`texts` (a forumgm.engines.texts.Texts) showing each seat by the account holding it at `at`,
        agreeing with that account's gender."""
        return texts.showing(self.holders(at), self.holder_genders(at))

    def holder_genders(self, at: datetime | None = None) -> dict[str, str | None]:
        """seat id -> the gender the host gave its holder at `at`, for the seats whose account changed."""
        return {seat.id: seat.holder_gender(at) for seat in self.seats if seat.holder(at) != seat.id}

    def names(self, at: datetime | None = None) -> tuple[tuple[str, str], ...]:
        """(account, seat) of every account other than the seat's own nick that held a seat by `at`
        (None: by now): the names an order or a vote written then may call the seat by
        (OrderPm.seat_names)."""
        return tuple((account, seat.id) for seat in self.seats for account, since in seat.holders
                     if account != seat.id and (at is None or since is None or since <= at))

    def roster(self, at: datetime | None = None) -> Roster:
        """The seats as names to read: a post or PM is its author's seat at its moment, and a seat
        is named by its aliases and by every account that held it by `at` (None: by now)."""
        aliases = {alias: seat.id for seat in self.seats for alias in seat.aliases}
        return Roster(self.ids, aliases, holdings=tuple(held for seat in self.seats for held in seat.holdings())
                      ).also_named(self.names(at))


def seats_of(players: Iterable[tuple[str, Sequence[str]]], replacements: Sequence[dict]) -> Seats:
    """The seats of a game dealt with `players` (nick, aliases) after the store's replacements
    (its `replacements` rows, oldest first)."""
    rows: dict[str, list[dict]] = {}
    for row in replacements:
        rows.setdefault(row["seat"], []).append(row)
    # a seat's first replacement starts from the account it was dealt to
    dealt_to = {seat_rows[0]["old_nick"]: seat_id for seat_id, seat_rows in rows.items()}
    seats = []
    for nick, aliases in players:
        seat_id = dealt_to.get(nick, nick)
        holders = ((nick, None),) + tuple((row["new_nick"], row["at"]) for row in rows.get(seat_id, ()))
        seats.append(Seat(seat_id, tuple(aliases), holders, tuple(row.get("gender") for row in rows.get(seat_id, ()))))
    return Seats(tuple(seats))


def holder_at(store, game_id: str, name: str, at: datetime | None = None) -> str:
    """The account a PM drafted to `name` goes to at `at` (None: now): the seat's holder when it is a
    seat the host gave to another account, else `name` itself (a PM is addressed to its seat at send time)."""
    rows = [row for row in store.replacements(game_id) if row["seat"] == name and (at is None or row["at"] <= at)]
    return rows[-1]["new_nick"] if rows else name


def addressee(store, draft: dict) -> str:
    """The account a PM draft goes to when sent now, or went to when it was sent (its `target` names
    a seat, or an account such as the host's); a thread draft's target as it is."""
    return holder_at(store, draft["game_id"], draft["target"], draft["sent_at"] if draft["status"] == "sent" else None)


def seats_listed(seats: Seats) -> str:
    """The seats for the host's eyes: «Аскон, Кума (теперь Гладиатор)»."""
    return ", ".join(seat.id if seat.holder() == seat.id else f"{seat.id} (теперь {seat.holder()})"
                     for seat in seats.seats)


def not_a_player(name: str, game_id: str, seats: Seats) -> str:
    """The refusal of an action naming someone who holds no seat, with the names that would do."""
    return f"в игре {game_id} нет игрока «{name}»; игроки: {seats_listed(seats)}"
