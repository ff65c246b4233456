"""A sign-up by choices (Bellum's factions): read the posts, answer the bad ones, propose the
optimal assignment, and on the host's approval write the players into the game.

`forumgm signup` calls `draft_assignment` for a game whose engine offers choices
(`Rules.signup_choices`). It drafts, for the host to edit and approve:
- a reply in the thread to every sign-up post that names fewer than MIN_CHOICES choices or an
  unknown one (kind "signup_reply", one per post);
- the assignment (kind "signup_assignment", for the thread): one line «ник — фракция» a player,
  then the better choices each player missed and who got them.
Approving the assignment posts it and writes its lines — as the host left them — into the
game's file as [[players]] with nick (the account's own name, not as escaped for the post) and
role (`approve_assignment`).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Sequence

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.settings.setup_files import game_setup
from forumgm.daemon.store.drafts import STATUS_LABELS
from forumgm.daemon.store.posts import stored_posts
from forumgm.engines.assignment import Assignment, Wish, assign
from forumgm.engines.texts import escape_bbcode
from forumgm.parsers.signup import LEAVE, post_action
from forumgm.parsers.signup_choices import ChoiceNames, ChoicePost, read_choices

KIND = "signup_assignment"
REPLY_KIND = "signup_reply"
TEMPLATE = "common/signup_assignment.j2"
REPLY_TEMPLATE = "common/signup_reply.j2"
MIN_CHOICES = 3
HEADER = "Распределение фракций"
# «Ник — Фракция» or «Ник — Фракция (2-й выбор)»; the host may edit these lines before approving.
_LINE = re.compile(r"^\s*(?P<nick>\S.*?)\s+[—–-]\s+(?P<choice>\S.*?)(?:\s+\(\d+-[йя] выбор\))?\s*$")


@dataclass(frozen=True)
class SignupPost:
    post_id: str
    author: str
    at: datetime | None
    read: ChoicePost

    @property
    def problem(self) -> bool:
        return bool(self.read.unknown) or len(self.read.choices) < MIN_CHOICES


@dataclass(frozen=True)
class Proposal:
    posts: tuple[SignupPost, ...]           # every sign-up post read, in thread order
    wishes: tuple[Wish, ...]                # the valid lists, in sign-up order
    assignment: Assignment


def read_signup_posts(posts, names: ChoiceNames, host: str | None, until: datetime | None = None) -> Proposal:
    """Each player's latest valid list counts, in the order players first signed up; a
    withdrawal removes him; a post with a problem leaves his earlier valid list in place."""
    read: list[SignupPost] = []
    lists: dict[str, tuple[str, ...]] = {}
    order: list[str] = []
    for post in posts:
        if post.author == host or (until is not None and post.posted_at is not None and post.posted_at > until):
            continue
        text = post.text_unquoted or post.text
        if post_action(text) == LEAVE:
            lists.pop(post.author, None)
            continue
        choices = read_choices(text, names)
        if not choices.choices and not choices.unknown and post_action(text) is None:
            continue                       # chatter, not a sign-up
        entry = SignupPost(post.id, post.author, post.posted_at, choices)
        read.append(entry)
        if not entry.problem:
            lists[post.author] = choices.choices
            if post.author not in order:
                order.append(post.author)
    wishes = tuple(Wish(player, lists[player]) for player in order if player in lists)
    return Proposal(tuple(read), wishes, assign(wishes, list(names.ids.values())))


def draft_assignment(store, game_id: str, host: str, texts, names: ChoiceNames,
                     until: datetime | None = None) -> tuple[Proposal, int]:
    proposal = read_signup_posts(stored_posts(store, game_id), names, host, until)
    body = texts.render(TEMPLATE, header=HEADER, rows=_rows(proposal, names),
                        unlisted=[w.player for w in proposal.wishes if proposal.assignment.given[w.player] is None])
    with store.transaction():
        for old in store.drafts(status="pending", game_id=game_id):
            if old["kind"] == KIND:
                store.supersede(old["id"])
        for post in proposal.posts:
            if post.problem:
                draft(store, game_id, REPLY_KIND, "thread", _reply(texts, post, names),
                      ref=f"{REPLY_KIND}:{post.post_id}")
        draft_id = draft(store, game_id, KIND, "thread", body)
    return proposal, draft_id


def _rows(proposal: Proposal, names: ChoiceNames) -> list[dict]:
    rows = []
    for wish in proposal.wishes:
        given = proposal.assignment.given[wish.player]
        rows.append({
            "nick": wish.player,
            "choice": names.name_of(given) if given else None,
            "rank": proposal.assignment.rank[wish.player],
            "missed": [{"choice": names.name_of(m.choice), "taken_by": m.taken_by}
                       for m in proposal.assignment.missed[wish.player]],
        })
    return rows


def _reply(texts, post: SignupPost, names: ChoiceNames) -> str:
    return texts.render(REPLY_TEMPLATE, nick=post.author, minimum=MIN_CHOICES,
                        named=[names.name_of(c) for c in post.read.choices],
                        unknown=[{"text": u.text, "nearest": list(u.nearest)} for u in post.read.unknown])


# ---------------------------------------------------------------- approval

class AssignmentError(ValueError):
    pass


def assignment_lines(body: str, names: ChoiceNames) -> list[tuple[str, str]]:
    """(nick, choice id) of each line of the (possibly edited) assignment, or every problem."""
    lines = body.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(HEADER)), None)
    if start is None:
        raise AssignmentError(f"в тексте больше нет строки «{HEADER}»: верните её, под ней — строки «ник — фракция»")
    pairs, problems, seen = [], [], {}
    for number, line in enumerate(lines[start + 1:], start + 2):
        if not line.strip():
            break
        match = _LINE.match(line)
        if match is None:
            problems.append(f"строка {number}: нужно «ник — фракция», а написано «{line.strip()}»")
            continue
        nick, written = match["nick"], match["choice"]
        choice = _choice_id(written, names)
        if choice is None:
            problems.append(f"строка {number}: фракции «{written}» в этой игре нет")
        elif choice in seen:
            problems.append(f"строка {number}: фракция «{names.name_of(choice)}» уже отдана выше "
                            f"(игрок {seen[choice]})")
        else:
            seen[choice] = nick
            pairs.append((nick, choice))
    if problems:
        raise AssignmentError("; ".join(problems))
    return pairs


def _choice_id(written: str, names: ChoiceNames) -> str | None:
    from forumgm.parsers.names import resolve_name

    resolution = resolve_name(written, names.roster)
    return names.ids[resolution.nick] if resolution.ok else None


def account_names(pairs: Sequence[tuple[str, str]], authors: set[str]) -> list[tuple[str, str]]:
    """Each line's nick as the player's account has it: the post shows a nick escaped (a "[" as a
    lookalike, no invisible characters), the game file needs the name his posts and PMs carry. A
    nick no sign-up post has (the host wrote another player in) stays as written."""
    shown: dict[str, str] = {}
    for author in sorted(authors):
        shown.setdefault(escape_bbcode(author), author)
    return [(nick if nick in authors else shown.get(nick, nick), choice) for nick, choice in pairs]


def write_players(game_file: Path, pairs: Sequence[tuple[str, str]]) -> None:
    """Replace the sign-up's `players = []` of a game file by [[players]] tables (nick, role)."""
    text = game_file.read_text(encoding="utf-8")
    empty = re.compile(r"^players\s*=\s*\[\s*\]\s*(#.*)?$", re.M)
    if len(empty.findall(text)) != 1:
        raise AssignmentError(f"в файле игры {game_file} должна быть ровно одна строка `players = []` "
                              "(вне таблиц): на её место записываются игроки")
    tables = "".join(f'\n[[players]]\nnick = {_toml_string(nick)}\nrole = {_toml_string(choice)}\n'
                     for nick, choice in pairs)
    updated = empty.sub("", text, count=1).rstrip("\n") + "\n" + tables
    tomllib.loads(updated)                  # never write a file the daemon could not read
    game_file.write_text(updated, encoding="utf-8")


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def choice_names(rules, game) -> ChoiceNames | None:
    """The choices a game's engine offers at its sign-up (`Rules.signup_choices`); None for a game of none."""
    offered = rules.signup_choices(game_setup(rules, game))
    return None if offered is None else ChoiceNames.of(offered)


def approve_assignment(store, game, rules, draft_id: int, by: str) -> list[tuple[str, str]]:
    """The host's approval of an assignment: its lines, as he left them, become the game file's
    players, then the draft is approved (and so posted). A wrong line changes nothing."""
    draft = store.draft(draft_id)
    if draft["status"] != "pending":
        raise AssignmentError(f"черновик №{draft_id} уже {STATUS_LABELS[draft['status']]}: он не ждёт одобрения")
    names = choice_names(rules, game)
    if names is None:
        raise AssignmentError(f"в игре «{rules.title}» при записи ничего не выбирают: распределять нечего")
    pairs = account_names(assignment_lines(draft["body"], names), {p.author for p in stored_posts(store, game.id)})
    write_players(game.source, pairs)
    store.approve(draft_id, by=by)
    store.audit(by, "signup.players", {"game": game.id, "file": str(game.source), "players": pairs})
    return pairs
