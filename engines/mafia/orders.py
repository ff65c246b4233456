"""Reading order PMs against the state: the receipts and the orders a round resolves from.

A PM is reviewed against the sender's earlier PMs of the same round: the first valid vote
counts, a night action needs a day vote (earlier or in the same PM), and a later night order
of the same kind replaces the earlier one.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from forumgm.engines.base import Accepted, OrderPm, Phase, Rejected, Verdict, read_lines, split_lines
from forumgm.engines.mafia.roles import ACTIONS
from forumgm.engines.mafia.state import LastTarget, MafiaState, Player
from forumgm.engines.phrases import Agreement, Echo
from forumgm.parsers.names import Roster
from forumgm.parsers.orders.mafia import NO_TRIAL, NightOrder, NoTrial, Vote, canonical, command_of, parse_line

REASONS = {
    "not_a_player": "вы не участвуете в этой игре",
    "dead_sender": "вы выбыли из игры",
    "not_your_action": "это не действие вашей роли",
    "no_vote": "ночное действие без дневного голоса не принимается",
    "already_voted": "голос уже учтён ({first}); изменить голос нельзя",
    "no_trial_used": "«не судить» уже использовано в этой игре",
    "dead_target": "игрок {target} выбыл из игры",
    "self_target": "нельзя выбрать целью себя",
    "same_heal": "нельзя лечить одного и того же игрока две ночи подряд ({target})",
    "same_block": "нельзя блокировать одного и того же игрока две ночи подряд ({target})",
    "late": "получено после окончания игрового дня — не учтено",
}
REPLACES = " (заменяет «{earlier}»)"

# Orders that may not name the sender himself (the doctor may heal himself).
NOT_ON_SELF = ("check", "block", "kill")


@dataclass(frozen=True)
class SenderOrders:
    """One player's valid orders of a round so far."""

    vote: Vote | NoTrial | None = None
    actions: tuple[NightOrder, ...] = ()

    def action(self, kind: str) -> NightOrder | None:
        return next((a for a in self.actions if a.action == kind), None)

    def with_action(self, order: NightOrder) -> "SenderOrders":
        kept = tuple(a for a in self.actions if a.action != order.action)
        return replace(self, actions=kept + (order,))


def vote_target(vote: Vote | NoTrial | None) -> str | None:
    """Whom a day vote names: a nick, «не судить», or None for no vote."""
    if vote is None:
        return None
    return NO_TRIAL if isinstance(vote, NoTrial) else vote.target


@dataclass(frozen=True)
class Review:
    """A line's verdict plus the machine code of a refusal (for the discarded-votes list)."""

    verdict: Verdict
    code: str = ""
    is_vote: bool = False


def roster(state: MafiaState) -> Roster:
    aliases = {alias: p.nick for p in state.players for alias in p.aliases}
    return Roster(tuple(p.nick for p in state.players), aliases, genders=Agreement.of_players(state.players).genders)


def _refuse(line: str, code: str, is_vote: bool, genders: Mapping[str, str | None] | None = None,
            **players: str) -> Review:
    """The refusal's reason naming `players` (seats) as a receipt writes them: by their holders."""
    return Review(Rejected(line, Echo(REASONS[code], players, genders)), code, is_vote)


Reviewed = tuple[Review, SenderOrders]


def _review_vote(state: MafiaState, player: Player, verdict: Accepted, mine: SenderOrders) -> Reviewed:
    order, line = verdict.order, verdict.line
    genders = Agreement.of_players(state.players).genders
    if mine.vote is not None:
        before, after = REASONS["already_voted"].split("{first}")
        return Review(Rejected(line, before + canonical(mine.vote, genders) + after), "already_voted", True), mine
    if isinstance(order, NoTrial) and player.no_trials_used >= state.rules.no_trial_per_game:
        return _refuse(line, "no_trial_used", True), mine
    if isinstance(order, Vote) and not state.is_alive(order.target):
        return _refuse(line, "dead_target", True, genders, target=order.target), mine
    return Review(verdict, is_vote=True), replace(mine, vote=order)


def _repeats(last: LastTarget | None, phase: Phase, target: str) -> bool:
    return last is not None and last.round == phase.number - 1 and last.target == target


def _review_action(state: MafiaState, phase: Phase, player: Player, verdict: Accepted,
                   mine: SenderOrders) -> Reviewed:
    order, line = verdict.order, verdict.line
    genders = Agreement.of_players(state.players).genders
    if order.action not in ACTIONS[player.role]:
        return _refuse(line, "not_your_action", False), mine
    if mine.vote is None:
        return _refuse(line, "no_vote", False), mine
    if not state.is_alive(order.target):
        return _refuse(line, "dead_target", False, genders, target=order.target), mine
    if order.action in NOT_ON_SELF and order.target == player.nick:
        return _refuse(line, "self_target", False), mine
    if order.action == "heal" and _repeats(state.last_heal, phase, order.target):
        return _refuse(line, "same_heal", False, genders, target=order.target), mine
    if order.action == "block" and _repeats(state.last_block, phase, order.target):
        return _refuse(line, "same_block", False, genders, target=order.target), mine
    earlier = mine.action(order.action)
    if earlier is not None:
        before, after = REPLACES.split("{earlier}")
        verdict = Accepted(line, order, verdict.canonical + before + canonical(earlier, genders) + after)
    return Review(verdict), mine.with_action(order)


def _is_vote_line(verdict: Verdict) -> bool:
    if verdict.ok:
        return not isinstance(verdict.order, NightOrder)
    return command_of(verdict.line) in ("vote", "no_trial")


def review_pm(state: MafiaState, phase: Phase, pm: OrderPm, mine: SenderOrders) -> tuple[list[Review], SenderOrders]:
    """Each line of `pm` judged after the sender's earlier valid orders `mine`.

    Votes are read before night actions so that a PM may name them in either order.
    """
    lines = split_lines(pm.text)
    player = state.player(pm.sender)
    if player is None or not player.alive:
        code = "not_a_player" if player is None else "dead_sender"
        return [_refuse(line, code, command_of(line) in ("vote", "no_trial")) for line in lines], mine
    names = roster(state).also_named(pm.seat_names)      # a replaced seat by its account too
    parsed = read_lines(pm.text, lambda line: parse_line(line, player.nick, names))
    reviews: list[Review | None] = [None] * len(parsed)
    for votes_pass in (True, False):
        for index, verdict in enumerate(parsed):
            if _is_vote_line(verdict) != votes_pass:
                continue
            if not verdict.ok:
                reviews[index] = Review(verdict, "unknown_name" if votes_pass else "unparsed", votes_pass)
            elif votes_pass:
                reviews[index], mine = _review_vote(state, player, verdict, mine)
            else:
                reviews[index], mine = _review_action(state, phase, player, verdict, mine)
    return reviews, mine


def orders_before(state: MafiaState, phase: Phase, earlier: Iterable[OrderPm]) -> SenderOrders:
    mine = SenderOrders()
    for pm in earlier:
        _, mine = review_pm(state, phase, pm, mine)
    return mine


def read_orders(state: MafiaState, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
    reviews, _ = review_pm(state, phase, pm, orders_before(state, phase, earlier))
    return [review.verdict for review in reviews]


def late_verdicts(pm: OrderPm) -> list[Verdict]:
    """The receipt lines for a PM that arrived after the deadline."""
    return [Rejected(line, REASONS["late"]) for line in split_lines(pm.text)]


@dataclass(frozen=True)
class RoundOrders:
    """Everything a round resolves from: each living sender's valid orders and the refused votes."""

    by_sender: dict[str, SenderOrders]
    discarded: tuple[dict, ...]

    def of(self, nick: str) -> SenderOrders:
        return self.by_sender.get(nick, SenderOrders())


def collect(state: MafiaState, phase: Phase, pms: Iterable[OrderPm]) -> RoundOrders:
    by_sender: dict[str, SenderOrders] = {}
    discarded: list[dict] = []
    for pm in pms:
        reviews, by_sender[pm.sender] = review_pm(state, phase, pm, by_sender.get(pm.sender, SenderOrders()))
        discarded += [{"voter": pm.sender, "text": r.verdict.line, "reason": r.code}
                      for r in reviews if r.is_vote and not r.verdict.ok]
    return RoundOrders(by_sender, tuple(discarded))
