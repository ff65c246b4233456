"""The sign-up list for the host: who joined in the game thread, as a draft he never has posted.

While a game's config says `players = []` the daemon deals nothing and only syncs its thread;
`forumgm signup` reads the stored posts with parsers/signup.read_signup and drafts the proposed
list (kind "signup", addressed to the host, always waiting for his approval). The host then
writes the players into the game config and restarts the daemon, which deals the roles.
"""
from __future__ import annotations

from datetime import datetime

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.store.posts import stored_posts
from forumgm.parsers.signup import SignupList, read_signup

KIND = "signup"
TEMPLATE = "common/signup.j2"


def propose_players(store, game_id: str, host: str, until: datetime | None = None) -> SignupList:
    return read_signup(stored_posts(store, game_id), host=host, until=until)


def draft_signup(store, game_id: str, host: str, texts, until: datetime | None = None) -> tuple[SignupList, int]:
    """The proposal as a pending draft to the host; a newer proposal supersedes an older pending one."""
    proposal = propose_players(store, game_id, host, until)
    body = texts.render(TEMPLATE, players=list(proposal.players),
                        entries=[{"post": e.post_id, "author": e.author, "join": e.action == "join"}
                                 for e in proposal.entries])
    with store.transaction():
        for old in store.drafts(status="pending", game_id=game_id):
            if old["kind"] == KIND:
                store.supersede(old["id"])
        draft_id = draft(store, game_id, KIND, host, body, subject="Список записавшихся")
    return proposal, draft_id
