"""What the host wrote: the installation and game files checked into frozen records, the game
registry with its rule tables, secrets, the files a game's [setup] names, nick checks."""
