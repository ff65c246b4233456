"""The host annuls a player's vote in the thread of a Legends day (`forumgm correct --annul`, and on the page):
no vote of his counts, his posts stay as they were; the open day's running counts drafted before a correction
are drafted again, except one the host edited, which is left as he wrote it and he is told."""
from __future__ import annotations

from playwright.sync_api import expect

from forumgm.daemon.drafts.publish import publish_approved
from legends_forum_support import GAME, Player, msk, tick_at
from legends_host_support import PASSWORD, cli, counted, draft_body, hosts_page, not_counted
from browser_support import log_in


def running(store) -> list[dict]:
    """The day's running vote-count drafts in force (not superseded), oldest first."""
    return [d for d in store.drafts(game_id=GAME) if d["kind"] == "vote_count" and d["phase_key"] == "day-2"
            and d["status"] != "superseded"]


def audited(store, action: str) -> list[tuple[str, dict]]:
    return [(row["actor"], row["detail"]) for row in reversed(store.audit_log()) if row["action"] == action]


def host_posts(server, text: str) -> list[str]:
    board = server.board
    return [p.bbcode for p in board.visible_posts(2) if board.users[p.author_id].admin and text in p.bbcode]


def test_an_annulled_vote_counts_for_nobody_and_the_count_not_sent_is_drafted_again(day_two, monkeypatch, capsys):
    server, clock, config, daemon, posts = day_two
    store = daemon.store
    tick_at(daemon, clock, msk(4, 15, 5))
    [first] = running(store)
    assert "Кума — 2: " in first["body"] and first["status"] == "pending"
    clock.moment = msk(4, 15, 30)
    assert cli(config, "correct", GAME, "day-2", "gosha100", "--annul", monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert "day-2: gosha100's thread vote is annulled by the host (vote-1): no vote of his counts" in out
    assert f"replaces post {posts['gosha100']}: «Кума» (counted for Кума)" in out
    [again] = running(store)
    assert f"vote count draft {first['id']} is drafted again with the new count: draft {again['id']}" in out
    assert store.draft(first["id"])["status"] == "superseded"
    assert (again["status"], again["ref"]) == ("pending", first["ref"])
    # as of the correction: the command reads the real clock, past the test's day, so it is timed at the day's
    # last second (the page, on the test's clock, times it at 15:30)
    assert "на 04.03 20:59" in again["body"] and "Кума — 1: " in again["body"] and "Аскон — 1: " in again["body"]
    assert "«Кума» — аннулирован ведущим" in again["body"]
    assert counted(store) == {"Аскон": ("Кума", posts["Аскон"], None), "Robozik": ("Аскон", posts["Robozik"], None)}
    assert ("gosha100", "Кума", "annulled", posts["gosha100"], "") in not_counted(store)
    assert server.board.posts[int(posts["gosha100"])].bbcode == "[color=blue]Кума[/color]"   # the post as it was
    [(actor, detail)] = audited(store, "vote.annul")
    assert actor == "ведущий" and (detail["player"], detail["correction"]) == ("gosha100", "vote-1")
    assert detail["replaced"] == [{"post_id": posts["gosha100"], "text": "Кума", "counted": True, "target": "Кума"}]
    assert (detail["redrafted"], detail["kept_edited"]) == ([[first["id"], again["id"]]], [])
    # counted again from the thread: the annulment stays, and the interval is not drafted a third time
    tick_at(daemon, clock, msk(4, 16))
    assert "gosha100" not in counted(store) and [d["id"] for d in running(store)] == [again["id"]]

    # the new count goes out; the next one is drafted, and the host edits it
    store.approve(again["id"], by="host")
    assert list(publish_approved(daemon.forum, store, clock.now()).sent) == [again["id"]]
    tick_at(daemon, clock, msk(4, 18, 5))
    [second] = [d for d in running(store) if d["status"] == "pending"]
    edited = second["body"] + "\nВедущий: осталось три часа, голосуйте!"
    store.edit_draft(second["id"], edited, by="host")

    # correcting again reverses the annulment, as it replaces any correction
    clock.moment = msk(4, 18, 30)
    assert cli(config, "correct", GAME, "day-2", "gosha100", stdin="Кума", monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert "gosha100's thread vote is now the host's vote-2: Кума" in out
    assert "replaces the earlier annulment vote-1" in out
    assert (f"vote count draft {second['id']} has your edits, so it is left as you wrote it: it counts the votes "
            "as they were before this correction") in out
    assert "  -Кума — 1: " in out and "  +Кума — 2: " in out and "  -Ведущий: осталось три часа, голосуйте!" in out
    assert f"edit it (forumgm drafts --config {config} edit {second['id']}) or reject it" in out
    assert (store.draft(second["id"])["body"], store.draft(second["id"])["status"]) == (edited, "pending")
    assert [d["id"] for d in running(store)] == [again["id"], second["id"]]
    assert store.draft(again["id"])["status"] == "sent"          # the posted count stays as posted
    assert len(host_posts(server, "аннулирован ведущим")) == 1
    assert counted(store)["gosha100"] == ("Кума", None, "ведущий")
    [(_, detail)] = audited(store, "vote.correct")
    assert (detail["redrafted"], detail["kept_edited"]) == ([], [second["id"]])
    assert detail["replaced"][-1] == {"correction": "vote-1", "text": "", "annulled": True, "entered_by": "ведущий"}


def test_an_annulled_vote_of_a_resolved_day_counts_when_it_is_re_run(day_two_resolved, monkeypatch, capsys):
    server, clock, config, daemon, posts = day_two_resolved
    store = daemon.store
    assert cli(config, "correct", GAME, "day-2", "gosha100", "--annul", monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert "day-2 is resolved: the correction counts once it is re-run" in out
    assert counted(store)["gosha100"] == ("Кума", posts["gosha100"], None)    # the resolved count stands till re-run

    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--yes", monkeypatch=monkeypatch) == 0
    assert "gosha100" not in counted(store)
    lynch = draft_body(store, "lynch_report")
    assert "Кума — 1: " in lynch and "Аскон — 1: " in lynch and "gosha100[/url]: «Кума» — аннулирован ведущим" in lynch
    assert "Голоса разделились поровну — Линч не состоялся." in lynch and "Линчеван" not in lynch


def test_an_annulment_is_for_a_thread_vote_and_takes_no_text(day_two, monkeypatch, capsys):
    server, clock, config, daemon, posts = day_two
    store = daemon.store
    assert cli(config, "correct", GAME, "night-2", "Аскон", "--annul", monkeypatch=monkeypatch) == 1
    assert ("в фазе «ночь 2» в теме не голосуют, аннулировать нечего: исправьте приказы игрока, вписав то, "
            "что он должен был прислать") in capsys.readouterr().err
    assert main_with_file(config, tmp := config.parent / "vote.txt") == 2
    assert f"--annul takes no text; leave out {tmp}" in capsys.readouterr().err
    assert store.vote_corrections(GAME, superseded=True) == [] and audited(store, "vote.annul") == []


def test_the_vote_of_a_player_out_of_the_game_cannot_be_annulled(day_two_resolved, monkeypatch, capsys):
    server, clock, config, daemon, posts = day_two_resolved
    assert tick_at(daemon, clock, msk(5, 10, 5)).resolved == [f"{GAME}/night-3"]     # day 3 is open; Кума is out
    assert cli(config, "correct", GAME, "day-3", "Кума", "--annul", monkeypatch=monkeypatch) == 1
    assert ("игрок Кума не голосует в фазе «день 3» (вне игры или в этот день не среди голосующих): "
            "аннулировать нечего") in capsys.readouterr().err
    assert cli(config, "correct", GAME, "day-3", "Robozik", "--annul", monkeypatch=monkeypatch) == 0
    assert "replaces nothing: he had not voted; a vote he posts later does not count either" in capsys.readouterr().out
    assert [row["voter"] for row in daemon.store.vote_corrections(GAME)] == ["Robozik"]
    clock.moment = msk(5, 13)
    post = Player(server, clock, "Robozik").post("Голосую за [color=blue]Аскона[/color]")
    tick_at(daemon, clock, msk(5, 13, 5))
    [vote] = [v for v in daemon.store.votes(GAME, "day-3") if v["voter"] == "Robozik"]
    assert (vote["counted"], vote["text"], vote["reason"], vote["post_id"]) == (0, "Аскона", "annulled", post)


def main_with_file(config, path) -> int:
    from forumgm.daemon.cli import main

    path.write_text("Аскон", encoding="utf-8")
    return main(["correct", "--config", str(config), GAME, "day-2", "Кума", str(path), "--annul"])


def test_the_host_annuls_a_thread_vote_on_his_page_and_his_edited_count_is_kept(day_two, page):
    server, clock, config, daemon, posts = day_two
    tick_at(daemon, clock, msk(4, 15, 5))
    [count] = running(daemon.store)
    edited = count["body"] + "\nВедущий: не забудьте проголосовать."
    daemon.store.edit_draft(count["id"], edited, by="host")
    with hosts_page(daemon) as (store, base):
        clock.moment = msk(4, 15, 30)
        log_in(page, base, PASSWORD)
        page.goto(f"{base}/games/{GAME}")
        form = page.locator("form#correct")
        form.locator("select[name=phase]").select_option("day-2")
        form.locator("select[name=nick]").select_option("gosha100")
        form.get_by_role("button", name="Аннулировать голос").click()      # no text needed
        expect(page.locator(".flash.ok")).to_have_text(
            "Голос игрока gosha100 (день 2) аннулирован: его голос в теме не засчитывается.")
        expect(page.locator(".flash.error")).to_have_text(
            f"Черновик подсчёта голосов №{count['id']} вы правили, поэтому он оставлен как есть и считает голоса "
            "без этого исправления: поправьте или отклоните его (следующий подсчёт покажет изменение).")
        expect(page.locator("table.tally tr").nth(1).locator("td")).to_have_text(["Аскон", "1", "Robozik"])
        expect(page.locator("table.discarded tr", has_text="gosha100").locator("td")).to_have_text(
            ["gosha100", "Кума", "аннулирован ведущим"])
        expect(page.locator("table.vote-corrections tr").nth(1).locator("td")).to_have_text(
            ["день 2", "gosha100", "аннулирован", "Ведущий, 04.03.2026 15:30 (МСК) (исправление №1)",
             "действует; сообщения игрока остаются как были"])
        assert (store.draft(count["id"])["body"], store.draft(count["id"])["status"]) == (edited, "pending")
        assert [actor for actor, _ in audited(store, "vote.annul")] == ["host"]
        assert server.board.posts[int(posts["gosha100"])].bbcode == "[color=blue]Кума[/color]"
