"""`python -m mtrain.spec.distinguish`: see the package's docstring."""

import sys

from mtrain.spec.distinguish import main

sys.exit(main())
