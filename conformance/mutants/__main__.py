"""`python -m mtrain.conformance.mutants`: the same as `mtrain mutants`."""

import sys

from .command import main

sys.exit(main())
