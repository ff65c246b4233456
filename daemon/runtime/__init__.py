"""The running daemon: the loop that ticks when the wake-up plan says, and the lock that keeps it one
per store."""
