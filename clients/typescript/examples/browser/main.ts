// Browser example: starts a game over gRPC-Web and shows whose turn it is, the legal actions of
// that seat (click one to play it) and the log of what happened. The state lives in this page:
// the server keeps nothing. Bundled and served by serve.ts; the server must allow this page's
// origin (`referee serve --cors-origins http://127.0.0.1:8080`).
import {
  createRefereeClient,
  describeAction,
  describeEvent,
  nextTurn,
  randomAction,
  rejectionCodeName,
  seededRandom,
  type Action,
  type GameState,
  type NextTurn,
} from "../../src/web.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
$<HTMLInputElement>("server").value = params.get("server") ?? "http://127.0.0.1:50051";
$<HTMLSelectElement>("game").value = params.get("game") ?? "autobahn";
$<HTMLInputElement>("seats").value = params.get("seats") ?? "3";
$<HTMLInputElement>("seed").value = params.get("seed") ?? "1";

const SHOWN = 60; // Autobahn can list hundreds of actions: show the first ones

let client = createRefereeClient($<HTMLInputElement>("server").value);
let state: GameState | undefined;
let turn: NextTurn | undefined;
let rnd = seededRandom(1);
let busy = false;

function log(text: string, cls = ""): void {
  const li = document.createElement("li");
  li.textContent = text;
  if (cls) li.className = cls;
  const ol = $("log");
  ol.append(li);
  ol.scrollTop = ol.scrollHeight;
}

function showError(e: unknown): void {
  let text = e instanceof Error ? e.message : String(e);
  // A browser reports a refused cross-origin call (no CORS) only as a failed fetch.
  if (/failed to fetch|networkerror|load failed/i.test(text)) {
    text += ` — is the Referee server running at ${$<HTMLInputElement>("server").value}, and does it allow this page's` +
      ` origin? Start it with: referee serve --cors-origins ${location.origin}`;
  }
  $("error").textContent = text;
  document.body.dataset.status = "error";
}

async function render(): Promise<void> {
  if (!state) return;
  turn = await nextTurn(client, state, turn?.seat ?? 0);
  const list = $("legal");
  list.replaceChildren();
  if (!turn) {
    const view = await client.view(state);
    $("current").textContent = view.outcome ? "Game over" : "Nobody can act";
    $("outcome").textContent = view.outcome
      ? `scores: ${view.outcome.scores.map((s, i) => `seat ${i}: ${s} (rank ${view.outcome!.ranks[i]})`).join(", ")} — ${view.outcome.endReason}`
      : "";
    $("legal-count").textContent = "";
    document.body.dataset.status = "over";
    return;
  }
  $("current").textContent = `Seat ${turn.seat} to act (action ${state.actionCount})`;
  $("legal-count").textContent = `(${turn.legal.size})`;
  const entries: Array<[string, () => Action]> = [
    ...turn.legal.actions.map((a): [string, () => Action] => [describeAction(a), () => a]),
    ...turn.legal.ranges.map((r): [string, () => Action] => [`${r.kind} ${r.target} at ${r.min} (${r.min}..${r.max})`, () => r.action(r.min)]),
  ];
  if (turn.legal.blindBid) {
    const bb = turn.legal.blindBid;
    entries.push([`blindBid: nothing on ${bb.concessions.join(", ")}`, () => bb.action(bb.concessions.map(() => 0))]);
  }
  for (const [text, make] of entries.slice(0, SHOWN)) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = text;
    b.onclick = () => void play(make());
    li.append(b);
    list.append(li);
  }
  if (entries.length > SHOWN) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = `… and ${entries.length - SHOWN} more`;
    list.append(li);
  }
  document.body.dataset.status = "playing";
}

async function play(action: Action): Promise<boolean> {
  if (!state || !turn || busy) return false;
  busy = true;
  try {
    const seat = turn.seat;
    const res = await client.apply(state, seat, action);
    if (res.rejected) {
      // A refusal is a normal answer: the state is unchanged, show why.
      log(`seat ${seat}: ${describeAction(action)} — rejected: ${rejectionCodeName(res.rejection.code)}: ${res.rejection.message}`, "muted");
      return false;
    }
    state = res.state;
    log(`seat ${seat}: ${describeAction(action)}${res.events.length ? " → " + res.events.map(describeEvent).join("; ") : ""}`);
    $("error").textContent = "";
    await render();
    return true;
  } catch (e) {
    showError(e);
    return false;
  } finally {
    busy = false;
  }
}

async function newGame(): Promise<void> {
  try {
    client = createRefereeClient($<HTMLInputElement>("server").value);
    const game = $<HTMLSelectElement>("game").value;
    const seats = Number($<HTMLInputElement>("seats").value);
    const seed = Number($<HTMLInputElement>("seed").value);
    rnd = seededRandom(seed);
    turn = undefined;
    $("log").replaceChildren();
    $("outcome").textContent = "";
    $("error").textContent = "";
    state = await client.newGame(game, seats, {}, seed);
    log(`new game: ${game}, ${seats} seats, seed ${seed}`);
    await render();
  } catch (e) {
    $("current").textContent = "no game";
    showError(e);
  }
}

async function randomMoves(n: number): Promise<void> {
  for (let i = 0; i < n && turn; i++) {
    const a = randomAction(turn.legal, rnd);
    if (!a || !(await play(a))) break;
  }
}

$("new").onclick = () => void newGame();
$("random").onclick = () => void randomMoves(1);
$("random10").onclick = () => void randomMoves(10);
void newGame();
