"""The server's HTTP/JSON face: ``POST /v1/<Method>`` with canonical proto3 JSON bodies, on the
gRPC port. Uses only urllib (no extra dependencies)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from google.protobuf import json_format

from referee_client.pb import referee_pb2


def post(server, method: str, body, *, raw: bytes | None = None, content_type: str = "application/json"):
    """POST to /v1/<method>; returns (status, content-type, parsed JSON or None, raw bytes)."""
    data = raw if raw is not None else json.dumps(body).encode()
    req = urllib.request.Request(f"{server.http_base}/v1/{method}", data=data, method="POST",
                                 headers={"Content-Type": content_type, "Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as resp:
            status, ctype, payload = resp.status, resp.headers.get("Content-Type", ""), resp.read()
    except urllib.error.HTTPError as e:
        status, ctype, payload = e.code, e.headers.get("Content-Type", ""), e.read()
    try:
        parsed = json.loads(payload) if payload else None
    except ValueError:
        parsed = None
    return status, ctype, parsed, payload


def ok(server, method: str, body, message_type):
    status, ctype, parsed, payload = post(server, method, body)
    assert status == 200, (status, payload)
    assert ctype.startswith("application/json"), ctype
    assert isinstance(parsed, dict), payload
    # strict parse: every key must be a field of the response message
    msg = json_format.Parse(payload, message_type())
    return parsed, msg


def test_list_games(server):
    parsed, msg = ok(server, "ListGames", {}, referee_pb2.ListGamesResponse)
    ids = [g["id"] for g in parsed["games"]]
    assert "1841" in ids and "autobahn" in ids
    assert {g.id for g in msg.games} == set(ids)
    g = next(g for g in parsed["games"] if g["id"] == "1841")
    assert "displayName" in g and "minPlayers" in g  # canonical JSON uses lowerCamelCase names


def test_new_game_then_apply(server):
    parsed, msg = ok(server, "NewGame", {"game": "1841", "seats": 4}, referee_pb2.NewGameResponse)
    state_json = parsed["state"]
    assert state_json["game"] == "1841"
    g = state_json["g1841"]
    assert "bankCash" in g and "playerOrder" in g
    assert [int(p["cash"]) for p in g["players"]] == [840] * 4
    assert msg.state.g1841.player_order == [0, 1, 2, 3]

    # send the state back unchanged, with a bid
    body = {"state": state_json, "seat": 0,
            "action": {"g1841": {"bid": {"concession": "Bayard", "price": "20"}}}}
    parsed, msg = ok(server, "Apply", body, referee_pb2.ApplyResponse)
    assert "accepted" in parsed, parsed
    assert parsed["accepted"]["state"]["actionCount"] == "1"  # 64-bit integers are JSON strings
    assert msg.accepted.state.action_count == 1
    assert msg.accepted.events
    after = parsed["accepted"]["state"]

    # a refused action is a normal answer (HTTP 200) carrying the rejection
    body = {"state": after, "seat": 1, "action": {"g1841": {"bid": {"concession": "Bayard", "price": "22"}}}}
    parsed, msg = ok(server, "Apply", body, referee_pb2.ApplyResponse)
    assert "rejected" in parsed, parsed
    assert parsed["rejected"]["rejection"]["code"].startswith("REJECTION_CODE_")  # enums by name
    assert msg.rejected.rejection.code == referee_pb2.REJECTION_CODE_ILLEGAL_MOVE

    # LegalActions and View through JSON too
    parsed, msg = ok(server, "LegalActions", {"state": after, "seat": 1}, referee_pb2.LegalActionsResponse)
    assert msg.to_act == [1]
    parsed, msg = ok(server, "View", {"state": after}, referee_pb2.ViewResponse)
    assert msg.action_count == 1


def test_malformed_json_is_400(server):
    status, ctype, parsed, payload = post(server, "NewGame", None, raw=b'{"game": "1841", "seats": ')
    assert status == 400, (status, payload)
    assert ctype.startswith("application/json"), ctype
    assert isinstance(parsed, dict), payload


def test_unknown_field_or_wrong_type_is_400(server):
    status, _, parsed, payload = post(server, "NewGame", {"game": "1841", "seats": "four"})
    assert status == 400, (status, payload)
    assert isinstance(parsed, dict), payload


def test_unknown_game_is_404(server):
    status, _, parsed, payload = post(server, "NewGame", {"game": "chess", "seats": 2})
    assert status == 404, (status, payload)
    assert isinstance(parsed, dict), payload


@pytest.mark.parametrize("method", ["NoSuchMethod"])
def test_unknown_method_is_404(server, method):
    status, _, _, payload = post(server, method, {})
    assert status == 404, (status, payload)
