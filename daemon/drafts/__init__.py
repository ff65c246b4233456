"""What goes out: every draft made by one function that applies [approval] (compose.py), the pictures
they carry, and publishing each approved draft at most once."""
