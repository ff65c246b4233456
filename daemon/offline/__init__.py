"""What never runs in production: `forumgm simulate` (the rules lab), the demo, and the local forum
they and the tests play on."""
