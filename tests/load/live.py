"""``python -m tests.load.live`` runs ``python -m benchmarks.live`` (see __init__)."""

import sys

from benchmarks.live import main

if __name__ == "__main__":
    sys.exit(main())
