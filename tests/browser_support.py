"""What the browser tests do on the host's page (the browser itself: conftest.py's `page`)."""
from __future__ import annotations

import contextlib


def log_in(page, base, password):
    page.goto(f"{base}/login")
    send_password(page, password)


def send_password(page, password) -> None:
    """The login page now shown, its form filled and sent."""
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")


def submit_correction(page, phase: str, nick: str, text: str) -> None:
    """The game page's correction form, filled and sent."""
    form = page.locator("form#correct")
    form.locator("select[name=phase]").select_option(phase)
    form.locator("select[name=nick]").select_option(nick)
    form.locator("textarea[name=text]").fill(text)
    form.get_by_role("button", name="Исправить").click()


@contextlib.contextmanager
def fresh_page(context, width: int | None = None):
    """A page of its own in the shared `context`, no cookie left by a test before (no session of the
    host's page or the board), `width` px wide if given; closed after, with any tab it opened."""
    context.clear_cookies()
    opened = context.new_page()
    if width is not None:
        opened.set_viewport_size({"width": width, "height": opened.viewport_size["height"]})
    try:
        yield opened
    finally:
        for tab in context.pages:
            tab.close()
        context.clear_cookies()
