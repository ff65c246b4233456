"""The game's record anyone can check: the commitment to its seed, salt and rules made at the deal,
its archive (`forumgm export`), and the replay that checks an archive (`forumgm verify`)."""
