"""The load tools' old home, kept so the commands in issue 24 still run.

The tools moved to ``benchmarks/`` (issue 23, item 8) because they are not
tests; ``python -m tests.load.live`` and ``python -m tests.load.profile_move``
forward to them. pytest collects nothing here (no ``test_*.py``).
"""
