"""Keeping the host's account usable over a long game: whether the inbox needs reading, stored PMs
leaving the inbox, forumgm's sent copies leaving the sent folder."""
