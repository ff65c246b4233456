"""The Bellum sign-up: faction lists read from posts, replies to bad ones, the optimal
assignment, and the host's approval writing the players into the game — on the local forum."""
from datetime import timedelta
from types import SimpleNamespace

import pytest

from forumgm.config import load_texts
from forumgm.daemon.offline.localforum import Board, LocalForum
from forumgm.daemon.drafts.publish import publish_approved
from forumgm.daemon.tick.signup_choices import (
    AssignmentError, KIND, REPLY_KIND, assignment_lines, draft_assignment, write_players,
)
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game
from forumgm.parsers.signup_choices import ChoiceNames, read_choices
from localforum_support import HOST, FakeClock, host_forum, thread_url
from tests.bellum_helpers import setup_of, shipped_scenario


@pytest.fixture(scope="module")
def names():
    from forumgm.engines.bellum import RULES

    return ChoiceNames.of(RULES.signup_choices(setup_of({"scenario": "370"})))


@pytest.mark.parametrize("text, expected", [
    ("Записываюсь!\n1. Вестготы\n2. Франки\n3) Гунны", ("vestgoty", "franki", "gunny")),
    ("в игре. вестготы, франки или гунны", ("vestgoty", "franki", "gunny")),
    ("Хочу за вестготов, потом франков, ну или гуннов", ("vestgoty", "franki", "gunny")),
    ("- Восточная Римская империя\n- Сассаниды\n- ЗРИ\n- Сассаниды", ("vost_rim", "sassanidy", "zap_rim")),
    ("Играю за Армян, Копты, Византию", ("armyane", "kopty", "vost_rim")),
])
def test_factions_are_read_in_any_case_form_or_alias_in_order(names, text, expected):
    read = read_choices(text, names)
    assert read.choices == expected and read.unknown == ()


def test_an_unknown_faction_is_named_with_the_nearest_ones_and_wishes_are_kept(names):
    read = read_choices("1. Вестготы\n2. Гоблины\n3. Франки\nПожелания: не воевать с Римом\nи соседей активных",
                        names)
    assert read.choices == ("vestgoty", "franki")
    [unknown] = read.unknown
    assert unknown.text == "Гоблины" and unknown.nearest
    assert read.wishes == "не воевать с Римом\nи соседей активных"


def test_chatter_between_names_is_not_an_unknown_faction(names):
    assert read_choices("Всем привет! Играю. Вестготы, Саксы, Юты", names).unknown == ()


def game_file(tmp_path, server):
    path = tmp_path / "bellum.toml"
    path.write_text(f'id = "bellum-signup"\ntype = "bellum"\nthread_url = "{thread_url(server)}"\n'
                    'players = []\n\n[setup]\nscenario = "370"\n', encoding="utf-8")
    return path


def test_signup_on_the_local_forum_from_posts_to_players(tmp_path, names):
    clock = FakeClock()
    board = Board(clock=clock.now)
    board.add_user(HOST, "host-secret", admin=True)
    for nick in ("Аскон", "Хан", "Лиса", "Бук"):
        board.add_user(nick, f"{nick}-pw")
    board.add_topic(HOST, "Bellum 2.0: запись", "Назовите три или больше фракций по порядку и пожелания.")
    posts = [("Аскон", "Записываюсь!\n1. Вестготы\n2. Франки\n3. Гунны\nПожелания: подальше от Рима"),
             ("Хан", "вестготы, остготы или гунны"),
             ("Лиса", "1. Вестготы\n2. Гоблины\n3. Саксы"),
             ("Бук", "в игре, хочу за франков"),
             ("Лиса", "Исправляюсь: Вестготы, Саксы, Франки")]
    for author, text in posts:
        board.reply(author, 2, text)
        clock.sleep(60)
    with LocalForum(board) as server:
        forum = host_forum(server, clock)
        store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
        store.register_forum("local", "phpbb", server.url, HOST)
        store.register_game("bellum-signup", "bellum", "local", thread_url(server), "UTC", 1, {})
        game = SimpleNamespace(id="bellum-signup", thread_url=thread_url(server), edit_window=timedelta(hours=1))
        sync_game(game, forum, store, clock.now())

        proposal, draft_id = draft_assignment(store, "bellum-signup", HOST, load_texts(), names)
        assert [w.player for w in proposal.wishes] == ["Аскон", "Хан", "Лиса"]     # sign-up order
        assert dict(proposal.assignment.given) == {"Аскон": "vestgoty", "Хан": "ostgoty", "Лиса": "saksy"}
        drafts = {d["kind"]: d for d in store.drafts(game_id="bellum-signup")}
        body = drafts[KIND]["body"]
        assert "Аскон — Вестготы (1-й выбор)" in body and "Хан — Остготы (2-й выбор)" in body
        assert "Хан: Вестготы (у Аскон)" in body and "Лиса: Вестготы (у Аскон)" in body
        replies = [d for d in store.drafts(game_id="bellum-signup") if d["kind"] == REPLY_KIND]
        assert len(replies) == 2                          # Лиса's first post and Бук's
        assert any("«Гоблины» в игре нет" in d["body"] for d in replies)
        assert any("Бук" in d["body"] and "названо фракций: 1 (Франки)" in d["body"] for d in replies)

        # drafting again (a new post came) supersedes the proposal but never repeats a reply
        draft_assignment(store, "bellum-signup", HOST, load_texts(), names)
        assert len([d for d in store.drafts(game_id="bellum-signup") if d["kind"] == REPLY_KIND]) == 2
        [pending] = [d for d in store.drafts(status="pending", game_id="bellum-signup") if d["kind"] == KIND]

        # the host gives Хан the Huns instead, approves; the players go into the game file
        edited = pending["body"].replace("Хан — Остготы (2-й выбор)", "Хан — Гуннов")
        store.edit_draft(pending["id"], edited, by="host")
        path = game_file(tmp_path, server)
        write_players(path, assignment_lines(edited, names))
        store.approve(pending["id"], by="host")
        for reply in replies:
            store.approve(reply["id"], by="host")
        report = publish_approved(forum, store, clock.now())
        assert report.ok and len(report.sent) == 3

    text = path.read_text(encoding="utf-8")
    assert "players = []" not in text
    assert 'nick = "Хан"\nrole = "gunny"' in text and 'nick = "Аскон"\nrole = "vestgoty"' in text
    thread = [p.bbcode for p in board.visible_posts(2)]
    assert sum("Хан — Гуннов" in post for post in thread) == 1
    assert sum("«Гоблины» в игре нет" in post for post in thread) == 1


def test_an_edited_assignment_with_a_problem_is_refused_whole(names, tmp_path):
    body = "Распределение фракций (3):\nАскон — Вестготы\nХан — Гоблины\nЛиса — вестготов\nБук без фракции\n"
    with pytest.raises(AssignmentError) as caught:
        assignment_lines(body, names)
    message = str(caught.value)
    assert "строка 3: фракции «Гоблины» в этой игре нет" in message
    assert "строка 4: фракция «Вестготы» уже отдана выше (игрок Аскон)" in message
    assert "строка 5: нужно «ник — фракция», а написано «Бук без фракции»" in message
    path = tmp_path / "g.toml"
    path.write_text('id = "g"\n[setup]\nscenario = "370"\n', encoding="utf-8")
    with pytest.raises(AssignmentError, match="players = \\[\\]"):
        write_players(path, [("Аскон", "vestgoty")])


# ---------------------------------------------------------------- forumgm signup / drafts approve

def bellum_installation(folder):
    (folder / "bellum.toml").write_text('''id = "bellum-open"
type = "bellum"
thread_url = "https://forum.example.org/viewtopic.php?t=7"
seed = 370
time_zone = "Europe/Moscow"
start = 2026-03-02T12:00:00
players = []

[calendar.turn]
duration = "3d"

[setup]
scenario = "370"
''', encoding="utf-8")
    (folder / "forumgm.toml").write_text('''games = ["bellum.toml"]

[forum]
id = "main"
engine = "phpbb"
base_url = "https://forum.example.org/"
account = "Ведущий"
time_zone = "UTC"
password_env = "FORUMGM_SIGNUP_PASSWORD"

[storage]
path = "forumgm.sqlite"
''', encoding="utf-8")
    return folder / "forumgm.toml"


def test_signup_command_drafts_the_assignment_and_approval_writes_the_players(tmp_path, monkeypatch, capsys):
    from datetime import datetime, timezone

    from forumgm.daemon.cli import main
    from forumgm.daemon.settings.game import load_game
    from forumgm.parsers.forums.base import Post

    monkeypatch.setenv("FORUMGM_SIGNUP_PASSWORD", "secret")
    config = bellum_installation(tmp_path)
    store = Store(tmp_path / "forumgm.sqlite")
    store.register_forum("main", "phpbb", "https://forum.example.org/", HOST)
    store.register_game("bellum-open", "bellum", "main", "https://forum.example.org/viewtopic.php?t=7", "UTC", 370, {})
    at = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)
    posts = [Post("1", HOST, None, at, text="Запись открыта: три фракции или больше."),
             Post("2", "Аскон", None, at + timedelta(minutes=1), text="1. Сассаниды\n2. Армяне\n3. Гунны"),
             Post("3", "Хан", None, at + timedelta(minutes=2), text="Сассаниды, Гунны, Аланы\nПожелания: степь"),
             Post("4", "Лиса", None, at + timedelta(minutes=3), text="в игре! за Пиктов")]
    for post in posts:
        store.record_post("bellum-open", post, 1, post.posted_at)
    store.close()

    assert main(["signup", "--config", str(config), "bellum-open"]) == 0
    out = capsys.readouterr().out
    assert "Аскон: Сассаниды" in out and "Хан: Гунны" in out and "wishes of Хан (post 3): степь" in out
    store = Store(tmp_path / "forumgm.sqlite")
    [assignment] = [d for d in store.drafts(game_id="bellum-open") if d["kind"] == KIND]
    [reply] = [d for d in store.drafts(game_id="bellum-open") if d["kind"] == REPLY_KIND]
    assert "Лиса" in reply["body"] and "названо фракций: 1 (Пикты)" in reply["body"]

    wrong = assignment["body"].replace("Хан — Гунны", "Хан — Сассаниды")
    store.edit_draft(assignment["id"], wrong, by="host")
    assert main(["drafts", "--config", str(config), "approve", str(assignment["id"])]) == 1
    assert "фракция «Сассаниды» уже отдана выше (игрок Аскон)" in capsys.readouterr().err
    assert store.draft(assignment["id"])["status"] == "pending"
    assert "players = []" in (tmp_path / "bellum.toml").read_text(encoding="utf-8")

    store.edit_draft(assignment["id"], wrong.replace("Хан — Сассаниды", "Хан — Аланы"), by="host")
    assert main(["drafts", "--config", str(config), "approve", str(assignment["id"])]) == 0
    assert "2 player(s) written into the game file" in capsys.readouterr().out
    assert store.draft(assignment["id"])["status"] == "approved"
    game = load_game(tmp_path / "bellum.toml")
    assert [(p.nick, p.role) for p in game.players] == [("Аскон", "sassanidy"), ("Хан", "alany")]
    store.close()


def test_approving_the_assignment_on_the_hosts_page_writes_the_players(tmp_path, monkeypatch):
    import re

    from forumgm.daemon.settings.game import load_game
    from forumgm.daemon.web import create_app
    from forumgm.engines.bellum import RULES
    from web_seed import PASSWORD

    monkeypatch.setenv("FORUMGM_SIGNUP_PASSWORD", "secret")
    bellum_installation(tmp_path)
    game_file_path = tmp_path / "bellum.toml"
    store = Store(tmp_path / "forumgm.sqlite")
    store.register_forum("main", "phpbb", "https://forum.example.org/", HOST)
    store.register_game("bellum-open", "bellum", "main", "https://forum.example.org/viewtopic.php?t=7", "UTC", 370, {})
    body = "Распределение фракций (2):\nАскон — Сассаниды (1-й выбор)\nХан — Гунны (2-й выбор)\n"
    draft_id = store.insert_draft("bellum-open", KIND, "thread", body, None, needs_approval=True)
    game = SimpleNamespace(config=load_game(game_file_path), rules=RULES)
    client = create_app(store, PASSWORD, games=lambda: {"bellum-open": game}).test_client()

    def token(path):
        return re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)

    assert client.post("/login", data={"password": PASSWORD, "csrf_token": token("/login")}).status_code == 302
    refused = client.post(f"/drafts/{draft_id}", follow_redirects=True, data={
        "action": "approve", "body": body.replace("Гунны", "Гоблины"), "csrf_token": token("/drafts")})
    assert "не одобрен, игроки не записаны" in refused.get_data(as_text=True)
    assert store.draft(draft_id)["status"] == "pending"
    assert store.draft(draft_id)["body"] == body.replace("Гунны", "Гоблины")     # the host's edit is kept
    assert "players = []" in game_file_path.read_text(encoding="utf-8")

    client.post(f"/drafts/{draft_id}", data={"action": "approve", "body": body.replace("Гунны", "Аланы"),
                                             "csrf_token": token("/drafts")})
    assert store.draft(draft_id)["status"] == "approved"
    assert [(p.nick, p.role) for p in load_game(game_file_path).players] == [("Аскон", "sassanidy"), ("Хан", "alany")]
    store.close()


def test_approval_writes_each_players_account_name_as_it_is_not_as_escaped_for_the_post(tmp_path, monkeypatch,
                                                                                          capsys):
    """A nick with a "[" (or an invisible character) is escaped in the assignment's post; the game
    file gets the account's own name, which his posts and PMs carry."""
    from datetime import datetime, timezone

    from forumgm.daemon.cli import main
    from forumgm.daemon.settings.game import load_game
    from forumgm.parsers.forums.base import Post

    monkeypatch.setenv("FORUMGM_SIGNUP_PASSWORD", "secret")
    config = bellum_installation(tmp_path)
    store = Store(tmp_path / "forumgm.sqlite")
    store.register_forum("main", "phpbb", "https://forum.example.org/", HOST)
    store.register_game("bellum-open", "bellum", "main", "https://forum.example.org/viewtopic.php?t=7", "UTC", 370, {})
    at = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)
    legion, tom = "[Legion] Рим", "Том & <Джерри>\u200b"
    for number, (author, text) in enumerate([(legion, "Сассаниды, Армяне, Гунны"), (tom, "Гунны, Аланы, Пикты")]):
        post = Post(str(number + 1), author, None, at + timedelta(minutes=number), text=text)
        store.record_post("bellum-open", post, 1, post.posted_at)
    store.close()

    assert main(["signup", "--config", str(config), "bellum-open"]) == 0
    store = Store(tmp_path / "forumgm.sqlite")
    [assignment] = [d for d in store.drafts(game_id="bellum-open") if d["kind"] == KIND]
    assert "［Legion] Рим — Сассаниды" in assignment["body"]          # no tag can open in the post
    assert "Том & <Джерри> — Гунны" in assignment["body"]
    assert main(["drafts", "--config", str(config), "approve", str(assignment["id"])]) == 0
    game = load_game(tmp_path / "bellum.toml")
    assert [(p.nick, p.role) for p in game.players] == [(legion, "sassanidy"), (tom, "gunny")]
    store.close()


def test_the_engine_offers_the_factions_of_the_games_scenario_read_by_its_public_setup():
    from forumgm.engines.base import SetupError
    from forumgm.engines.bellum import RULES

    scenario = shipped_scenario()
    offered = RULES.signup_choices(setup_of({"scenario": "370"}))
    assert [(cid, name, aliases[:len(scenario.factions[cid].aliases)]) for cid, name, aliases in offered] == [
        (f.id, f.name, f.aliases) for f in scenario.factions.values()] and len(offered) == 58
    assert {"пунов", "пунам", "финикийцев"} <= set(dict((cid, aliases) for cid, _, aliases in offered)["puny"])
    with pytest.raises(SetupError) as refused:
        RULES.signup_choices(setup_of({"scenario": "no_such_map.toml"}))
    assert refused.value.key == "setup.scenario" and "no_such_map.toml" in refused.value.message
