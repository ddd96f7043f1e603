"""A double-dummy solver for the play of one hand, over bitmask cards.

For a hand, the maker plays against a coalition of the defenders, so the
play is a two-sided zero-sum game over one number: the tricks the maker
takes. Every scoring rule is monotone in that number, so the solver answers
threshold questions ("can the maker take at least k more tricks?") with a
boolean alpha-beta search, and the callers ask the two or three thresholds
where the points change (3 and 5 tricks; 1 when a defender is alone).

Speed comes from: cards as bits in three ints (mutated in place and undone),
a transposition table at the start of each trick holding lower/upper bounds
of the maker's remaining tricks, playing only one card of a run of equal
cards (touching in rank among the cards still live), and cheap move ordering.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import EFF_SUIT, POWER, SUIT_MASK
from games.engine.rules import next_seat

from .common import ORDER


class Solver:
    """Double-dummy search for one trump suit, maker and set of active seats.

    The transposition table stays valid for any position of the same hand
    (keys hold every hand), so one solver should be reused for all the
    questions about one sampled deal.
    """

    __slots__ = ("_moves", "eff", "maker", "n_active", "nodes", "nxt", "order", "pw", "sm", "tt")

    def __init__(self, trump: int, maker: int, sitting_out: int | None) -> None:
        self.sm = SUIT_MASK[trump]
        self.pw = POWER[trump]
        self.eff = EFF_SUIT[trump]
        self.order = ORDER[trump]
        self.maker = maker
        self.nxt = tuple(next_seat(s, sitting_out) for s in range(3))
        self.n_active = 2 if sitting_out is not None else 3
        self.tt: dict[int, tuple[int, int]] = {}
        self._moves: dict[tuple[int, int], list[int]] = {}
        self.nodes = 0

    # --- public --------------------------------------------------------------

    def at_least(
        self,
        hands: Sequence[int],
        to_act: int,
        trick: Sequence[tuple[int, int]],
        need: int,
    ) -> bool:
        """Can the maker take at least `need` of the tricks still to finish (this one included)?

        `hands`: the three current hands (a sitting-out seat's hand is ignored);
        `trick`: (seat, card) pairs already in the trick in progress.
        """
        H, led, bestp, bests, tmask, left = self._start(hands, trick)
        return self._rec(H, to_act, led, bestp, bests, len(trick), tmask, need, left)

    def _start(
        self, hands: Sequence[int], trick: Sequence[tuple[int, int]]
    ) -> tuple[list[int], int, int, int, int, int]:
        """The search's state at a trick in progress: the active hands, the led
        suit, the best power and seat so far, the trick's cards, tricks left."""
        H = [0, 0, 0]
        for s in range(3):
            if s == self.maker or self._active(s):
                H[s] = hands[s]
        led = -1
        bestp = -1
        bests = -1
        tmask = 0
        if trick:
            led = self.eff[trick[0][1]]
            pw = self.pw[led]
            for s, c in trick:
                tmask |= 1 << c
                if pw[c] > bestp:
                    bestp, bests = pw[c], s
        # Seats yet to play in this trick hold one card more than those who played.
        left = max(H[s].bit_count() for s in range(3))
        return H, led, bestp, bests, tmask, left

    def at_least_after(
        self,
        hands: Sequence[int],
        to_act: int,
        trick: Sequence[tuple[int, int]],
        card: int,
        need: int,
    ) -> bool:
        """`at_least` after `to_act` plays `card` (counted from before that card)."""
        H, led, bestp, bests, tmask, left = self._start(hands, trick)
        if not trick:
            led = self.eff[card]
        H[to_act] &= ~(1 << card)
        p = self.pw[led][card]
        if p > bestp:
            bestp, bests = p, to_act
        if len(trick) + 1 == self.n_active:
            return self._rec(H, bests, -1, -1, -1, 0, 0, need - (bests == self.maker), left - 1)
        return self._rec(
            H, self.nxt[to_act], led, bestp, bests, len(trick) + 1, tmask | 1 << card, need, left
        )

    def tricks(
        self,
        hands: Sequence[int],
        to_act: int,
        trick: Sequence[tuple[int, int]],
        thresholds: Sequence[int],
    ) -> int:
        """The largest of the ascending `thresholds` (0 if none) the maker surely reaches."""
        got = 0
        for k in thresholds:
            if k <= 0:
                got = k
                continue
            if self.at_least(hands, to_act, trick, k):
                got = k
            else:
                break
        return got

    def exact(self, hands: Sequence[int], to_act: int, trick: Sequence[tuple[int, int]]) -> int:
        """The maker's tricks from here on under best play of both sides."""
        n = max(hands[s].bit_count() for s in range(3))
        lo, hi = 0, n + (1 if trick else 0)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.at_least(hands, to_act, trick, mid):
                lo = mid
            else:
                hi = mid - 1
        return lo

    # --- search --------------------------------------------------------------

    def _active(self, s: int) -> bool:
        return s in self.nxt

    def _gen(self, legal: int, live: int, led: int) -> list[int]:
        """One card of each run of touching cards (by strength among live cards)."""
        key = (legal, live)
        got = self._moves.get(key)
        if got is not None:
            return got
        out: list[int] = []
        order = self.order
        for s in range(4):
            if not legal & self.sm[s]:
                continue
            prev_mine = False
            for c in order[s]:
                b = 1 << c
                if live & b:
                    if legal & b:
                        if not prev_mine:
                            out.append(c)
                        prev_mine = True
                    else:
                        prev_mine = False
        if len(self._moves) > 200000:
            self._moves.clear()
        self._moves[key] = out
        return out

    def _rec(
        self,
        H: list[int],
        seat: int,
        led: int,
        bestp: int,
        bests: int,
        nplayed: int,
        tmask: int,
        need: int,
        left: int,
    ) -> bool:
        self.nodes += 1
        maker = self.maker
        key = 0
        if nplayed == 0:
            if need <= 0:
                return True
            if need > left:
                return False
            if left == 1:
                return self._last(H, seat) >= need
            key = H[0] | H[1] << 33 | H[2] << 66 | seat << 99
            e = self.tt.get(key)
            if e is not None:
                if e[0] >= need:
                    return True
                if e[1] < need:
                    return False
        h = H[seat]
        if nplayed:
            legal = h & self.sm[led]
            if not legal:
                legal = h
        else:
            legal = h
        moves = self._gen(legal, H[0] | H[1] | H[2] | tmask, led)
        is_maker = seat == maker
        if len(moves) > 1:
            if nplayed:
                pwl = self.pw[led]
                if (bests == maker) == is_maker:
                    # My side wins the trick so far: cheapest cards first.
                    moves = sorted(moves, key=pwl.__getitem__)
                else:
                    moves = sorted(moves, key=lambda c: (pwl[c] <= bestp, pwl[c]))
            else:
                # Leading: strong cards first.
                moves = sorted(moves, key=lambda c: -self.pw[self.eff[c]][c])
        last = nplayed + 1 == self.n_active
        nxt = self.nxt[seat]
        result = not is_maker
        for c in moves:
            b = 1 << c
            H[seat] = h ^ b
            if nplayed:
                l2 = led
                p = self.pw[led][c]
            else:
                l2 = self.eff[c]
                p = self.pw[l2][c]
            if p > bestp:
                bp, bs = p, seat
            else:
                bp, bs = bestp, bests
            if last:
                r = self._rec(H, bs, -1, -1, -1, 0, 0, need - (bs == maker), left - 1)
            else:
                r = self._rec(H, nxt, l2, bp, bs, nplayed + 1, tmask | b, need, left)
            if r == is_maker:
                result = r
                break
        H[seat] = h
        if nplayed == 0:
            e = self.tt.get(key)
            lo, hi = e if e is not None else (0, left)
            if result:
                lo = max(lo, need)
            else:
                hi = min(hi, need - 1)
            self.tt[key] = (lo, hi)
        return result

    def _last(self, H: list[int], leader: int) -> int:
        """Maker's tricks (0/1) in the last trick, everyone holding one card."""
        c = H[leader]
        if not c:
            return 0
        lc = c.bit_length() - 1
        led = self.eff[lc]
        pw = self.pw[led]
        best, bs = pw[lc], leader
        s = self.nxt[leader]
        while s != leader:
            if H[s]:
                x = H[s].bit_length() - 1
                if pw[x] > best:
                    best, bs = pw[x], s
            s = self.nxt[s]
        return 1 if bs == self.maker else 0
