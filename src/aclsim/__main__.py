"""``python -m aclsim`` is the ``aclsim`` command."""

import sys

from aclsim.cli import main

sys.exit(main())
