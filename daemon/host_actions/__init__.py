"""What the host does to a running game, each one function that the `forumgm` sub-command and the
web page both call, and each written to the audit log with who, when and what it replaced:
correct an order, re-run a phase, move a deadline, pause and resume, replace a player.
"""
