"""What the browser tests do on the host's page (the browser itself: conftest.py's `page`)."""
from __future__ import annotations


def log_in(page, base, password):
    page.goto(f"{base}/login")
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")


def submit_correction(page, phase: str, nick: str, text: str) -> None:
    """The game page's correction form, filled and sent."""
    form = page.locator("form#correct")
    form.locator("select[name=phase]").select_option(phase)
    form.locator("select[name=nick]").select_option(nick)
    form.locator("textarea[name=text]").fill(text)
    form.get_by_role("button", name="Исправить").click()
