"""Telling the host when he is needed: a Mafia game on the local forum over HTTP, the host's personal
forum account for the PMs and a local SMTP server (aiosmtpd, STARTTLS with a test certificate,
login) for the e-mails; each event once, one message per quiet period; the [notify] table checked."""
from __future__ import annotations

import socket
import ssl
from email import message_from_bytes
from email.policy import default as email_policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from forumgm.daemon.cli import main
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import ConfigError
from forumgm.daemon.notify.notifier import notifier_for
from localforum_support import msk
from test_e2e_mafia import GAME, ROUND_1, Table, mafia_installation

TLS = Path(__file__).parent / "fixtures" / "tls"
PERSONAL, PERSONAL_PASSWORD = "Ведущий-личный", "личный пароль"
SMTP_USER, SMTP_PASSWORD = "forumgm", "smtp-secret"


class Mailbox:
    def __init__(self) -> None:
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(message_from_bytes(envelope.content, policy=email_policy))
        return "250 OK"


def _login(server, session, envelope, mechanism, auth_data) -> AuthResult:
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == \
        (SMTP_USER.encode(), SMTP_PASSWORD.encode())
    return AuthResult(success=ok)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp():
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(TLS / "cert.pem", TLS / "key.pem")
    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=free_port(), tls_context=context,
                            require_starttls=True, authenticator=_login, auth_require_tls=True)
    controller.start()
    yield mailbox, controller.port
    controller.stop()


def notify_section(port: int, **extra) -> str:
    lines = {"channels": '["pm", "email"]', "pm_to": f'"{PERSONAL}"', "email_to": '["host@example.org"]',
             "email_from": '"forumgm@example.org"', "smtp_host": '"127.0.0.1"', "smtp_port": str(port),
             "smtp_user": f'"{SMTP_USER}"', "password_env": '"FORUMGM_SMTP_PASSWORD"',
             "smtp_ca_file": f'"{TLS / "cert.pem"}"', "deadline_hours": "3", "quiet_minutes": "30", **extra}
    return "\n[notify]\n" + "".join(f"{key} = {value}\n" for key, value in lines.items())


@pytest.fixture
def table(tmp_path, monkeypatch, smtp):
    """The e2e Mafia table with a [notify] table in its installation and the host's personal account."""
    _mailbox, port = smtp
    monkeypatch.setenv("FORUMGM_SMTP_PASSWORD", SMTP_PASSWORD)
    table = Table(tmp_path, monkeypatch, more=notify_section(port))
    table.server.board.add_user(PERSONAL, PERSONAL_PASSWORD)
    table.players[PERSONAL] = table.session(PERSONAL, PERSONAL_PASSWORD)
    yield table
    table.close()


def told(table: Table) -> list[str]:
    """The notices in the host's personal inbox, oldest first."""
    return [message.text for message in reversed(table.inbox(PERSONAL))]


def test_the_host_is_told_each_event_once_by_pm_and_email(table, smtp):
    mailbox, _port = smtp
    table.tick(msk(2, 22))                  # the deal: eight role PMs and the commitment post wait for the host
    [pm] = told(table)
    [mail] = mailbox.messages
    assert "Черновики ждут решения (9):" in pm and pm.count("ЛС") >= 8
    assert mail["Subject"] == "forumgm: нужен ведущий (9)" and mail["To"] == "host@example.org"
    assert "Черновики ждут решения (9):" in mail.get_content()

    table.tick(msk(2, 22, 5))               # the same drafts: not told again
    table.approve()
    table.tick(msk(2, 22, 40))              # approved and sent: nothing to tell
    assert len(told(table)) == 1 and len(mailbox.messages) == 1

    table.send(ROUND_1)                     # everyone but Ива sends a day vote
    table.tick(msk(3, 20))                  # 2 h 45 min before the deadline
    assert len(told(table)) == 2
    assert "Скоро дедлайн, не всё прислано:" in told(table)[-1]
    assert f"{GAME}, круг 1 — дедлайн 03.03 22:45 (МСК); ничего не прислали: Ива" in told(table)[-1]
    assert "(mafia-e2e, роль, ЛС" in told(table)[0]          # the drafts by the page's names of their kinds

    stranger = table.store.insert_draft(GAME, "warning", "Незнакомец", "Предупреждение", "round-1", False)
    table.tick(msk(3, 20, 10))              # the forum refuses the PM; the quiet period holds the news back
    assert table.store.draft(stranger)["send_error"]
    table.tick(msk(3, 20, 25))
    assert len(told(table)) == 2
    table.tick(msk(3, 20, 31))              # quiet period over: one message with everything new
    assert len(told(table)) == 3 and len(mailbox.messages) == 3
    latest = told(table)[-1]
    assert "Форум не принял:" in latest and "черновик №" in latest and "Незнакомец" in latest
    assert "Скоро дедлайн" not in latest     # told already
    assert latest == mailbox.messages[-1].get_content().strip()

    table.server.stop()                     # the forum is down: the game stops, and only the e-mail gets through
    table.at(msk(3, 21, 5))
    table.daemon.tick()
    assert table.store.game(GAME)["problem"]
    assert len(mailbox.messages) == 4
    stopped = mailbox.messages[-1].get_content()
    assert "Игра остановлена:" in stopped
    assert f"• {GAME} — Игра остановлена: форум или движок игры дали сбой (с 03.03 21:05):" in stopped


def test_a_channel_that_fails_does_not_lose_the_event(table, smtp):
    mailbox, _port = smtp
    table.server.board.users.pop(next(uid for uid, user in table.server.board.users.items() if user.name == PERSONAL))
    table.tick(msk(2, 22))                  # the personal account is gone: the e-mail still tells the host
    assert len(mailbox.messages) == 1
    assert table.daemon.notifier.run(table.store, table.host, table.daemon.games, msk(2, 23)) == []


def test_when_every_channel_fails_the_next_tick_tries_again(table, smtp, monkeypatch):
    mailbox, _port = smtp
    notifier = table.daemon.notifier
    monkeypatch.setattr(notifier, "config", type(notifier.config)(**{**notifier.config.__dict__,
                                                                     "smtp_port": free_port(), "pm_to": "Никто"}))
    table.tick(msk(2, 22))
    assert mailbox.messages == [] and table.store.notified_keys() == set()
    monkeypatch.undo()
    table.tick(msk(2, 22, 1))
    assert len(mailbox.messages) == 1 and len(told(table)) == 1


@pytest.mark.parametrize("extra, problem", [
    ({"pm_to": '"Ведущий"'}, "notify.pm_to: expected another account than forum.account"),
    ({"channels": '["sms"]'}, "notify.channels: expected an array of channels (pm, email)"),
    ({"smtp_tls": '"none"'}, "notify.smtp_tls: expected one of"),
    ({"deadline_hours": "0"}, "notify.deadline_hours: expected a number of hours above 0"),
    ({"smtp_ca_file": '"/nonexistent/ca.pem"'}, "notify.smtp_ca_file: expected an existing file"),
    ({"sound": "true"}, "notify.sound: unknown key"),
])
def test_check_config_names_each_notify_problem(tmp_path, monkeypatch, capsys, extra, problem):
    monkeypatch.setenv("FORUMGM_E2E_PASSWORD", "x")
    mafia_installation(tmp_path, "http://127.0.0.1:1/", more=notify_section(25, **extra))
    assert main(["check-config", str(tmp_path / "forumgm.toml")]) != 0
    assert problem in capsys.readouterr().err
    with pytest.raises(ConfigError):
        load_installation(tmp_path / "forumgm.toml")


def test_the_example_notify_table_passes_check_config(tmp_path, monkeypatch, capsys):
    from forumgm.config import data_path

    text = data_path("forumgm.example.toml").read_text(encoding="utf-8")
    start = text.index("# [notify]")
    enabled = text[:start] + "\n".join(line.removeprefix("# ") for line in text[start:].splitlines()
                                        if line.startswith("# ")) + "\n"
    for name in ("games",):
        (tmp_path / name).mkdir()
        for game in ("mafia.example.toml", "legends.example.toml"):
            (tmp_path / name / game).write_text(data_path("games", game).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "forumgm.toml").write_text(enabled, encoding="utf-8")
    installation = load_installation(tmp_path / "forumgm.toml")
    assert installation.notify.channels == ("pm", "email") and installation.notify.smtp_tls == "starttls"
    assert installation.notify.pm_to == "Ведущий-личный"
    monkeypatch.setenv("FORUMGM_SMTP_PASSWORD", "s")
    assert notifier_for(installation).password == "s"


def test_no_notify_table_no_notifier(tmp_path, monkeypatch):
    monkeypatch.setenv("FORUMGM_E2E_PASSWORD", "x")
    assert notifier_for(load_installation(mafia_installation(tmp_path, "http://127.0.0.1:1/"))) is None


def test_a_notice_pm_the_board_takes_without_naming_it_is_told_once_and_its_copy_deleted_in_time(tmp_path):
    """MyBB and SMF answer a sent PM without its id (Accepted): the host got the notice, and the next
    tick must not send it again (it did, every tick, while the board's answer counted as a failure).
    Its copy in the account's sent folder is found, and deleted like a draft's once the quota presses."""
    from forum_http_board import BoardServer, FixtureBoard
    from forum_http_sites import MYBB_SENT_85 as MYBB
    from forumgm.daemon.drafts.publish import publish_approved
    from forumgm.config import load_texts
    from forumgm.daemon.forum import open_forum
    from forumgm.daemon.settings.notify import NotifyConfig
    from forumgm.daemon.notify.notifier import Notifier
    from forumgm.daemon.store import Store
    from localforum_support import HOST, FakeClock

    clock = FakeClock()
    with BoardServer(FixtureBoard(MYBB, password="host-secret", member=HOST, members=(PERSONAL,),
                                  clock=clock.monotonic)) as server:
        forum = open_forum({"id": "main", "engine": "mybb", "base_url": server.url, "username": HOST, "timeout": 5, "retries": 0,
                            "min_interval": 0.1}, "host-secret", clock=clock.monotonic, sleep=clock.sleep, now=clock.now)
        store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
        store.register_forum("main", "mybb", server.url, HOST)
        store.register_game("g1", "mafia", "main", server.url + "showthread.php?tid=1", "UTC", 1, {"Кума": []})
        store.insert_draft("g1", "result", "Кума", "Итог", "r1", True, subject="Итог")     # waits for the host
        notifier = Notifier(NotifyConfig(channels=("pm",), pm_to=PERSONAL), "", load_texts(), "main")
        assert len(notifier.run(store, forum, [], clock.now())) == 1
        clock.sleep(notifier.config.quiet.total_seconds() + 60)
        assert notifier.run(store, forum, [], clock.now()) == []
        [notice] = server.board.pms
        assert notice.fields["to"] == PERSONAL and store.sent_copies("main", None, 10) == [notice.id]
        store.insert_draft("g1", "result", "Кума", "Итог 2", "r2", False, subject="Итог 2")
        publish_approved(forum, store, clock.now())          # the saved page says 85 % of the quota
        assert server.board.removed == {notice.id: "deleted"} and store.sent_copies("main", None, 10) == []
