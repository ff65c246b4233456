"""The running tally on the host's page: a Mafia game's day votes sent by PM counted by the engine's
own `pm_vote_tally` (the one the vote-count drafts use), corrections included."""
from __future__ import annotations

import re

from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.host_actions.correct import correct
from forumgm.daemon.web import create_app
from forumgm.daemon.web.queries import TallyLine, running_tally
from spine_fakes import MemoryForum, ScriptedPm
from web_seed import without_labels
from mafia_walk_support import GAME, PMS, msk, start

PASSWORD = "длинный пароль ведущего"
DAY_3 = [ScriptedPm("Аскон", "голос: Хан", msk(5, 10)), ScriptedPm("Аскон", "голос: Бук", msk(5, 10, 30)),
         ScriptedPm("Хан", "голос: Бук", msk(5, 11)), ScriptedPm("Тора", "не судить", msk(5, 11, 30))]


def test_the_page_counts_pm_votes_as_the_engine_does(played):
    installation, _config = played
    clock = FixedClock(msk(5, 12))
    daemon = start(installation, clock, MemoryForum(clock, pms=list(PMS) + DAY_3))
    daemon.tick()
    store, game = daemon.store, daemon.games[0]

    view = running_tally(store, GAME, game)
    assert view.phase_key == "round-3"
    assert view.lines == (TallyLine("Бук", ("Хан",)), TallyLine("Хан", ("Аскон",)), TallyLine("не судить", ("Тора",)))
    # the vote is not changed: the engine's reason shows with it
    assert [(d.voter, d.text, d.reason) for d in view.discarded] == [("Аскон", "голос: Бук", "already_voted")]
    assert running_tally(store, GAME).lines == ()       # without the installation there is no engine to count

    correct(game, store, "round-3", "Аскон", "голос: Бук", "host", clock.now())
    assert running_tally(store, GAME, game).lines[0] == TallyLine("Бук", ("Хан", "Аскон"))

    client = create_app(store, PASSWORD, games=lambda: {game.id: game}).test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/login").get_data(as_text=True)).group(1)
    client.post("/login", data={"password": PASSWORD, "csrf_token": token})
    html = without_labels(client.get(f"/games/{GAME}").get_data(as_text=True))
    assert re.search(r"<td>Бук</td><td>2</td><td>Хан, Аскон</td>", html)
    assert "<td>не судить</td><td>1</td><td>Тора</td>" in html
