"""Run the command line with ``python -m mtrain``."""

from mtrain.cli import main

raise SystemExit(main())
