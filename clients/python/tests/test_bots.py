"""Unit tests (no server): Legal, the built-in bots, bot loading, seeds and seating."""

from __future__ import annotations

import random
import textwrap

import pytest

from referee_client import FirstLegalBot, Legal, RandomBot, Turn, action_kind, load_bot
from referee_client.bots import Bot, BotLoadError, ServerBot, _fallback_action, make_bot
from referee_client.pb import autobahn_pb2, g1841_pb2, referee_pb2
from referee_client.tournament import Config, bot_entries, derive_seed


def legal_1841(**kw) -> referee_pb2.LegalActionsResponse:
    return referee_pb2.LegalActionsResponse(to_act=[1], g1841=g1841_pb2.LegalActions(**kw))


def pass_1841():
    return g1841_pb2.Action(**{"pass": g1841_pb2.Pass()})


def full_1841() -> Legal:
    return Legal(legal_1841(
        actions=[pass_1841(), g1841_pb2.Action(dividend=g1841_pb2.Dividend(payout=True))],
        bids=[g1841_pb2.BidRange(concession="Bayard", min_price=20, max_price=840),
              g1841_pb2.BidRange(concession="SFLP", min_price=25, max_price=25)],
        train_purchases=[g1841_pb2.TrainPurchaseRange(train="2-0", min_price=1, max_price=80, **{"from": "SFTG"})],
        token_purchases=[g1841_pb2.TokenPurchaseRange(hex="F8", city=1, seller="SFLP", min_price=1, max_price=30)],
        run_routes=g1841_pb2.RunRoutesRange(trains=["3-1"]),
    ))


def autobahn_legal(*kinds: str) -> Legal:
    acts = []
    for k in kinds:
        if k == "play_card":
            acts.append(autobahn_pb2.Action(play_card=autobahn_pb2.PlayCard(card="C1", colour="red", space="BUILD_ROAD",
                                                                             target="L1-1")))
        else:
            acts.append(autobahn_pb2.Action(**{k: getattr(autobahn_pb2, "".join(w.title() for w in k.split("_")))()}))
    return Legal(referee_pb2.LegalActionsResponse(to_act=[0], autobahn=autobahn_pb2.LegalActions(actions=acts)))


def test_legal_1841_flattens_actions_and_ranges():
    legal = full_1841()
    assert legal.game == "g1841" and legal.to_act == [1]
    kinds = [action_kind(a) for a in legal.actions]
    # the routes step becomes the empty route set, always valid
    assert kinds == [("g1841", "pass"), ("g1841", "dividend"), ("g1841", "run_routes")]
    assert legal.route_trains == ["3-1"]
    assert not legal.actions[2].g1841.run_routes.routes
    assert [(r.kind, r.target, r.min, r.max) for r in legal.ranges] == [
        ("bid", "Bayard", 20, 840), ("bid", "SFLP", 25, 25), ("buy_train", "2-0 from SFTG", 1, 80),
        ("buy_token", "F8 city 1 from SFLP", 1, 30)]
    assert len(legal) == 7 and bool(legal)
    bid = legal.ranges[0].action(25)
    assert bid.g1841.bid.concession == "Bayard" and bid.g1841.bid.price == 25
    train = legal.ranges[2].action(10).g1841.buy_train
    assert (train.train, getattr(train, "from"), train.price) == ("2-0", "SFTG", 10)
    token = legal.ranges[3].action(30).g1841.buy_token
    assert (token.hex, token.city, token.seller, token.price) == ("F8", 1, "SFLP", 30)
    with pytest.raises(ValueError):
        legal.ranges[0].action(19)
    assert 840 in legal.ranges[0] and 841 not in legal.ranges[0]
    assert legal.pass_action() == legal.actions[0]
    assert legal.first() == legal.actions[0]
    assert len(legal.describe()) == 7


def test_legal_empty_and_first_of_ranges():
    nothing = Legal(legal_1841())
    assert not nothing and len(nothing) == 0 and nothing.first() is None
    assert nothing.random(random.Random(1)) is None and nothing.pass_action() is None
    only_bids = Legal(legal_1841(bids=[g1841_pb2.BidRange(concession="SFTG", min_price=30, max_price=100)]))
    assert only_bids.first().g1841.bid.price == 30
    # a seat that waits: the response has no typed part at all
    waiting = Legal(referee_pb2.LegalActionsResponse(to_act=[2]))
    assert waiting.game is None and not waiting


def test_blind_bid_range():
    legal = Legal(legal_1841(blind_bid=g1841_pb2.BlindBidRange(concessions=["A", "B", "C", "D"], min_price=20,
                                                                  max_total=100)))
    bb = legal.blind_bid
    assert bb is not None and len(legal) == 1
    assert list(legal.first().g1841.blind_bid.amounts) == [0, 0, 0, 0]
    assert list(bb.action([20, 0, 80, 0]).g1841.blind_bid.amounts) == [20, 0, 80, 0]
    for bad in ([10, 0, 0, 0], [20, 20, 20, 50], [20, 0, 0]):
        with pytest.raises(ValueError):
            bb.action(bad)
    rng = random.Random(3)
    for _ in range(200):
        amounts = list(legal.random(rng).g1841.blind_bid.amounts)
        assert len(amounts) == 4 and sum(amounts) <= 100
        assert all(a == 0 or a >= 20 for a in amounts)


def test_random_picks_every_kind_of_choice_and_amounts_in_range():
    legal = full_1841()
    rng = random.Random(11)
    kinds, prices = set(), []
    for _ in range(700):
        a = legal.random(rng)
        kinds.add(action_kind(a)[1])
        if a.g1841.HasField("bid") and a.g1841.bid.concession == "Bayard":
            prices.append(a.g1841.bid.price)
    assert kinds == {"pass", "dividend", "run_routes", "bid", "buy_train", "buy_token"}
    assert all(20 <= p <= 840 for p in prices)
    assert 20 in prices and any(p > 20 for p in prices)  # the minimum often, the range too


def test_random_is_seeded():
    legal = full_1841()
    a = [legal.random(random.Random(5)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    r1, r2 = random.Random(9), random.Random(9)
    assert [legal.random(r1) for _ in range(50)] == [legal.random(r2) for _ in range(50)]


def test_random_picks_rare_autobahn_actions_rarely():
    legal = autobahn_legal("play_card", "take_back_cards")
    rng = random.Random(1)
    picks = [action_kind(legal.random(rng))[1] for _ in range(4000)]
    share = picks.count("take_back_cards") / len(picks)
    assert 0.03 < share < 0.1  # 1/8 of the time half of the choices: about 1/16
    only_rare = autobahn_legal("take_back_cards")
    assert action_kind(only_rare.random(rng)) == ("autobahn", "take_back_cards")


def test_random_picks_rare_1841_actions_rarely():
    # withholding and buying another corporation's train are rare, as in `referee playout`
    legal = Legal(legal_1841(
        actions=[g1841_pb2.Action(dividend=g1841_pb2.Dividend(payout=True)),
                 g1841_pb2.Action(dividend=g1841_pb2.Dividend(payout=False))]))
    rng = random.Random(2)
    withheld = sum(not legal.random(rng).g1841.dividend.payout for _ in range(4000)) / 4000
    assert 0.03 < withheld < 0.1  # about 1/16
    trains = Legal(legal_1841(
        actions=[pass_1841()],
        train_purchases=[g1841_pb2.TrainPurchaseRange(train="2-0", min_price=1, max_price=80,
                                                      **{"from": "SFTG"})]))
    bought = sum(action_kind(trains.random(rng)) == ("g1841", "buy_train") for _ in range(4000)) / 4000
    assert 0.03 < bought < 0.1


def test_bots_run_the_suggested_routes_once_fetched():
    route = g1841_pb2.Route(train="2-0", stops=[g1841_pb2.Stop(hex="E9", node=0), g1841_pb2.Stop(hex="D8", node=0)],
                            connections=[g1841_pb2.HexChain(hexes=["E9", "D8"])])
    calls = []

    def fetch():
        calls.append(1)
        return referee_pb2.SuggestRoutesResponse(routes=[route], revenue=70)

    legal = Legal(legal_1841(run_routes=g1841_pb2.RunRoutesRange(trains=["2-0"])))
    t = Turn("1841", 1, legal, None, 0, fetch_routes=fetch)
    for bot in (RandomBot(seed=1), FirstLegalBot()):
        action = bot.choose(t)
        assert list(action.g1841.run_routes.routes) == [route]
    assert calls == [1]
    # outside the routes step nothing is fetched
    t2 = Turn("1841", 1, full_1841_without_routes(), None, 0, fetch_routes=fetch)
    assert t2.suggested_routes() is None and calls == [1]


def full_1841_without_routes() -> Legal:
    return Legal(legal_1841(actions=[pass_1841()]))


def test_default_move_prefers_pass_like():
    rng = random.Random(0)
    assert action_kind(_fallback_action(full_1841(), rng)) == ("g1841", "pass")
    assert action_kind(_fallback_action(autobahn_legal("play_card", "end_turn"), rng)) == ("autobahn", "end_turn")
    assert action_kind(_fallback_action(autobahn_legal("play_card", "decline"), rng)) == ("autobahn", "decline")
    assert action_kind(_fallback_action(autobahn_legal("play_card"), rng)) == ("autobahn", "play_card")


def turn_of(legal: Legal) -> Turn:
    return Turn("1841", 1, legal, referee_pb2.ViewResponse(to_act=[1]), 0)


def test_builtin_bots():
    legal = full_1841()
    assert FirstLegalBot().choose(turn_of(legal)) == legal.actions[0]
    a = [RandomBot(seed=4).choose(turn_of(legal)) for _ in range(2)]
    assert a[0] == a[1]
    # after a refusal FirstLegalBot stops repeating itself
    t = turn_of(legal)
    t.rejections.append(object())
    choices = {FirstLegalBot(seed=s).choose(t).SerializeToString() for s in range(30)}
    assert len(choices) > 1


def test_server_bot_asks_the_server_by_policy_name():
    asked = []

    def fetch(policy, seed):
        asked.append((policy, seed))
        return referee_pb2.DefaultActionResponse(action=referee_pb2.Action())

    bot = load_bot("trucker")(seed=5)
    t = Turn("autobahn", 0, full_1841(), None, 7, fetch_server_move=fetch)
    assert bot.choose(t) == referee_pb2.Action()
    assert asked == [("trucker", 5 * 1_000_003 + 7)]
    with pytest.raises(RuntimeError):
        bot.choose(Turn("autobahn", 0, full_1841(), None, 7))


def test_turn_view_is_fetched_once_on_demand():
    calls = []

    def fetch():
        calls.append(1)
        return referee_pb2.ViewResponse(to_act=[1], action_count=7)

    t = Turn("1841", 1, full_1841(), None, 7, fetch_view=fetch)
    assert not calls
    assert t.view.action_count == 7 and t.view.action_count == 7
    assert calls == [1]


def test_load_bot_builtins_and_errors():
    assert load_bot("random") is RandomBot
    assert load_bot("first") is FirstLegalBot
    # the server's bots by the policy names the server answers (docs/games/autobahn-bots.md)
    for name in ("heuristic", "balanced", "builder", "network", "trucker", "finance"):
        cls = load_bot(name)
        assert issubclass(cls, ServerBot) and cls.policy == name and cls.name == name
    assert load_bot("referee_client.bots:RandomBot") is RandomBot
    for spec in ("nope", "no_such_module_xyz:Bot", "referee_client.bots:NoSuchBot", "referee_client.bots:Turn",
                 "referee_client:__version__", "missing_file.py:Bot"):
        with pytest.raises(BotLoadError):
            load_bot(spec)


def test_load_user_bot_from_module_and_file(tmp_path, monkeypatch):
    code = textwrap.dedent("""
        from referee_client.bots import Bot

        class PassBot(Bot):
            def choose(self, turn):
                return turn.legal.pass_action() or turn.legal.first()

        class Plain:                      # no base class, no seed
            def choose(self, turn):
                return turn.legal.first()
    """)
    (tmp_path / "userbots_pkg").mkdir()
    (tmp_path / "userbots_pkg" / "__init__.py").write_text("")
    (tmp_path / "userbots_pkg" / "mybots.py").write_text(code)
    (tmp_path / "filebots.py").write_text(code)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    cls = load_bot("userbots_pkg.mybots:PassBot")
    assert issubclass(cls, Bot)
    bot = make_bot(cls, 5)
    assert bot.seed == 5
    assert action_kind(bot.choose(turn_of(full_1841()))) == ("g1841", "pass")
    plain = make_bot(load_bot(f"{tmp_path / 'filebots.py'}:Plain"), 5)
    assert action_kind(plain.choose(turn_of(full_1841()))) == ("g1841", "pass")


def test_bot_entries_labels():
    entries = bot_entries(["random", "first", "random", "me=referee_client.bots:RandomBot"])
    assert [(e.label, e.spec) for e in entries] == [
        ("random#1", "random"), ("first", "first"), ("random#2", "random"), ("me", "referee_client.bots:RandomBot")]
    assert entries[3].cls is RandomBot
    with pytest.raises(ValueError):
        bot_entries(["a=random", "a=first"])


def test_seeds_are_derived_and_stable():
    s = derive_seed(1, "game", 0)
    assert s == derive_seed(1, "game", 0)
    assert len({derive_seed(1, "game", g) for g in range(100)}) == 100
    assert s != derive_seed(2, "game", 0) and s != derive_seed(1, "bot", 0, 0)
    assert all(0 <= derive_seed(k, "x") < 2**53 for k in range(50))
    assert derive_seed(0, "game", 0) == 7973547867170498  # pinned: results stay reproducible across versions


def test_seats_rotate():
    cfg = Config(game="autobahn", players=3, games=6, bots=bot_entries(["random", "first", "a=random"]))
    seatings = [[e.label for e in cfg.seating(g)] for g in range(6)]
    assert seatings[0] == ["random", "first", "a"]
    assert seatings[1] == ["first", "a", "random"]
    assert seatings[3] == seatings[0]
    for label in ("random", "first", "a"):  # each bot plays each seat equally often
        assert sorted(s.index(label) for s in seatings) == [0, 0, 1, 1, 2, 2]
    with pytest.raises(ValueError):
        Config(game="autobahn", players=3, games=1, bots=bot_entries(["random"]))
    assert Config(game="autobahn", players=2, games=9, bots=bot_entries(["random", "first"]),
                  only=[4, 2, 4]).game_numbers() == [2, 4]
