"""Secrets: read from the environment or an owner-only file, redacted from every log line."""
import logging
import os

import pytest

from forumgm.daemon.settings.secrets import RedactingFilter, SecretError, Secrets, read_password


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


def logged_through_the_filter(caplog, password: str, *lines: str, error: str | None = None) -> str:
    logger = logging.getLogger("forumgm.test.secrets")
    secret_filter = RedactingFilter(Secrets(password=password))
    caplog.handler.addFilter(secret_filter)
    try:
        for line in lines:
            logger.warning("%s", line)
        if error:
            try:
                raise RuntimeError(error)
            except RuntimeError:
                logger.exception("post failed")
    finally:
        caplog.handler.removeFilter(secret_filter)
    return caplog.text


def test_log_lines_never_show_the_password_where_it_is_a_secret(caplog):
    text = logged_through_the_filter(
        caplog, "hunter2",
        "POST https://forum.example.org/ucp.php?mode=login body: username=host&password=hunter2&login=1",
        "form: {'username': 'host', 'password': 'hunter2'}",
        "GET https://host:hunter2@forum.example.org/index.php",
        "Authorization: Basic aG9zdDpodW50ZXIy",
        error="form said password=hunter2")
    assert "hunter2" not in text and "aG9zdDpodW50ZXIy" not in text
    assert "password=***&login=1" in text and "'password': '***'" in text and "//host:***@forum" in text
    assert "Authorization: ***" in text and "RuntimeError: form said password=***" in text
    assert "***" in repr(Secrets(password="hunter2")) and "hunter2" not in repr(Secrets(password="hunter2"))


def test_a_short_password_is_not_masked_inside_other_words(caplog):
    text = logged_through_the_filter(caplog, "x", "the PM inbox of local has 2 new messages",
                                     "body: username=host&password=x&login=1")
    assert "the PM inbox of local has 2 new messages" in text and "***" not in text.split("\n")[0]
    assert "password=***&login=1" in text


def test_an_url_encoded_password_is_masked_in_a_form_body(caplog):
    text = logged_through_the_filter(caplog, "p&ss wörd", "body: username=h&password=p%26ss+w%C3%B6rd&login=1")
    assert "password=***&login=1" in text and "p%26ss" not in text


def test_debug_logging_leaves_out_urllib3s_request_lines_with_the_session_id():
    import logging

    from forumgm.daemon.runtime.loop import configure_logging

    root, urllib3 = logging.getLogger(), logging.getLogger("urllib3")
    before = root.level
    root.setLevel(logging.DEBUG)
    urllib3.setLevel(logging.NOTSET)
    try:
        configure_logging("DEBUG")
        assert not urllib3.isEnabledFor(logging.DEBUG)     # "POST /ucp.php?mode=login&sid=…" is a DEBUG line
        assert logging.getLogger("forumgm.daemon.tick.sync").isEnabledFor(logging.DEBUG)
    finally:
        root.setLevel(before)
        urllib3.setLevel(logging.NOTSET)


def test_an_empty_password_file_is_refused(tmp_path):
    path = tmp_path / "pw"
    path.write_text(" \n")
    os.chmod(path, 0o600)
    with pytest.raises(SecretError, match=f"{path}: password file: expected a file holding the password"):
        read_password(None, path)
