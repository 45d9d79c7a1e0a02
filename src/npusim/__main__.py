"""``python -m npusim`` is the ``npusim`` command."""

import sys

from npusim.cli import main

sys.exit(main())
