"""``python -m gameai`` is the same as the ``gameai`` command."""

import sys

from gameai.cli import main

sys.exit(main())
