// Plays the first moves of a 4-player game of 1841 against a running Referee server.
//
//   REFEREE_URL=http://127.0.0.1:50051 npm run example            (gRPC over HTTP/2)
//   REFEREE_URL=http://127.0.0.1:50051 REFEREE_TRANSPORT=grpc-web npm run example
import {
  createRefereeClient,
  g1841,
  rejectionCodeName,
  type TransportKind,
} from "../src/index.js";

const baseUrl = process.env.REFEREE_URL ?? "http://127.0.0.1:50051";
const transport = (process.env.REFEREE_TRANSPORT ?? "grpc") as TransportKind;
const client = createRefereeClient(baseUrl, { transport });

const games = await client.listGames();
console.log(`games on ${baseUrl} (${transport}):`);
for (const g of games) console.log(`  ${g.id}: ${g.displayName}, ${g.minPlayers}-${g.maxPlayers} players`);

// The caller keeps the state and sends it with every call.
let state = await client.newGame("1841", 4);
const spectator = await client.view(state);
console.log(`whose turn: seat ${spectator.toAct.join(", ")}`);

const seat = spectator.toAct[0];
const mine = await client.legalActions(state, seat);
if (mine.legalActions.case !== "g1841") throw new Error("not a game of 1841");
const { actions, bids } = mine.legalActions.value;
console.log(`seat ${seat} may:`);
for (const a of actions) console.log(`  ${a.action.case}`);
for (const b of bids) console.log(`  bid on ${b.concession}: L.${b.minPrice}..L.${b.maxPrice}`);

// The first legal bid, at its lowest price.
const first = bids[0];
const res = await client.apply(state, seat, g1841.bid(first.concession, first.minPrice));
if (!res.accepted) throw new Error(`bid refused: ${res.rejection.message}`);
state = res.state;
console.log(`seat ${seat} bids L.${first.minPrice} on ${first.concession}: accepted, ${res.events.length} event(s), action_count ${state.actionCount}`);

// An illegal bid: the same seat again, under the minimum.
const bad = await client.apply(state, seat, g1841.bid(first.concession, 5));
if (bad.rejected) {
  const r = bad.rejection;
  console.log(`seat ${seat} bids L.5: rejected, ${rejectionCodeName(r.code)}: ${r.message}${r.rule ? ` (${r.rule})` : ""}`);
} else {
  console.log("seat bids L.5: unexpectedly accepted");
  process.exitCode = 1;
}
