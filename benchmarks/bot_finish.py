"""The cost of one simulated finish of a hand, the hard bot's unit of bidding search.

    PYTHONPATH=. .venv/bin/python benchmarks/bot_finish.py [--no-solver]

From 300-odd seeded bidding positions (bid1, bid2, the pick-up, the
maker's choice) it samples deals as the hard bot does and times
`hard._finish` (the candidate, the rest of the auction by the rule-based
policy, the play solved), best of five runs in CPU time (process time: the
machine's other load counts little). `--no-solver` replaces the solver by a
constant, leaving the auction's cost alone. It runs on whichever `games/`
is first on the path, so a git revision's bot can be timed the same way:

    git archive c00a88c games | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old .venv/bin/python benchmarks/bot_finish.py
"""

from __future__ import annotations

import argparse
import inspect
import random
import time
from typing import Any

from games.bots import hard
from games.bots.common import Knowledge
from games.engine import Action, Rules, apply, legal_actions, new_hand, view


def jobs(n: int = 300) -> list[tuple[Any, Any, Any]]:
    rng = random.Random(1)
    # The engine-driven search takes the table's Rules and engine Actions;
    # the revisions before it took neither.
    engine_driven = len(inspect.signature(hard._bid_world).parameters) == 3
    out: list[tuple[Any, Any, Any]] = []
    while len(out) < n:
        s = new_hand(Rules(), rng.randrange(3), rng)
        while s.phase.value in ("bid1", "bid2", "dealer_pickup") and rng.random() < 0.6:
            acts = legal_actions(s)
            s = apply(s, acts[rng.randrange(len(acts))])
        if s.phase.value not in ("bid1", "bid2", "dealer_pickup", "maker_choice"):
            continue
        k = Knowledge.from_view(view(s, s.to_act))
        for j in range(4):
            if engine_driven:
                w = hard._bid_world(k, random.Random(j), hard._rules(k))
            else:
                w = hard._bid_world(k, random.Random(j))  # type: ignore[call-arg]
            if w is None:
                continue
            for a in k.legal[:3]:
                if engine_driven and not isinstance(a, Action):
                    a = Action.from_dict(a)
                out.append((k, w, a))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--no-solver", action="store_true", help="time the auction alone")
    args = p.parse_args()
    if args.no_solver:
        hard.solve_bucket = lambda *a, **k: 3  # type: ignore[assignment]
    todo = jobs()
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for k, w, a in todo:
            w.rng = random.Random(7)
            hard._finish(k, w, a)
        best = min(best, (time.process_time() - t0) / len(todo))
    print(f"{len(todo)} finishes, best of 5: {best * 1e6:.0f} us of CPU a finish")


if __name__ == "__main__":
    main()
