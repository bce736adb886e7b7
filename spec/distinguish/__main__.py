"""`python -m mtrain.spec.distinguish`: see the package's docstring."""

import sys

from . import main

sys.exit(main())
