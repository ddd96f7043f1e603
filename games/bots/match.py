"""Bot against bots: whole games to the target, the hero in one seat.

    python -m games.bots.match --hero hard --field medium --games 600 --seed 1

Game i seats the hero at seat i % 3 with first dealer (i // 3) % 3, so the
hero sits in every seat and meets every dealer equally often. Each game's
deals and bot randomness come from `--seed` and the game number only, so a
run is reproducible (for the hard bot: as long as no decision hits its wall
time cap, which only a very loaded machine makes it do). Games run in
`--procs` processes (default 2).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine import (
    HandState,
    Rules,
    game_apply,
    game_start_hand,
    game_view,
    new_game,
    result,
)

from . import ALL_LEVELS, choose_action


@dataclass(slots=True)
class SeatStats:
    """Counts for one side (the hero, or the field bots together)."""

    seats: int = 0  # seat-games played by this side
    wins: int = 0
    hands: int = 0  # seat-hands
    points: int = 0
    maker: int = 0
    made: int = 0
    marches: int = 0
    maker_alone: int = 0
    maker_alone_made: int = 0
    defended: int = 0  # hands defending (playing or sitting out)
    euchres: int = 0  # of those, maker euchred
    defender_alone: int = 0
    thrown_in: int = 0
    times: list[float] = field(default_factory=list)

    def merge(self, o: SeatStats) -> None:
        for name in self.__slots__:
            if name == "times":
                self.times.extend(o.times)
            else:
                setattr(self, name, getattr(self, name) + getattr(o, name))


@dataclass(slots=True)
class GameOut:
    hero: SeatStats
    field: SeatStats
    hands: int
    levels: list[str]  # each seat's level
    scores: list[int]
    winner: int | None


def play_game(
    i: int, hero: str, field_level: str, seed: int, rules: Rules, target: int, budget_ms: int | None
) -> GameOut:
    """Play game number i; return the hero's and the field's counts."""
    hero_seat = i % 3
    first_dealer = (i // 3) % 3
    deal_rng = random.Random(f"deal-{seed}-{i}")
    bot_rngs = [random.Random(f"bot-{seed}-{i}-{s}") for s in range(3)]
    levels = [hero if s == hero_seat else field_level for s in range(3)]
    stats = [SeatStats(), SeatStats()]  # hero, field
    game = new_game(rules, target, first_dealer)
    n_hands = 0
    while not game.over:
        game = game_start_hand(game, deal_rng)
        n_hands += 1
        while (state := game.current) is not None:
            seat = state.to_act
            assert seat is not None
            view = game_view(game, seat)
            t0 = time.perf_counter()
            a = choose_action(levels[seat], view, bot_rngs[seat], budget_ms=budget_ms)
            dt = time.perf_counter() - t0
            if len(view["legal_actions"]) > 1 or a.type == "dummy":
                stats[0 if seat == hero_seat else 1].times.append(dt)
            game = game_apply(game, a)
        last = game.hands[-1]
        _count_hand(last, hero_seat, stats)
    for s in range(3):
        st = stats[0 if s == hero_seat else 1]
        st.seats += 1
        if game.winner == s:
            st.wins += 1
    return GameOut(stats[0], stats[1], n_hands, levels, list(game.scores), game.winner)


def _count_hand(hand: HandState, hero_seat: int, stats: list[SeatStats]) -> None:
    r = result(hand)
    for s in range(3):
        st = stats[0 if s == hero_seat else 1]
        st.hands += 1
        st.points += r["points"][s]
        if r["thrown_in"]:
            st.thrown_in += 1
            continue
        maker = r["maker"]
        assert maker is not None  # a hand not thrown in has its maker
        if s == maker:
            st.maker += 1
            made = r["tricks"][s] >= 3
            st.made += made
            st.marches += r["tricks"][s] == 5
            if s in r["alone"]:
                st.maker_alone += 1
                st.maker_alone_made += made
        else:
            st.defended += 1
            st.euchres += r["tricks"][maker] < 3
            if s in r["alone"]:
                st.defender_alone += 1


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}%" if b else "    -"


def _ms(ts: list[float], q: float) -> str:
    if not ts:
        return "-"
    s = sorted(ts)
    return f"{1000.0 * s[min(len(s) - 1, int(q * len(s)))]:.1f} ms"


def report(
    hero: str, field_level: str, h: SeatStats, f: SeatStats, games: int, hands: int, secs: float
) -> str:
    """The printed table."""
    lo, hi = _wilson(h.wins, h.seats)
    lines = [
        f"{hero} (hero) against two {field_level} bots: {games} games, {hands} hands, {secs:.0f} s",
        "",
        f"hero games won: {h.wins}/{h.seats} = {100.0 * h.wins / max(h.seats, 1):.1f}% "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%; fair share 33.3%)",
        "",
        f"{'':26}{'hero':>14}{'field (each)':>16}",
    ]

    def row(name: str, a: str, b: str) -> None:
        lines.append(f"{name:26}{a:>14}{b:>16}")

    row("games won", _pct(h.wins, h.seats), _pct(f.wins, f.seats))
    row("points per hand", f"{h.points / max(h.hands, 1):.3f}", f"{f.points / max(f.hands, 1):.3f}")
    row("maker rate", _pct(h.maker, h.hands), _pct(f.maker, f.hands))
    row("make % (as maker)", _pct(h.made, h.maker), _pct(f.made, f.maker))
    row("march % (as maker)", _pct(h.marches, h.maker), _pct(f.marches, f.maker))
    row("euchred (as maker)", _pct(h.maker - h.made, h.maker), _pct(f.maker - f.made, f.maker))
    row("euchre rate (defending)", _pct(h.euchres, h.defended), _pct(f.euchres, f.defended))
    row(
        "loners as maker (made)",
        f"{h.maker_alone} ({h.maker_alone_made})",
        f"{f.maker_alone} ({f.maker_alone_made})",
    )
    row("loners as defender", str(h.defender_alone), str(f.defender_alone))
    row("decisions timed", str(len(h.times)), str(len(f.times)))
    row("decision time p50", _ms(h.times, 0.5), _ms(f.times, 0.5))
    row("decision time p99", _ms(h.times, 0.99), _ms(f.times, 0.99))
    row("decision time max", _ms(h.times, 1.0), _ms(f.times, 1.0))
    lines.append("")
    lines.append(
        "(field columns: the two field bots together; decisions with one legal action not timed)"
    )
    return "\n".join(lines)


def _worker(args: tuple[int, str, str, int, Rules, int, int | None]) -> GameOut:
    return play_game(*args)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m games.bots.match", description=__doc__.split("\n")[0]
    )
    p.add_argument("--hero", choices=ALL_LEVELS, default="hard")
    p.add_argument("--field", choices=ALL_LEVELS, default="medium")
    p.add_argument("--games", type=int, default=600)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--procs", type=int, default=2)
    p.add_argument("--target", type=int, default=10)
    p.add_argument("--deck", choices=("24", "32", "25"), default="24")
    p.add_argument("--stick-the-dealer", action="store_true")
    p.add_argument("--second-round-turned-suit", action="store_true")
    p.add_argument("--lone-maker-march", type=int, choices=(3, 4), default=3)
    p.add_argument(
        "--budget-ms",
        type=int,
        default=None,
        help="wall-time budget per hard decision (default: the bot's sample budget)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument(
        "--record",
        metavar="PATH",
        help="write each game (its seats' levels, final scores, winner) as a JSON line",
    )
    a = p.parse_args(argv)
    rules = Rules(
        deck=a.deck,
        stick_the_dealer=a.stick_the_dealer,
        second_round_turned_suit=a.second_round_turned_suit,
        lone_maker_march=a.lone_maker_march,
    )
    jobs = [(i, a.hero, a.field, a.seed, rules, a.target, a.budget_ms) for i in range(a.games)]
    hero, fld = SeatStats(), SeatStats()
    hands = 0
    t0 = time.perf_counter()
    done = 0

    record = open(a.record, "w") if a.record else None  # noqa: SIM115

    def take(out: GameOut) -> None:
        nonlocal hands, done
        if record is not None:
            game = {"levels": out.levels, "scores": out.scores, "winner": out.winner}
            record.write(json.dumps(game) + "\n")
        hero.merge(out.hero)
        fld.merge(out.field)
        hands += out.hands
        done += 1
        if not a.quiet and (done % 50 == 0 or done == a.games):
            lo, hi = _wilson(hero.wins, hero.seats)
            print(
                f"[{done}/{a.games}] hero won {hero.wins} ({100 * hero.wins / done:.1f}%, "
                f"CI {100 * lo:.1f}-{100 * hi:.1f}%) {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    if a.procs > 1:
        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        with ctx.Pool(a.procs) as pool:
            for out in pool.imap_unordered(_worker, jobs, chunksize=1):
                take(out)
    else:
        for j in jobs:
            take(_worker(j))
    if record is not None:
        record.close()
    # The field column counts two seats per game: report per seat.
    print(report(a.hero, a.field, hero, fld, a.games, hands, time.perf_counter() - t0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
