from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from forumgm.parsers.dates import parse_forum_date

MSK = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)   # 13:00 in Moscow


@pytest.mark.parametrize("text, expected", [
    ("Сегодня, 13:59", datetime(2026, 11, 30, 13, 59, tzinfo=MSK)),
    ("Сегодня в 9:05", datetime(2026, 11, 30, 9, 5, tzinfo=MSK)),
    ("Вчера, 10:01", datetime(2026, 11, 29, 10, 1, tzinfo=MSK)),
    ("29 января 2016", datetime(2016, 1, 29, tzinfo=MSK)),
    ("29 янв 2016, 13:59", datetime(2016, 1, 29, 13, 59, tzinfo=MSK)),
    ("29.01.2016, 13:59:21", datetime(2016, 1, 29, 13, 59, 21, tzinfo=MSK)),
    ("3 марта 2025 в 0:15", datetime(2025, 3, 3, 0, 15, tzinfo=MSK)),
    ("5 минут назад", datetime(2026, 11, 30, 12, 55, tzinfo=MSK)),
    ("2 часа назад", datetime(2026, 11, 30, 11, 0, tzinfo=MSK)),
])
def test_russian_forms(text, expected):
    assert parse_forum_date(text, "Europe/Moscow", now=NOW) == expected


@pytest.mark.parametrize("text, expected", [
    ("Today at 1:59 PM", datetime(2026, 11, 30, 13, 59, tzinfo=MSK)),
    ("Yesterday, 12:05 AM", datetime(2026, 11, 29, 0, 5, tzinfo=MSK)),
    ("Today 04:31:26", datetime(2026, 11, 30, 4, 31, 26, tzinfo=MSK)),
    ("5 minutes ago", datetime(2026, 11, 30, 12, 55, tzinfo=MSK)),
    ("1 hour ago", datetime(2026, 11, 30, 12, 0, tzinfo=MSK)),
    ("Yesterday", datetime(2026, 11, 29, tzinfo=MSK)),
    ("Mon Nov 30, 2026 4:42 am", datetime(2026, 11, 30, 4, 42, tzinfo=MSK)),
    ("11-30-2026, 04:29 AM", datetime(2026, 11, 30, 4, 29, tzinfo=MSK)),
    ("Nov 30, 2026, 04:35 PM", datetime(2026, 11, 30, 16, 35, tzinfo=MSK)),
    ("2026-11-30 04:31:26", datetime(2026, 11, 30, 4, 31, 26, tzinfo=MSK)),
    ("30 November 2026 - 12:29 PM", datetime(2026, 11, 30, 12, 29, tzinfo=MSK)),
])
def test_english_forms(text, expected):
    assert parse_forum_date(text, MSK, now=NOW) == expected


def test_iso_keeps_its_own_offset():
    parsed = parse_forum_date("2026-11-30T04:42:57+00:00", MSK)
    assert parsed == datetime(2026, 11, 30, 4, 42, 57, tzinfo=timezone.utc)
    assert parse_forum_date("2026-11-30T04:42:57+0000", MSK) == parsed


def test_wall_clock_is_read_in_the_forum_timezone():
    moscow = parse_forum_date("29.01.2016, 13:59", "Europe/Moscow")
    london = parse_forum_date("29.01.2016, 13:59", "Europe/London")
    assert london - moscow == timedelta(hours=3)


def test_yearless_date_in_the_future_belongs_to_last_year():
    assert parse_forum_date("5 dec", MSK, now=NOW).year == 2025
    assert parse_forum_date("29 ноя", MSK, now=NOW).year == 2026


@pytest.mark.parametrize("text", ["Today at 1:59 PM", "Вчера, 10:01", "5 minutes ago"])
def test_relative_forms_need_now(text):
    with pytest.raises(ValueError, match="now"):
        parse_forum_date(text, MSK)


def test_unreadable_text_raises():
    with pytest.raises(ValueError):
        parse_forum_date("когда-то давно", MSK, now=NOW)
