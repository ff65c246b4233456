"""What goes out: drafts as the host approves them, the pictures they carry, and publishing each
approved draft at most once."""
