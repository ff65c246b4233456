"""`forumgm drafts list|show|edit|approve|reject`: the host's review of outgoing texts."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from forumgm.daemon.cli.common import actor, add_by_argument, add_config_argument, known_game, open_installation
from forumgm.daemon.drafts.pictures import MARK
from forumgm.daemon.tick.signup_choices import KIND as ASSIGNMENT, AssignmentError, approve_assignment
from forumgm.engines.texts import show_invisible

ACTIONS = ("list", "show", "edit", "approve", "reject")
STATUSES = ("pending", "approved", "sending", "sent", "rejected", "superseded")   # the store's DRAFT_STATUSES


def register(subparsers) -> None:
    parser = subparsers.add_parser("drafts", help="review outgoing texts: list, show, edit, approve, reject")
    add_config_argument(parser)
    parser.add_argument("action", choices=ACTIONS)
    parser.add_argument("id", nargs="?", type=int, help="draft id (all actions but list)")
    parser.add_argument("--status", choices=STATUSES, help="list: only drafts with this status (default: pending)")
    parser.add_argument("--all", action="store_true", help="list: every status")
    parser.add_argument("--game", help="list: only this game")
    parser.add_argument("--body-file", type=Path, help="edit: the new body from this file instead of $EDITOR")
    add_by_argument(parser)


def run(args) -> int:
    from forumgm.daemon.store import StoreError

    if args.action != "list" and args.id is None:
        print(f"forumgm drafts {args.action}: a draft id is required", file=sys.stderr)
        return 2
    opened = open_installation(args.config)
    if opened is None or (args.game is not None and not known_game(opened[0], args.game, "drafts")):
        return 2
    installation, store = opened
    by = actor(args)
    try:
        if args.action == "list":
            status = None if args.all else (args.status or "pending")
            for draft in store.drafts(status=status, game_id=args.game):
                print(_line(draft))
                if draft["send_error"]:
                    print(f"{'':7}{_seen(_refusal(draft))}")
        elif args.action == "show":
            _show(store, args.id)
        elif args.action == "edit":
            body = args.body_file.read_text(encoding="utf-8") if args.body_file else _from_editor(store.draft(args.id))
            if body is None:
                print("forumgm drafts edit: body unchanged, nothing done", file=sys.stderr)
                return 1
            store.edit_draft(args.id, body, by=by)
            print(f"draft {args.id} edited; status {store.draft(args.id)['status']}")
        elif args.action == "approve" and store.draft(args.id)["kind"] == ASSIGNMENT:
            players = _approve_assignment(installation, store, args.id, by)
            print(f"draft {args.id} {store.draft(args.id)['status']}; {len(players)} player(s) written into "
                  "the game file: restart the daemon to start the game")
        else:
            getattr(store, args.action)(args.id, by=by)
            print(f"draft {args.id} {store.draft(args.id)['status']}")
    except AssignmentError as error:
        print(f"forumgm drafts approve: {error}; nothing approved (edit the draft)", file=sys.stderr)
        return 1
    except (StoreError, EditorFailed) as error:
        print(f"forumgm drafts {args.action}: {error}", file=sys.stderr)
        return 1
    return 0


class EditorFailed(Exception):
    """The editor could not be run or exited with an error: the draft stays as it was."""


def _approve_assignment(installation, store, draft_id: int, by: str) -> list:
    """A sign-up assignment's approval writes its players into the game's file."""
    from forumgm.daemon.settings.games import rules_for

    game = next(g for g in installation.games if g.id == store.draft(draft_id)["game_id"])
    return approve_assignment(store, game, rules_for(game.type, game.rules), draft_id, by)


def _line(draft: dict) -> str:
    first = draft["body"].strip().splitlines()[0] if draft["body"].strip() else ""
    return (f"{draft['id']:>5}  {draft['status']:<10} {draft['game_id']:<16} {draft['phase_key'] or '':<10} "
            f"{draft['kind']:<16} → {_seen(draft['target']):<16} {_seen(first[:60])}")


def _seen(text: str) -> str:
    """What a player may have put in a draft (his nick, his words, a forum's message), with every
    control or invisible character written as <U+XXXX>: ESC or an OSC sequence would otherwise
    act on the host's terminal (retitle it, hide lines) instead of being shown."""
    return show_invisible(text)


def _show(store, draft_id: int) -> None:
    draft = store.draft(draft_id)
    print(_line(draft))
    if draft["subject"]:
        print(f"subject: {_seen(draft['subject'])}")
    if draft["forum_ref"]:
        print(f"sent as: {draft['forum_ref']} at {draft['sent_at'].isoformat()}")
    if draft["send_error"]:
        print(_seen(_refusal(draft)))
    for path in draft["pictures"] or []:
        print(f"picture: {path} (posted where the text says {MARK})")
    print()
    print(_seen(draft["body"]))
    for edit in store.draft_edits(draft_id):
        print(f"\n(edited by {edit['edited_by']} at {edit['edited_at'].isoformat()})")


def _refusal(draft: dict) -> str:
    if draft["status"] in ("approved", "sending"):    # a failure or a flood pause, not a refusal: tried again
        return f"not published yet: {draft['send_error']} (tried again on every tick)"
    return f"the forum refused it: {draft['send_error']} (edit or approve it again)"


def _from_editor(draft: dict) -> str | None:
    """The body after $EDITOR (vi by default); None when the host left it unchanged."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as handle:
        handle.write(draft["body"])
        path = Path(handle.name)
    try:
        returncode = _edit(editor, path)
        if returncode != 0:
            raise EditorFailed(f"the editor ({editor}) exited with status {returncode}; "
                               f"draft {draft['id']} is unchanged (or use --body-file FILE)")
        body = path.read_text(encoding="utf-8")
    finally:
        path.unlink(missing_ok=True)
    return None if body == draft["body"] else body


def _edit(editor: str, path: Path) -> int:
    try:
        return subprocess.run([*shlex.split(editor), str(path)]).returncode
    except FileNotFoundError:
        raise EditorFailed(f"the editor {editor!r} was not found (set $EDITOR, or use --body-file FILE)") from None
