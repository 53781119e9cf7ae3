"""What a seat may do, as concrete actions and amount ranges: :class:`Legal`.

``LegalActions`` answers differ per game (see ``proto/referee/*/v1/*.proto``):

* **Autobahn** lists every legal action concretely (``legal.autobahn.actions``).
* **1841** lists some actions concretely (pass, pars, share buys and sales, token counts,
  concession purchases, dividends, tile lays, ...) and gives **ranges** for amounts: bids per
  concession (``bids``), trains bought from another corporation (``train_purchases``), tokens
  bought from another corporation (``token_purchases``), purchases offered to other players
  (``offers``, option ``p2p_purchases``; the seller then answers with ``answer_offer``),
  Version 1 sealed bids
  (``blind_bid``: 0 or at least ``min_price`` per concession, total at most ``max_total``) and
  the routes step (``run_routes``: the trains that may run; any valid route set is accepted).

:class:`Legal` flattens that into :attr:`Legal.actions` (ready-to-send ``referee_pb2.Action``
envelopes), :attr:`Legal.ranges` (:class:`AmountRange`: pick an amount, get an action) and
:attr:`Legal.blind_bid`. For the 1841 routes step the empty route set (``run_routes`` with no
routes: the corporation runs nothing and earns nothing) is always valid, so it is listed among
the concrete actions; build real routes with :func:`referee_client.g1841.run_routes`.

Example::

    legal = Legal(ref.legal_actions(state, seat))
    if legal:                                   # the seat has something to do
        action = legal.first()                  # or legal.random(random.Random(7))
        for r in legal.ranges:
            print(r.kind, r.target, r.min, r.max)   # e.g. bid Bayard 20 840
        bid = legal.ranges[0].action(25)        # a concrete action from a range
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .pb import g1841_pb2, referee_pb2

#: Actions that mean "do nothing more now": the runner's default move prefers them.
PASS_LIKE: frozenset[tuple[str, str]] = frozenset({
    ("g1841", "pass"),
    ("autobahn", "end_turn"),
    ("autobahn", "decline"),
})

#: Actions a random policy picks rarely (1 chance in 8), as the server's own ``referee playout``
#: does: Autobahn games where players keep taking their cards back or declining free actions
#: drag on for thousands of moves.
RARE: frozenset[tuple[str, str]] = frozenset({
    ("autobahn", "take_back_cards"),
    ("autobahn", "decline"),
    ("g1841", "declare_bankruptcy"),
    ("g1841", "offer_purchase"),
})


def action_kind(action: "referee_pb2.Action") -> tuple[str, str]:
    """``(game, kind)`` of an action envelope, e.g. ``("g1841", "bid")``,
    ``("autobahn", "play_card")``; ``("", "")`` for an empty envelope."""
    game = action.WhichOneof("action")
    if game is None:
        return ("", "")
    inner = getattr(action, game).WhichOneof("action")
    return (game, inner or "")


def is_pass_like(action: "referee_pb2.Action") -> bool:
    """Whether ``action`` is a pass (1841) or ends/declines something (Autobahn)."""
    return action_kind(action) in PASS_LIKE


def _g1841(**kw) -> "referee_pb2.Action":
    return referee_pb2.Action(g1841=g1841_pb2.Action(**kw))


@dataclass(frozen=True)
class AmountRange:
    """Any whole amount from :attr:`min` to :attr:`max` (both included) is legal.

    Example: ``r.action(r.min)`` → the cheapest such action; ``25 in r`` → range check.
    """

    #: ``bid`` (1841 concession bid), ``buy_train`` (train from another corporation),
    #: ``buy_token`` (token from another corporation) or ``offer_purchase`` (shares or a
    #: concession offered to buy from another player).
    kind: str
    #: What the amount is for, in words: ``Bayard``, ``2-0 from SFTG``, ``F8 city 0 from SFLP``,
    #: ``20% SFTG from seat 1``.
    target: str
    min: int
    max: int
    _make: Callable[[int], "referee_pb2.Action"] = field(repr=False, compare=False)

    def __contains__(self, amount: int) -> bool:
        return self.min <= amount <= self.max

    def action(self, amount: int) -> "referee_pb2.Action":
        """The action for ``amount``; ``ValueError`` outside the range."""
        if amount not in self:
            raise ValueError(f"{self.kind} {self.target}: {amount} is outside {self.min}..{self.max}")
        return self._make(int(amount))

    def random_amount(self, rng: random.Random) -> int:
        """Half the time the minimum, otherwise uniform from the minimum to twice the minimum
        (at most :attr:`max`): random players who bid or pay up to all their cash leave nothing
        to start corporations with, and 1841 games stall."""
        top = min(self.max, 2 * self.min)
        if top <= self.min or rng.random() < 0.5:
            return self.min
        return rng.randint(self.min, top)

    def __str__(self) -> str:
        return f"{self.kind} {self.target}: {self.min}..{self.max}"


@dataclass(frozen=True)
class BlindBidRange:
    """1841 Version 1 sealed bids: one amount per concession (in :attr:`concessions` order),
    each 0 or at least :attr:`min_price`, the total at most :attr:`max_total`."""

    concessions: tuple[str, ...]
    min_price: int
    max_total: int

    def action(self, amounts) -> "referee_pb2.Action":
        """The ``blind_bid`` action; ``ValueError`` if the amounts break the range."""
        amounts = [int(a) for a in amounts]
        if len(amounts) != len(self.concessions):
            raise ValueError(f"need {len(self.concessions)} amounts, got {len(amounts)}")
        if any(a != 0 and a < self.min_price for a in amounts) or any(a < 0 for a in amounts):
            raise ValueError(f"each amount must be 0 or at least {self.min_price}")
        if sum(amounts) > self.max_total:
            raise ValueError(f"total {sum(amounts)} exceeds {self.max_total}")
        return _g1841(blind_bid=g1841_pb2.BlindBid(amounts=amounts))

    def random_amounts(self, rng: random.Random) -> list[int]:
        """Bid on about one concession in three, each at most three times the minimum."""
        budget = self.max_total
        amounts = [0] * len(self.concessions)
        for i in rng.sample(range(len(self.concessions)), len(self.concessions)):
            if budget >= self.min_price and rng.random() < 1 / 3:
                amounts[i] = rng.randint(self.min_price, min(budget, 3 * self.min_price))
                budget -= amounts[i]
        return amounts


class Legal:
    """The legal actions of one seat (a ``LegalActionsResponse``), flattened.

    Attributes:
        response: the ``LegalActionsResponse``.
        to_act: seats that must act now.
        game: ``"g1841"``, ``"autobahn"`` or ``None`` (the seat has nothing to do).
        actions: concrete ``referee_pb2.Action`` envelopes.
        ranges: :class:`AmountRange` entries (1841 bids and purchases).
        blind_bid: :class:`BlindBidRange` or ``None``.
        route_trains: 1841 trains that may run now (``[]`` outside the routes step).

    ``bool(legal)`` is false when the seat may do nothing; ``len(legal)`` counts the choices
    (each concrete action, each range and the sealed bid count one).
    """

    def __init__(self, response: "referee_pb2.LegalActionsResponse"):
        self.response = response
        self.to_act: list[int] = list(response.to_act)
        self.game: str | None = response.WhichOneof("legal_actions")
        self.actions: list[referee_pb2.Action] = []
        self.ranges: list[AmountRange] = []
        self.blind_bid: BlindBidRange | None = None
        self.route_trains: list[str] = []
        if self.game == "autobahn":
            self.actions = [referee_pb2.Action(autobahn=a) for a in response.autobahn.actions]
        elif self.game == "g1841":
            self._load_1841(response.g1841)

    def _load_1841(self, la: "g1841_pb2.LegalActions") -> None:
        self.actions = [referee_pb2.Action(g1841=a) for a in la.actions]
        if la.HasField("run_routes"):
            self.route_trains = list(la.run_routes.trains)
            self.actions.append(_g1841(run_routes=g1841_pb2.RunRoutes()))
        for b in la.bids:
            self.ranges.append(AmountRange(
                "bid", b.concession, b.min_price, b.max_price,
                lambda p, c=b.concession: _g1841(bid=g1841_pb2.Bid(concession=c, price=p))))
        for t in la.train_purchases:
            self.ranges.append(AmountRange(
                "buy_train", f"{t.train} from {getattr(t, 'from')}", t.min_price, t.max_price,
                lambda p, tr=t.train, fr=getattr(t, "from"): _g1841(
                    buy_train=g1841_pb2.BuyTrain(train=tr, price=p, **{"from": fr}))))
        for t in la.token_purchases:
            self.ranges.append(AmountRange(
                "buy_token", f"{t.hex} city {t.city} from {t.seller}", t.min_price, t.max_price,
                lambda p, h=t.hex, c=t.city, s=t.seller: _g1841(
                    buy_token=g1841_pb2.BuyToken(hex=h, city=c, seller=s, price=p))))
        for o in la.offers:
            item = o.item
            what = (f"{item.shares.percent}% {item.shares.corporation}"
                    if item.WhichOneof("item") == "shares" else f"concession {item.concession}")
            self.ranges.append(AmountRange(
                "offer_purchase", f"{what} from seat {o.seller}", o.min_price, o.max_price,
                lambda p, s=o.seller, it=item: _g1841(
                    offer_purchase=g1841_pb2.OfferPurchase(seller=s, item=it, price=p))))
        if la.HasField("blind_bid"):
            bb = la.blind_bid
            self.blind_bid = BlindBidRange(tuple(bb.concessions), bb.min_price, bb.max_total)

    def __bool__(self) -> bool:
        return bool(self.actions or self.ranges or self.blind_bid)

    def __len__(self) -> int:
        return len(self.actions) + len(self.ranges) + (1 if self.blind_bid else 0)

    def __iter__(self) -> Iterator[object]:
        """Every choice: the concrete actions, then the ranges, then the sealed bid."""
        yield from self.actions
        yield from self.ranges
        if self.blind_bid:
            yield self.blind_bid

    def first(self) -> "referee_pb2.Action | None":
        """The first concrete action, else the first range at its minimum, else an all-zero
        sealed bid; ``None`` when there is nothing to do."""
        if self.actions:
            return self.actions[0]
        if self.ranges:
            r = self.ranges[0]
            return r.action(r.min)
        if self.blind_bid:
            return self.blind_bid.action([0] * len(self.blind_bid.concessions))
        return None

    def pass_action(self) -> "referee_pb2.Action | None":
        """A legal pass-like action (1841 pass; Autobahn end turn or decline), or ``None``."""
        for a in self.actions:
            if is_pass_like(a):
                return a
        return None

    def random(self, rng: random.Random, rare_chance: float = 1 / 8) -> "referee_pb2.Action | None":
        """A random legal action: one choice uniformly (each concrete action, range and the sealed
        bid weigh the same), then an amount in a range (:meth:`AmountRange.random_amount`).
        :data:`RARE` actions are picked only with chance ``rare_chance`` while anything else is
        legal. ``None`` when there is nothing to do."""
        choices = list(self)
        if not choices:
            return None
        common = [c for c in choices if not _is_rare(c)]
        pool = common if common and rng.random() >= rare_chance else choices
        pick = pool[rng.randrange(len(pool))]
        if isinstance(pick, AmountRange):
            return pick.action(pick.random_amount(rng))
        if isinstance(pick, BlindBidRange):
            return pick.action(pick.random_amounts(rng))
        return pick

    def describe(self) -> list[str]:
        """One line per choice, for people."""
        lines = [_describe_action(a) for a in self.actions]
        lines += [str(r) for r in self.ranges]
        if self.blind_bid:
            bb = self.blind_bid
            lines.append(f"blind_bid {', '.join(bb.concessions)}: 0 or >= {bb.min_price} each, total <= {bb.max_total}")
        return lines

    def __repr__(self) -> str:
        return f"Legal(to_act={self.to_act}, actions={len(self.actions)}, ranges={len(self.ranges)}, " \
               f"blind_bid={self.blind_bid is not None})"


def _is_rare(choice) -> bool:
    """Whether :meth:`Legal.random` picks ``choice`` rarely: the :data:`RARE` kinds, and in 1841
    (as the server's ``referee playout`` policy) withholding and buying another corporation's
    train, so random games' corporations pay out, buy from the depot and come to an end."""
    if isinstance(choice, AmountRange):
        return choice.kind in ("buy_train", "offer_purchase")
    if not isinstance(choice, referee_pb2.Action):
        return False
    kind = action_kind(choice)
    if kind in RARE:
        return True
    return kind == ("g1841", "dividend") and not choice.g1841.dividend.payout


def _describe_action(action: "referee_pb2.Action") -> str:
    from google.protobuf import text_format

    game, kind = action_kind(action)
    inner = getattr(getattr(action, game), kind) if game and kind else None
    body = text_format.MessageToString(inner, as_one_line=True) if inner is not None else ""
    return f"{kind} {body}".strip()


def random_action(response: "referee_pb2.LegalActionsResponse", rng: random.Random) -> "referee_pb2.Action | None":
    """Shortcut: ``Legal(response).random(rng)``."""
    return Legal(response).random(rng)


__all__ = ["PASS_LIKE", "RARE", "AmountRange", "BlindBidRange", "Legal", "action_kind", "is_pass_like",
           "random_action"]
