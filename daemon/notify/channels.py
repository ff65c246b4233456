"""The two ways a notice reaches the host: a PM to his personal forum account, and e-mail over SMTP
with TLS (STARTTLS on the submission port, or TLS from the first byte)."""
from __future__ import annotations

import logging
import smtplib
import ssl
from email.message import EmailMessage

from forumgm.daemon.forum.errors import Accepted, ForumError, MaybeSent
from forumgm.daemon.settings.notify import NotifyConfig

SMTP_TIMEOUT = 30
log = logging.getLogger(__name__)


def send_pm(forum, config: NotifyConfig, subject: str, body: str) -> str | None:
    """Send the notice to the host's personal account; the id of the copy it leaves in the account's
    sent folder, for sent_copies.py to delete in time (None: not found; the notice went all the same).
    A PM whose answer was lost (MaybeSent) is looked for in the sent folder as publish.py looks for a
    draft's: found, it went; not found, MaybeSent stands and the next tick sends the notice again."""
    before = forum.newest_sent_pm()
    try:
        return forum.send_pm(config.pm_to, subject, body)
    except MaybeSent:
        found = forum.find_sent_pm(config.pm_to, subject, body, after=before)
        if found is None:
            raise
        return found
    except Accepted:   # taken, only not named (MyBB, SMF): delivered, never to be sent again
        try:
            return forum.find_sent_pm(config.pm_to, subject, body, after=before)
        except ForumError as error:
            log.warning("notify: the copy of the PM to the host was not found in the sent folder: %s", error)
            return None


def send_email(config: NotifyConfig, password: str, subject: str, body: str) -> None:
    message = EmailMessage()
    message["From"] = config.email_from
    message["To"] = ", ".join(config.email_to)
    message["Subject"] = subject
    message.set_content(body)
    context = ssl.create_default_context(cafile=str(config.smtp_ca_file) if config.smtp_ca_file else None)
    if config.smtp_tls == "ssl":
        client = smtplib.SMTP_SSL(config.smtp_host, config.smtp_port, timeout=SMTP_TIMEOUT, context=context)
    else:
        client = smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=SMTP_TIMEOUT)
    with client:
        if config.smtp_tls == "starttls":
            client.starttls(context=context)     # refuses to go on in clear text when the server cannot
        if config.smtp_user:
            client.login(config.smtp_user, password)
        client.send_message(message)
