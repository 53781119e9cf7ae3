// A bot that plays a whole game of Autobahn against a running Referee server: every seat plays a
// seeded random legal action (or, with --policy NAME, the move of the server's bot NAME:
// heuristic, balanced, builder, network, trucker, finance — POLICY_NAMES) until the game has a
// result, then the final scores are printed.
//
//   REFEREE_URL=http://127.0.0.1:50051 npx tsx examples/bot.ts [--seats 3] [--seed 1] [--max-moves 1000] [--policy random]
//   REFEREE_TRANSPORT=grpc-web ...                                  (gRPC-Web instead of gRPC)
//
// Exit status 0 when the game finished, 1 otherwise.
import { parseArgs } from "node:util";
import {
  createRefereeClient,
  describeAction,
  nextTurn,
  randomAction,
  rejectionCodeName,
  seededRandom,
  type TransportKind,
} from "../src/index.js";

const { values } = parseArgs({
  options: {
    seats: { type: "string", default: "3" },
    seed: { type: "string", default: "1" },
    "max-moves": { type: "string", default: "1000" },
    verbose: { type: "boolean", default: false },
    policy: { type: "string", default: "random" },
  },
});
const seats = Number(values.seats);
const seed = Number(values.seed);
const maxMoves = Number(values["max-moves"]);

const baseUrl = process.env.REFEREE_URL ?? "http://127.0.0.1:50051";
const transport = (process.env.REFEREE_TRANSPORT ?? "grpc") as TransportKind;
const client = createRefereeClient(baseUrl, { transport });
const rnd = seededRandom(seed);

// The server keeps nothing: this variable is the game.
let state = await client.newGame("autobahn", seats, {}, seed);
console.log(`autobahn, ${seats} seats, seed ${seed}, on ${baseUrl} (${transport})`);

let seat = 0;
let moves = 0;
let rejections = 0;
for (;;) {
  const turn = await nextTurn(client, state, seat);
  if (!turn) break; // nobody to act: the game is over
  if (moves >= maxMoves) break;
  seat = turn.seat;
  const action =
    values.policy === "random"
      ? randomAction(turn.legal, rnd)!
      : (await client.defaultAction(state, seat, values.policy, seed * 100_003 + moves)).action!;
  const res = await client.apply(state, seat, action);
  if (res.rejected) {
    // Cannot happen for a listed action; a real bot would choose again.
    rejections++;
    console.log(`seat ${seat}: ${describeAction(action)} rejected: ${rejectionCodeName(res.rejection.code)} ${res.rejection.message}`);
    if (rejections > 10) break;
    continue;
  }
  state = res.state;
  moves++;
  if (values.verbose) console.log(`${moves}. seat ${seat}: ${describeAction(action)}`);
}

const view = await client.view(state);
if (view.outcome) {
  const { scores, ranks, endReason } = view.outcome;
  console.log(`finished after ${moves} moves (${endReason})`);
  scores.forEach((s, i) => console.log(`  seat ${i}: ${s} VP, rank ${ranks[i]}`));
} else {
  console.log(`not finished after ${moves} moves; to act: ${view.toAct.join(", ") || "nobody"}`);
  process.exitCode = 1;
}
