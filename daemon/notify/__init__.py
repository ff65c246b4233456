"""Telling an unattended daemon's host when he is needed: drafts waiting, a deadline near with
orders or votes missing, a game stopped, a post the forum refused; by PM to his own forum account
and/or by e-mail, each event once, at most one message per quiet period."""
