"""Shared facts about the real-forum fixture threads (tests/fixtures/forums/<engine>/README.md)."""
from datetime import datetime, timezone
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "forums"
# The fixtures were captured on 2026-11-30 shortly after the posts were written (account timezone UTC).
CAPTURED = datetime(2026, 11, 30, 4, 45, tzinfo=timezone.utc)


def page(engine: str, name: str) -> str:
    return (FIXTURES / engine / f"{name}.html").read_text(encoding="utf-8")
