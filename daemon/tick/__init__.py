"""What the daemon does on its own each tick (flow.py orders it): sync the forum, read orders and
votes, remind before deadlines, resolve due phases, stop, finish, and the game clock they share."""
