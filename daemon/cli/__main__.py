"""`python -m forumgm.daemon.cli`: the `forumgm` command without the console script."""
import sys

from forumgm.daemon.cli import main

sys.exit(main())
