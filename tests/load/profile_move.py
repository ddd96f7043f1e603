"""``python -m tests.load.profile_move`` runs ``python -m benchmarks.profile_move`` (see __init__)."""

import sys

from benchmarks.profile_move import main

if __name__ == "__main__":
    sys.exit(main())
