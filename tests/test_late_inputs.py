"""A post the board showed only after the phase it is dated in resolved: the host is told, once."""
import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.notices import KIND
from legends_forum_support import GAME, HOST, PASSWORD_ENV, Player, legends_board, msk, start_daemon, write_installation
from localforum_support import FakeClock


@pytest.fixture
def legends(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        yield server, clock, write_installation(tmp_path, server)


def late_notices(store):
    return [d for d in store.drafts(game_id=GAME) if d["kind"] == KIND and (d["ref"] or "").startswith("late_post:")]


def night_resolved(legends):
    """The game dealt and its first night resolved at its deadline: (server, clock, daemon, night)."""
    server, clock, config = legends
    daemon = start_daemon(config, server, clock)
    assert daemon.tick().errors == []
    [night] = daemon.store.phases(GAME)
    clock.moment = msk(3, 10, 5)
    assert daemon.tick().resolved == [f"{GAME}/{night['key']}"]
    return server, clock, daemon, night


def test_a_post_dated_before_a_resolved_deadline_and_read_after_it_is_told_to_the_host_once(legends):
    server, clock, daemon, night = night_resolved(legends)
    clock.moment = msk(3, 9, 50)            # the board shows now a post it dates before the deadline
    late = Player(server, clock, "Аскон").post("Голосую за [color=blue]Кума[/color]")
    clock.moment = msk(3, 10, 7)
    Player(server, clock, "Кума").post("Доброе утро")     # after the deadline: nothing to tell
    clock.moment = msk(3, 10, 10)
    assert daemon.tick().errors == []
    [notice] = late_notices(daemon.store)
    assert notice["target"] == HOST and notice["status"] == "pending" and notice["ref"] == f"late_post:{late}"
    assert notice["body"].startswith(f"Пост игрока Аскон (№{late}) написан 03.03.2026 09:50 (МСК), "
                                     f"до дедлайна фазы {night['key']}, назначенного на 03.03.2026 10:00 (МСК), но")
    assert f"forumgm resolve --config ФАЙЛ {GAME} {night['key']} --rerun --dry-run" in notice["body"]
    clock.moment = msk(3, 10, 20)
    assert daemon.tick().errors == []
    assert len(late_notices(daemon.store)) == 1
    daemon.store.close()


def late_pm_notices(store):
    return [d for d in store.drafts(game_id=GAME) if d["kind"] == KIND and (d["ref"] or "").startswith("late_pm:")]


def test_an_order_pm_dated_before_a_resolved_deadline_and_read_after_it_is_told_to_the_host_once(legends):
    """A PM the board dates before the night's deadline, first read after the night resolved (its
    inbox page was served from before, a moderator held it): it is read as an order of the open
    phase, and the host is told which phase never saw it and how to count it there."""
    server, clock, daemon, night = night_resolved(legends)
    clock.moment = msk(3, 9, 50)            # the board shows now a PM it dates before the deadline
    late = Player(server, clock, "Аскон").pm("Ночь", "Атака 5 Кума")
    clock.moment = msk(3, 10, 7)
    Player(server, clock, "Кума").pm("День", "Защита 3")      # after the deadline: nothing to tell
    clock.moment = msk(3, 10, 10)
    assert daemon.tick().errors == []
    orders = {order["pm_id"]: order["phase_key"] for order in daemon.store.orders(GAME)}
    assert set(orders) >= {late}
    [notice] = late_pm_notices(daemon.store)
    assert notice["target"] == HOST and notice["status"] == "pending" and notice["ref"] == f"late_pm:{late}"
    assert notice["body"].startswith(f"ЛС игрока Аскон (№{late}, «Ночь») отправлено 03.03.2026 09:50 (МСК), "
                                     f"до дедлайна фазы {night['key']}, назначенного на 03.03.2026 10:00 (МСК), но форум показал его "
                                     "только после того, как эта фаза была подсчитана: в её итогах оно не учтено, "
                                     f"приказы из него прочитаны к фазе {orders[late]}.")
    assert f"forumgm correct --config ФАЙЛ {GAME} {night['key']} Аскон" in notice["body"]
    assert f"forumgm resolve --config ФАЙЛ {GAME} {night['key']} --rerun --dry-run" in notice["body"]
    clock.moment = msk(3, 10, 20)
    assert daemon.tick().errors == []
    assert len(late_pm_notices(daemon.store)) == 1
    daemon.store.close()
