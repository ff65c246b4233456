"""`forumgm web --config FILE`: where the host's password comes from, and refusing to start without one."""
from __future__ import annotations

import os

from forumgm.daemon.cli import main

INSTALLATION = """
[forum]
engine = "phpbb"
base_url = "http://127.0.0.1:1"
account = "Ведущий"
password_env = "FORUMGM_TEST_FORUM_PASSWORD"

[storage]
path = "forumgm.sqlite"

[web]
{web}
"""


def write_config(tmp_path, web: str):
    path = tmp_path / "forumgm.toml"
    path.write_text(INSTALLATION.format(web=web), encoding="utf-8")
    return path


def test_refuses_to_start_without_a_password_source(tmp_path, capsys):
    assert main(["web", "--config", str(write_config(tmp_path, 'port = 8080'))]) == 2
    assert "web.password_env or web.password_file is required" in capsys.readouterr().err


def test_refuses_an_unset_password_variable(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("FORUMGM_TEST_WEB_PASSWORD", raising=False)
    config = write_config(tmp_path, 'password_env = "FORUMGM_TEST_WEB_PASSWORD"')
    assert main(["web", "--config", str(config)]) == 2
    assert ("the environment variable FORUMGM_TEST_WEB_PASSWORD that should hold the web page's password "
            "is not set") in capsys.readouterr().err


def test_refuses_a_password_file_others_can_read(tmp_path, capsys):
    secret = tmp_path / "web-password"
    secret.write_text("s3cret-value\n", encoding="utf-8")
    os.chmod(secret, 0o644)
    config = write_config(tmp_path, f'password_file = "{secret}"')
    assert main(["web", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "chmod 600" in err and "s3cret-value" not in err


def test_refuses_a_password_shorter_than_eight_characters(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FORUMGM_TEST_WEB_PASSWORD", "seven77")
    config = write_config(tmp_path, 'password_env = "FORUMGM_TEST_WEB_PASSWORD"')
    assert main(["web", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "the web page's password: expected a password of at least 8 characters" in err and "seven77" not in err
