"""What a game's [[players]] nicks may hide from the host, told at `check-config` (and `run`).

A nick mixing Latin and Cyrillic letters is most often a typo for the forum account (Latin «o» for
Cyrillic «о»): the account would be nobody's, its PMs and votes nobody's orders. It may also be the
account's real spelling, so it is a warning that names the odd letters. A nick changed after the
roles were dealt is a problem: the role stays with the old name, and the new one would be no player.
"""
from __future__ import annotations

import unicodedata

from forumgm.daemon.settings.game import player_key

SCRIPTS = ("LATIN", "CYRILLIC")


def _script(letter: str) -> str | None:
    if not letter.isalpha():
        return None
    name = unicodedata.name(letter, "")
    return next((script for script in SCRIPTS if name.startswith(script)), None)


def mixed_script(nick: str) -> str | None:
    """"Cyrillic о (letter 2), о (letter 4) among Latin ones", or None for a nick in one script."""
    letters = [(position, letter, _script(letter)) for position, letter in enumerate(nick, start=1)]
    counts = {script: sum(1 for *_, s in letters if s == script) for script in SCRIPTS}
    if not all(counts.values()):
        return None
    # the fewer letters are the odd ones; on a tie the Latin ones (the boards are Russian)
    fewer, more = sorted(SCRIPTS, key=lambda script: (counts[script], script != "LATIN"))
    odd = ", ".join(f"{letter} (letter {position})" for position, letter, script in letters if script == fewer)
    return f"{fewer.title()} {odd} among {more.title()} ones"


def mixed_script_warnings(game) -> list[str]:
    """One warning per nick of `game` (a GameConfig) that mixes Latin and Cyrillic letters."""
    warnings = []
    for index, player in enumerate(game.players):
        mixed = mixed_script(player.nick)
        if mixed:
            warnings.append(f"{game.source}: {player_key('players', index, player.nick)}.nick: mixes Latin and "
                            f"Cyrillic letters: {mixed}; check it is spelt as the forum account")
    return warnings


def dealt_nick_problems(game, store) -> list[str]:
    """Nicks of `game` (a tick.GameRun) that are not the ones its roles were dealt to."""
    snapshot = store.latest_snapshot(game.id)
    if snapshot is None:
        return []
    dealt = set(game.rules.alive(game.rules.load(snapshot["state"])))
    dealt |= {row["nick"] for row in store.eliminations(game.id)}
    players = game.config.players
    seats = game.seats(store).ids      # a store from before seats knows a replaced seat by its last nick
    unknown = set(seats) - dealt
    missing = sorted(dealt - set(seats))
    return [f"{game.config.source}: {player_key('players', index, player.nick)}.nick: the roles were dealt to "
            f"{', '.join(missing) or 'other nicks'}, not to {player.nick}: write the nick back, or let a new account "
            f"take a role over with `forumgm replace --config … {game.id} OLD_NICK {player.nick}`"
            for index, (player, seat) in enumerate(zip(players, seats)) if seat in unknown]


def gender_notes(game) -> list[str]:
    """What the texts will take as the gender of each player of `game` (a GameConfig) that has no
    `gender`: the guess from a known personal name, for the host to correct, and the nicks with no
    guess, of which the texts say nothing gendered."""
    from forumgm.engines.phrases import guess_gender

    open_ = [player for player in game.players if player.gender is None]
    guessed = [(player.nick, guess_gender(player.nick)) for player in open_]
    notes = []
    if any(gender for _, gender in guessed):
        notes.append(f"{game.id}: gender guessed from the nick (write gender = \"f\" or \"m\" on [[players]] to "
                     f"correct it): " + ", ".join(f"{nick} {gender}" for nick, gender in guessed if gender))
    if any(gender is None for _, gender in guessed):
        notes.append(f"{game.id}: gender unknown, the texts use no gendered word for: "
                     + ", ".join(nick for nick, gender in guessed if gender is None))
    return notes
