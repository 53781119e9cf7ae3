"""GetGameData through the helper layer: the static data a UI draws a game with, cached by its
content hash (the second call moves only the hash)."""

from __future__ import annotations

import urllib.error
import urllib.request

from referee_client import GameData


def test_1841_variants_have_their_maps(ref):
    v2 = ref.game_data("1841")
    lite = ref.game_data("1841", {"lite": True})
    assert isinstance(v2, GameData)
    assert (v2.variant, lite.variant) == ("v2", "lite")
    assert v2.content_hash.startswith("sha256:") and v2.content_hash != lite.content_hash
    hexes = {h["id"]: h for h in v2.data["hexes"]}
    assert hexes["F8"]["row"] == 5 and hexes["F8"]["column"] == 8
    assert hexes["A5"]["location"] == "Simplon"
    assert [t["name"] for t in v2.data["ruleset"]["trains"]] == ["2", "3", "4", "5", "6", "7", "8"]
    assert len(lite.data["concessions"]) == 5
    # Cached: the same object comes back after a not-modified answer.
    assert ref.game_data("1841") is v2


def test_autobahn_board_has_positions(ref):
    ab = ref.game_data("autobahn")
    assert ab.variant == "reconstructed-2026-3"
    sections = ab.data["positions"]["sections"]
    assert len(sections) == sum(len(link["sections"]) for link in ab.data["board"]["links"])
    assert all(0 <= p["x"] <= 1000 for p in sections.values())


def test_http_get_answers_304_to_its_etag(server):
    url = f"{server.http_base}/v1/GameData?game=autobahn"
    with urllib.request.urlopen(url, timeout=20) as resp:
        etag = resp.headers["ETag"]
        assert resp.status == 200 and etag.startswith('"sha256:')
    req = urllib.request.Request(url, headers={"If-None-Match": etag})
    try:
        urllib.request.urlopen(req, timeout=20)
        raise AssertionError("expected 304")
    except urllib.error.HTTPError as e:
        assert e.code == 304


def test_async_client_caches_too(server):
    import asyncio

    from referee_client import AsyncReferee

    async def main():
        async with AsyncReferee(server.target, timeout=20) as ref:
            first = await ref.game_data("1841", {"version_1": True})
            again = await ref.game_data("1841", {"version_1": True})
            return first, again

    first, again = asyncio.run(main())
    assert first.variant == "v1" and again is first
