// End-to-end tests of @referee/client against the real server, over gRPC and gRPC-Web.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import {
  createRefereeClient,
  g1841,
  ImportFailureKind,
  rejectionCodeName,
  RejectionCode,
  type GameState,
  type RefereeClient,
  type TransportKind,
} from "../src/index.js";
import { startServer, type RunningServer } from "./server.js";

let server: RunningServer;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

const transports: TransportKind[] = ["grpc", "grpc-web"];

for (const transport of transports) {
  describe(`over ${transport}`, () => {
    let client: RefereeClient;
    let start: GameState;

    before(() => {
      client = createRefereeClient(server.baseUrl, { transport });
    });

    it("ListGames lists 1841 and autobahn", async () => {
      const games = await client.listGames();
      const ids = games.map((g) => g.id);
      assert.ok(ids.includes("1841"), `games: ${ids.join(", ")}`);
      assert.ok(ids.includes("autobahn"), `games: ${ids.join(", ")}`);
      const g = games.find((g) => g.id === "1841")!;
      assert.ok(g.minPlayers <= 4 && g.maxPlayers >= 4, `1841 players ${g.minPlayers}..${g.maxPlayers}`);
    });

    it("NewGame 1841 with 4 seats starts in the concession round, L.840 each", async () => {
      start = await client.newGame("1841", 4);
      assert.equal(start.game, "1841");
      assert.equal(start.actionCount, 0n);
      assert.equal(start.state.case, "g1841");
      const st = start.state.value!;
      assert.equal(st.round.case, "concessionRound", `round: ${st.round.case}`);
      assert.equal(st.players.length, 4);
      for (const p of st.players) assert.equal(p.cash, 840n, `seat ${p.seat} cash ${p.cash}`);
    });

    it("LegalActions of seat 0 lists pass and bid ranges", async () => {
      const la = await client.legalActions(start, 0);
      assert.deepEqual(la.toAct, [0], `to_act: ${la.toAct}`);
      assert.equal(la.legalActions.case, "g1841");
      const l = la.legalActions.value!;
      assert.ok(
        l.actions.some((a) => a.action.case === "pass"),
        `actions: ${l.actions.map((a) => a.action.case).join(", ")}`,
      );
      const bayard = l.bids.find((b) => b.concession === "Bayard");
      assert.ok(bayard, `bids: ${l.bids.map((b) => b.concession).join(", ")}`);
      assert.equal(bayard.minPrice, 20n);
      assert.equal(bayard.maxPrice, 840n);
    });

    it("Apply a legal bid is accepted, an illegal one rejected, the old state still usable", async () => {
      const ok = await client.apply(start, 0, g1841.bid("Bayard", 20));
      assert.ok(ok.accepted, ok.rejected ? `rejected: ${rejectionCodeName(ok.rejection.code)} ${ok.rejection.message}` : "");
      assert.equal(ok.state.actionCount, 1n);
      assert.ok(ok.events.length > 0, "events");
      assert.equal(ok.events[0].event.case, "g1841");

      // Seat 0 again: it's seat 1's turn to raise or drop out now.
      const notTurn = await client.apply(ok.state, 0, g1841.bid("Bayard", 25));
      assert.ok(notTurn.rejected, "bid out of turn accepted");
      assert.equal(rejectionCodeName(notTurn.rejection.code), "NOT_YOUR_TURN", notTurn.rejection.message);
      assert.ok(notTurn.rejection.message.length > 0, "rejection message");

      // Below the minimum bid on the initial state.
      const low = await client.apply(start, 0, g1841.bid("Bayard", 5));
      assert.ok(low.rejected, "bid of L.5 accepted");
      assert.equal(low.rejection.code, RejectionCode.ILLEGAL_MOVE, low.rejection.message);
      assert.ok(low.rejection.rule.length > 0, "rejection cites a rule");

      // The caller's states are unchanged and still valid.
      assert.equal(start.actionCount, 0n);
      const again = await client.apply(start, 0, g1841.bid("Bayard", 20));
      assert.ok(again.accepted, "old state no longer usable");
      assert.equal(again.state.actionCount, 1n);
    });

    it("importGame replays a game recorded on 18xx.games; exportGame writes it back", async () => {
      // test/data/18xx_1841_132002.json: a copy of tests/fixtures/1841/132002.json.
      const text = readFileSync(new URL("./data/18xx_1841_132002.json", import.meta.url), "utf8");
      const imported = await client.importGame(text, { check: true });
      assert.equal(imported.failure, undefined, imported.failure?.message);
      assert.ok(imported.finished);
      assert.ok(imported.check?.ok);
      assert.equal(imported.gameEndReason, "stock_market");
      assert.equal(imported.actionsApplied, 702n);
      assert.deepEqual(
        imported.players.map((p) => [p.seat, p.id, p.result]),
        [
          [0, "512", 5697n],
          [1, "5518", 3921n],
          [2, "605", 5899n],
          [3, "2843", 5703n],
        ],
      );
      // The first stock round, exported and imported again: the same state.
      const part = await client.importGame(JSON.parse(text), { stopAtActionId: 110 });
      assert.ok(part.stoppedAtLimit);
      const out = await client.exportGame("1841", 4, part.actions, {
        players: part.players.map((p) => ({ id: p.id, name: p.name })),
        sourceGameId: 132002,
      });
      assert.equal(out.failure, undefined);
      const written = JSON.parse(out.exportJson);
      assert.equal(written.title, "1841");
      assert.deepEqual(written.players[0], { id: 512, name: "Player 1" });
      const again = await client.importGame(out.exportJson);
      assert.equal(again.failure, undefined);
      assert.equal(again.state?.actionCount, part.state?.actionCount);
      assert.deepEqual(again.state, part.state);
      // A truncated export: a typed failure, not an exception.
      const cut = await client.importGame(text.slice(0, 4000));
      assert.equal(cut.failure?.kind, ImportFailureKind.TRUNCATED_JSON);
    });

    it("View works for a seat and for a spectator", async () => {
      const seat = await client.view(start, 0);
      assert.deepEqual(seat.toAct, [0]);
      assert.equal(seat.actionCount, 0n);
      assert.equal(seat.view.case, "g1841");
      assert.equal(seat.view.value!.state?.players.length, 4);
      const spectator = await client.view(start);
      assert.equal(spectator.view.case, "g1841");
    });
  });
}

describe("examples/node-example.ts", () => {
  for (const transport of transports) {
    it(`runs against the server over ${transport}`, async () => {
      const example = fileURLToPath(new URL("../examples/node-example.ts", import.meta.url));
      const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", example], {
        env: { ...process.env, REFEREE_URL: server.baseUrl, REFEREE_TRANSPORT: transport },
        timeout: 60_000,
      });
      assert.match(stdout, /whose turn: seat/);
      assert.match(stdout, /accepted/);
      assert.match(stdout, /rejected, [A-Z_]+:/);
    });
  }
});

// What a browser does before a cross-origin gRPC-Web call (see README, "Browsers").
describe("CORS for browsers (server started with --cors-origins)", () => {
  const origin = "http://app.test";
  let cors: RunningServer;

  before(async () => {
    cors = await startServer(["--cors-origins", origin]);
  });
  after(async () => {
    await cors?.stop();
  });

  it("answers the gRPC-Web call with access-control-allow-origin", async () => {
    const res = await fetch(`${cors.baseUrl}/referee.v1.Referee/ListGames`, {
      method: "POST",
      headers: { origin, "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
      body: new Uint8Array(5), // one empty gRPC-Web message frame
    });
    await res.arrayBuffer();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), origin);
    assert.match(res.headers.get("access-control-expose-headers") ?? "", /grpc-status/);
  });

  it(
    "answers the HTTP/1.1 preflight (OPTIONS) with 2xx and the allowed origin",
    async () => {
      const res = await fetch(`${cors.baseUrl}/referee.v1.Referee/ListGames`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type,x-grpc-web,x-user-agent,grpc-timeout",
        },
      });
      await res.arrayBuffer();
      assert.ok(res.status >= 200 && res.status < 300, `preflight status ${res.status}`);
      assert.equal(res.headers.get("access-control-allow-origin"), origin);
    },
  );
});
