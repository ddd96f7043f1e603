"""Command line: `python -m games.engine replay FILE...` and `python -m games.engine bench`."""

from .cli import main

raise SystemExit(main())
