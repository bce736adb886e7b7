"""Dies before reading anything, with a message on stderr."""

import sys

sys.stderr.write("fatal: cannot load the rule tables\n")
sys.exit(3)
