"""Misbehaving bots for the tournament tests, loaded by spec (``bots_for_tests:SlowBot``)."""

import asyncio
import time

from referee_client import g1841
from referee_client.bots import Bot


class SlowBot(Bot):
    """Thinks too long on its first decision, then plays at random."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.slept = False

    def choose(self, turn):
        if not self.slept:
            self.slept = True
            time.sleep(1.0)
        return turn.legal.random(self.rng)


class IllegalBot(Bot):
    """Always bids L.1 (below every minimum): refused every time."""

    def choose(self, turn):
        return g1841.bid("Bayard", 1)


class CrashBot(Bot):
    def choose(self, turn):
        raise RuntimeError("bot bug")


class AsyncRandomBot(Bot):
    """``async def choose``: awaited by the runner."""

    async def choose(self, turn):
        await asyncio.sleep(0)
        assert turn.view.action_count == turn.action_count
        return turn.legal.random(self.rng)


class NoSeedBot:
    """Not a Bot subclass and no seed parameter: plays the first legal action."""

    def choose(self, turn):
        return turn.legal.first()
