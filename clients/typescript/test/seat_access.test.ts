// Seat credentials and caller views against a real sealed-mode server (docs/SECURITY.md, "Seat
// access in sealed mode"), over gRPC and gRPC-Web: startGame, withCredential, callerView.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  CREDENTIAL_HEADER,
  createRefereeClient,
  credentialCallOptions,
  credentialSeat,
  flattenLegal,
  g1841,
  isSealed,
  nextTurn,
  type RefereeClient,
  type TransportKind,
  type ViewResponse,
} from "../src/index.js";
import { refereeBin, startServer, type RunningServer } from "./server.js";

let sealedServer: RunningServer;
let openServer: RunningServer;
let arbiter = "";
const dir = mkdtempSync(join(tmpdir(), "referee-ts-seal-"));

before(async () => {
  const keys = join(dir, "keys");
  // A test key: never use a published key.
  writeFileSync(keys, `node:${"4d".repeat(32)}\n`, { mode: 0o600 });
  sealedServer = await startServer(["--seal-key-file", keys]);
  openServer = await startServer();
  const out = spawnSync(refereeBin(), ["credential", "--seal-key-file", keys], { encoding: "utf8" });
  assert.equal(out.status, 0, out.stderr);
  arbiter = out.stdout.trim();
});

after(async () => {
  await sealedServer?.stop();
  await openServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Seat → sealed-bid amounts as the view shows them (empty: hidden or not submitted). */
function bids(view: ViewResponse | undefined): Record<number, number[]> {
  assert.ok(view && view.view.case === "g1841", "a 1841 view");
  const round = view.view.value.state!.round;
  assert.equal(round.case, "concessionRound");
  return Object.fromEntries(round.value.sealedBids.map((b) => [b.seat, b.amounts.map(Number)]));
}

async function denied(p: Promise<unknown>, code: Code) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ConnectError, String(e));
    assert.equal(e.code, code, e.message);
    return true;
  });
}

const transports: TransportKind[] = ["grpc", "grpc-web"];
for (const transport of transports) {
  describe(`seat access over ${transport}`, () => {
    let ref: RefereeClient;
    before(() => {
      ref = createRefereeClient(sealedServer.baseUrl, { transport });
    });

    it("startGame deals one credential per seat; a seat sees its own bid only", async () => {
      const game = await ref.startGame("1841", 3, { version_1: true });
      assert.ok(game.sealed && isSealed(game.state));
      assert.deepEqual(game.seatCredentials.map((c) => c.split(":")[0]), ["seat-0", "seat-1", "seat-2"]);
      assert.deepEqual(bids(game.callerView), { 0: [], 1: [], 2: [] });
      const [seat0, seat1] = game.seatCredentials.map((c) => ref.withCredential(c));
      assert.equal(seat0.credential, game.seatCredentials[0]);
      const legal = flattenLegal(await seat0.legalActions(game.state, 0));
      const amounts = [37, ...legal.blindBid!.concessions.slice(1).map(() => 0)];
      const step = await seat0.apply(game.state, 0, legal.blindBid!.action(amounts));
      assert.ok(step.accepted);
      assert.ok(step.state instanceof Uint8Array);
      assert.deepEqual(bids(step.callerView)[0], amounts);
      // Seat 1: seat 0 has bid, but how much is not shown.
      const v1 = await seat1.view(step.state, 1);
      assert.deepEqual(bids(v1)[0], []);
      assert.deepEqual([...v1.toAct], [1, 2]);
      const step1 = await seat1.apply(step.state, 1, g1841.blindBid(amounts.map(() => 0)));
      assert.ok(step1.accepted);
      assert.deepEqual(bids(step1.callerView)[0], []);
      // The arbiter sees every bid.
      const arb = ref.withCredential(arbiter);
      assert.deepEqual(bids(await arb.viewAs(step1.state, { arbiter: true }))[0], amounts);
    });

    it("nextTurn with a seat credential asks only as that seat", async () => {
      const game = await ref.startGame("1841", 3, { version_1: true });
      assert.deepEqual(game.seatCredentials.map(credentialSeat), [0, 1, 2]);
      const [seat0, , seat2] = game.seatCredentials.map((c) => ref.withCredential(c));
      // Version 1 sealed bids: every seat bids at once; seat 2's own turn, whatever the hint.
      const mine = await nextTurn(seat2, game.state, 0);
      assert.equal(mine?.seat, 2);
      assert.ok(mine?.legal.blindBid, "seat 2 may bid");
      const amounts = mine.legal.blindBid.concessions.map(() => 0);
      const step = await seat2.apply(game.state, 2, mine.legal.blindBid.action(amounts));
      assert.ok(step.accepted && step.state instanceof Uint8Array);
      // Seat 2 has bid: another seat must act, and seat 2 is not asked for its actions.
      const waiting = await nextTurn(seat2, step.state, 0);
      assert.equal(waiting?.seat, 0);
      assert.equal(waiting?.legal.size, 0);
      assert.equal(waiting?.legal.blindBid, undefined);
      // Seat 0 still gets its own turn.
      assert.equal((await nextTurn(seat0, step.state, 2))?.seat, 0);
    });

    it("a seat cannot look or act as another; bad credentials are refused", async () => {
      const game = await ref.startGame("1841", 3, { version_1: true });
      const seat1 = ref.withCredential(game.seatCredentials[1]);
      await denied(seat1.view(game.state, 0), Code.PermissionDenied);
      await denied(seat1.legalActions(game.state, 2), Code.PermissionDenied);
      await denied(seat1.apply(game.state, 0, g1841.blindBid([0])), Code.PermissionDenied);
      await denied(seat1.viewAs(game.state, { arbiter: true }), Code.PermissionDenied);
      await denied(ref.view(game.state, 1), Code.PermissionDenied); // no credential: a spectator
      const other = (await ref.startGame("1841", 3, { version_1: true })).seatCredentials[1];
      await denied(ref.withCredential(other).view(game.state, 1), Code.Unauthenticated);
      await denied(ref.withCredential("seat-1:nokey:00").view(game.state, 1), Code.Unauthenticated);
      // The raw client takes the header through credentialCallOptions.
      const raw = await seat1.raw.view({ sealedState: game.state as Uint8Array, seat: 1 }, credentialCallOptions(seat1.credential));
      assert.deepEqual([...raw.toAct].sort(), [0, 1, 2]);
      assert.deepEqual(credentialCallOptions(" c "), { headers: { [CREDENTIAL_HEADER]: "c" } });
      assert.throws(() => credentialCallOptions("seat-0:k\nx"));
    });

    it("a refused action carries its rule and no view; bots by policy name", async () => {
      const game = await ref.startGame("autobahn", 2);
      const seat0 = ref.withCredential(game.seatCredentials[0]);
      const res = await seat0.apply(game.state, 0, { action: { case: "autobahn", value: { action: { case: "takeBackCards", value: {} } } } });
      assert.ok(res.rejected);
      assert.match(res.rejection.rule, /./);
      // DefaultAction with a named policy (Autobahn has `heuristic`), then Apply as that seat.
      const who = (await seat0.view(game.state, 0)).toAct[0];
      const bot = ref.withCredential(game.seatCredentials[who]);
      const move = await bot.defaultAction(game.state, who, "heuristic", 1);
      const applied = await bot.apply(game.state, who, move.action!);
      assert.ok(applied.accepted && applied.callerView);
      // A seat's view hides the deck order (counts stay).
      assert.ok(applied.callerView.view.case === "autobahn");
      const st = applied.callerView.view.value.state!;
      assert.equal(st.cardDeck.length, 0);
      assert.ok(st.cardDeckCount > 0);
    });
  });
}

describe("open mode", () => {
  it("startGame answers the clear state, no credentials, no caller view; credentials are ignored", async () => {
    const ref = createRefereeClient(openServer.baseUrl, { credential: "seat-1:whatever:00" });
    const game = await ref.startGame("1841", 3, {}, 5);
    assert.ok(!game.sealed && !isSealed(game.state));
    assert.deepEqual(game.seatCredentials, []);
    assert.equal(game.callerView, undefined);
    const step = await ref.apply(game.state, 0, g1841.bid("Bayard", 20));
    assert.ok(step.accepted);
    assert.equal(step.state.actionCount, 1n);
    assert.equal(step.callerView, undefined);
  });
});
