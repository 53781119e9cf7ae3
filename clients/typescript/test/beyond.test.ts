// Issue #9 through the helper layer, over gRPC and gRPC-Web: applyBatch equals Replay,
// streamReplay yields every state, playout is reproducible, suggestRoutes, defaultAction is
// accepted by apply, describe names the action, and the viewer roles.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import {
  createRefereeClient,
  g1841,
  POLICY_NAMES,
  RejectionCode,
  type GameState,
  type RefereeClient,
  type SeatAction,
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
  describe(`issue #9 calls over ${transport}`, () => {
    let client: RefereeClient;
    let actions: SeatAction[];
    let options: Record<string, string>;
    let state: GameState;

    before(async () => {
      client = createRefereeClient(server.baseUrl, { transport });
      // The recorded game 132002 up to IRSFF's first tile (action id 190).
      const text = readFileSync(new URL("./data/18xx_1841_132002.json", import.meta.url), "utf8");
      const imported = await client.importGame(text, { stopAtActionId: 189 });
      assert.equal(imported.failure, undefined);
      actions = imported.actions;
      options = imported.options;
      state = imported.state!;
    });

    it("applyBatch equals Replay and stops at a refused action", async () => {
      const start = await client.newGame("1841", 4, options);
      const batch = await client.applyBatch(start, actions);
      assert.equal(batch.failure, undefined);
      assert.equal(batch.actionsApplied, BigInt(actions.length));
      assert.ok(batch.state && batch.state.actionCount === state.actionCount);
      const bad = [...actions.slice(0, 10), actions[9], ...actions.slice(11, 20)];
      const cut = await client.applyBatch(start, bad);
      assert.equal(cut.failure?.index, 10);
      assert.equal(cut.actionsApplied, 10n);
    });

    it("streamReplay yields the setup and every action", async () => {
      const counts: bigint[] = [];
      let last = false;
      for await (const m of client.streamReplay("1841", 4, actions.slice(0, 25), { options, every: 5 })) {
        if (m.state) counts.push(m.actionCount);
        last = m.last;
      }
      assert.deepEqual(counts, [0n, 5n, 10n, 15n, 20n, 25n]);
      assert.ok(last);
    });

    it("playout is reproducible", async () => {
      const ab = await client.newGame("autobahn", 2, {}, 6);
      const a = await client.playout(ab, { games: 2, seed: 6, includeActions: true });
      const b = await client.playout(ab, { games: 2, seed: 6, includeActions: true });
      assert.equal(a.gamesPlayed, 2);
      assert.deepEqual(
        a.seats.map((s) => [s.wins, s.meanScore]),
        b.seats.map((s) => [s.wins, s.meanScore]),
      );
      assert.equal(a.played[0].actions.length, b.played[0].actions.length);
    });

    it("playout and defaultAction take the server's bots by name", async () => {
      const ab = await client.newGame("autobahn", 3, {}, 4);
      const p = await client.playout(ab, { games: 1, seed: 4, policy: "builder" });
      assert.equal(p.gamesPlayed, 1);
      const q = await client.playout(ab, { games: 1, seed: 4, policy: "builder" });
      assert.deepEqual(
        p.seats.map((s) => s.meanScore),
        q.seats.map((s) => s.meanScore),
      );
      const seat = (await client.legalActions(ab, 0)).toAct[0];
      for (const name of POLICY_NAMES) {
        const d = await client.defaultAction(ab, seat, name, 3);
        assert.ok((await client.apply(ab, seat, d.action!)).accepted, name);
      }
      await assert.rejects(client.defaultAction(ab, seat, "no-such-bot"), /builder/);
    });

    it("suggestRoutes, defaultAction and describe on IRSFF's turn", async () => {
      const routes = await client.suggestRoutes(state, "IRSFF");
      assert.equal(routes.corporation, "IRSFF");
      assert.ok(routes.provenOptimal);
      const seat = (await client.legalActions(state, 0)).toAct[0];
      const d = await client.defaultAction(state, seat);
      const applied = await client.apply(state, seat, d.action!);
      assert.ok(applied.accepted);
      const r = await client.defaultAction(state, seat, "random", 9);
      assert.ok((await client.apply(state, seat, r.action!)).accepted);
      const text = await client.describe(state, seat, g1841.layTile("E9", "202", 5));
      assert.equal(text.text, "IRSFF lays tile 202 on E9 (Bergamo), rotation 5, for L.0");
      assert.ok(text.legal);
      const other = await client.describe(state, (seat + 1) % 4, g1841.pass());
      assert.equal(other.legal, false);
      assert.equal(other.rejection?.code, RejectionCode.NOT_YOUR_TURN);
    });

    it("viewAs: spectator hides Autobahn's deck, arbiter needs the server flag", async () => {
      const ab = await client.newGame("autobahn", 2, {}, 1);
      const v = await client.viewAs(ab, "spectator");
      assert.equal(v.view.case, "autobahn");
      const st = v.view.value!.state!;
      assert.equal(st.cardDeck.length, 0);
      assert.ok(st.cardDeckCount > 0);
      await assert.rejects(client.viewAs(ab, { arbiter: true }), /arbiter/);
      const seatView = await client.viewAs(ab, 1);
      assert.equal(seatView.view.case, "autobahn");
    });
  });
}
