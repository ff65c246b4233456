"""Secrets: read from the environment or an owner-only file, redacted from every log line."""
import logging
import os

import pytest

from forumgm.daemon.secrets import RedactingFilter, SecretError, Secrets, read_password


def test_password_from_environment(monkeypatch):
    monkeypatch.setenv("FORUMGM_TEST_PW", "hunter2")
    assert read_password("FORUMGM_TEST_PW", None) == "hunter2"
    monkeypatch.delenv("FORUMGM_TEST_PW")
    with pytest.raises(SecretError, match="FORUMGM_TEST_PW"):
        read_password("FORUMGM_TEST_PW", None)


def test_password_file_must_be_owner_only(tmp_path):
    path = tmp_path / "pw"
    path.write_text("hunter2\n")
    os.chmod(path, 0o640)
    with pytest.raises(SecretError, match="0640"):
        read_password(None, path)
    os.chmod(path, 0o600)
    assert read_password(None, path) == "hunter2"


def test_log_lines_never_show_the_password(caplog):
    logger = logging.getLogger("forumgm.test.secrets")
    secret_filter = RedactingFilter(Secrets(password="hunter2"))
    caplog.handler.addFilter(secret_filter)
    try:
        logger.warning("login failed for %s with %s", "host", "hunter2")
        try:
            raise RuntimeError("form said password=hunter2")
        except RuntimeError:
            logger.exception("post failed")
    finally:
        caplog.handler.removeFilter(secret_filter)
    assert "hunter2" not in caplog.text
    assert "login failed for host with ***" in caplog.text
    assert "password=***" in caplog.text
    assert "***" in repr(Secrets(password="hunter2")) and "hunter2" not in repr(Secrets(password="hunter2"))


def test_debug_logging_leaves_out_urllib3s_request_lines_with_the_session_id():
    import logging

    from forumgm.daemon.run import configure_logging

    root, urllib3 = logging.getLogger(), logging.getLogger("urllib3")
    before = root.level
    root.setLevel(logging.DEBUG)
    urllib3.setLevel(logging.NOTSET)
    try:
        configure_logging("DEBUG")
        assert not urllib3.isEnabledFor(logging.DEBUG)     # "POST /ucp.php?mode=login&sid=…" is a DEBUG line
        assert logging.getLogger("forumgm.daemon.sync").isEnabledFor(logging.DEBUG)
    finally:
        root.setLevel(before)
        urllib3.setLevel(logging.NOTSET)


def test_an_empty_password_file_is_refused(tmp_path):
    path = tmp_path / "pw"
    path.write_text(" \n")
    os.chmod(path, 0o600)
    with pytest.raises(SecretError, match=f"{path}: password file: expected a file holding the password"):
        read_password(None, path)
