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


def test_a_post_dated_before_a_resolved_deadline_and_read_after_it_is_told_to_the_host_once(legends):
    server, clock, config = legends
    daemon = start_daemon(config, server, clock)
    assert daemon.tick().errors == []
    [night] = daemon.store.phases(GAME)
    clock.moment = msk(3, 10, 5)
    assert daemon.tick().resolved == [f"{GAME}/{night['key']}"]
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
