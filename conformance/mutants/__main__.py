"""`python -m mtrain.conformance.mutants`: the same as `mtrain mutants`."""

import sys

from mtrain.conformance.mutants.command import main

sys.exit(main())
