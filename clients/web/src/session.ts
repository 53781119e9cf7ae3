// One game on the page: its setup, every state so far (undo keeps them on the client; the server
// stays stateless), the log in plain words, and the turn loop (people act through the page,
// bot seats through the server's DefaultAction with the best policy the server has for the game).
//
// Open mode: the states are clear `GameState`s and any seat's View may be drawn.
// Sealed mode (a server with --seal-key-file; docs/SECURITY.md "Seat access in sealed mode"): the
// states are sealed tokens the page cannot read; the page keeps the seat credentials NewGame deals
// to its creator and sends the acting seat's with each call, so every view the page receives is
// that seat's (or a spectator's). Between two people a hand-over screen hides the board until the
// next person takes the seat; the page never asks for, keeps or draws another seat's view.
import { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  ActionSchema,
  flattenLegal,
  isSealed,
  type Action,
  type Legal,
  type RefereeClient,
  type Rejection,
  type StateRef,
  type ViewResponse,
} from "@referee/client";

/**
 * The policies of the server's bots (DefaultAction), best first: `heuristic` where the server
 * has one for the game, else `random` (learnt from the server's answer, once per game).
 */
export const BOT_POLICIES = ["heuristic", "random"] as const;
const botPolicyByGame = new Map<string, string>();

/** The policy the server's bots play for `game`, once learnt (undefined before). */
export function knownBotPolicy(game: string): string | undefined {
  return botPolicyByGame.get(game);
}

/** The bot policy in use for `game` (the best one the server has answered with so far). */
export function botPolicy(game: string): string {
  return botPolicyByGame.get(game) ?? BOT_POLICIES[0];
}

/**
 * Learns, once per game, which policy the server's bots play, so that the page says so before the
 * first bot move: a DefaultAction with `heuristic` for the seat to act (the server checks the
 * seat before the policy, so it must be that seat; its answer is dropped unread). A server
 * without `heuristic` for the game answers INVALID_ARGUMENT naming `policy_name`: `random`.
 */
async function learnBotPolicy(s: Session): Promise<void> {
  const game = s.setup.game;
  if (!s.setup.kinds.includes("bot") || botPolicyByGame.has(game)) return;
  try {
    const toAct = (await s.client.view(s.state)).toAct;
    if (toAct.length === 0) return;
    await s.clientFor(toAct[0]).defaultAction(s.state, toAct[0], BOT_POLICIES[0], 0);
    botPolicyByGame.set(game, BOT_POLICIES[0]);
  } catch (e) {
    if (e instanceof ConnectError && e.code === Code.InvalidArgument && e.rawMessage.includes("policy_name")) {
      botPolicyByGame.set(game, "random");
    }
    // Anything else: unknown yet; the first bot move learns it.
  }
}

/** Who plays a seat: a person at this screen, or the server's bot. */
export type SeatKind = "human" | "bot";

/** What NewGame needs, plus who plays each seat. */
export interface Setup {
  game: string;
  seats: number;
  options: Record<string, string>;
  /**
   * NewGame's seed; undefined lets a sealed server draw a secret one (open mode: 0, stored
   * here once the game has started so that a saved game replays).
   */
  seed?: number;
  kinds: SeatKind[];
  /** Seat names for people. */
  names: string[];
}

/** One applied action in the log. */
export interface Entry {
  seat: number;
  /** The action; in sealed mode a sealed bid is kept without its amounts (a secret of its seat). */
  action: Action;
  text: string;
}

/** A saved game file of open mode (Save / Load): the setup and the moves, replayed on load. */
export interface SaveFile {
  format: "referee-web-save/1";
  setup: Setup;
  actions: Array<{ seat: number; action: JsonValue; text: string }>;
}

/**
 * A saved game file of sealed mode: the sealed token of the position (a secret seed cannot be
 * replayed), every seat's credential (whoever has the file can play every seat: keep it like the
 * game), and the log.
 */
export interface SealedSaveFile {
  format: "referee-web-sealed/1";
  setup: Setup;
  /** The sealed token, base64. */
  token: string;
  credentials: string[];
  log: Array<{ seat: number; action: JsonValue; text: string }>;
}

/** Whose view the page draws: a seat, a spectator, or `auto` (hot seat: the seat to act). */
export type Viewer = number | "spectator" | "auto";

function toBase64(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(t: string): Uint8Array {
  const s = atob(t);
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

/**
 * An error as a person reads it. The page's own origin proxies the API: when the server is down
 * (or refused the request unread) the proxy answers a bare HTTP 5xx, which Connect reports as
 * `[unknown] HTTP 500`; say what that means. The game on the page is kept: act again once the
 * server is back.
 */
export function errorText(e: unknown): string {
  if (e instanceof ConnectError && e.code === Code.Unknown && /HTTP 50[0234]/.test(e.rawMessage)) {
    return `the Referee server does not answer (${e.rawMessage} from the page's proxy): the game is kept on this page; try again when the server is back`;
  }
  return String(e);
}

/** The action as the page keeps it in sealed mode: a sealed bid without its amounts. */
function publicAction(action: Action, sealed: boolean): Action {
  const a = action.action;
  if (sealed && a.case === "g1841" && a.value.action.case === "blindBid") {
    return create(ActionSchema, { action: { case: "g1841", value: { action: { case: "blindBid", value: { amounts: [] } } } } });
  }
  return action;
}

export class Session {
  /**
   * `states[i]` is the state after `log[undoFloor + i - 1]`; `states[0]` is the setup (or the
   * position a sealed save file was loaded at). Sealed: tokens.
   */
  states: StateRef[];
  log: Entry[] = [];
  /** Log entries before `states[0]` (a loaded sealed game): undo stops there. */
  undoFloor = 0;
  /** Actions of an imported game not watched yet (watch mode). */
  queue: Array<{ seat: number; action: Action }> = [];
  /** Last rejection of a person's action (shown with its rule). */
  rejection?: Rejection & { text: string };
  view?: ViewResponse;
  /** Seat whose legal actions are on screen (a person's seat that must act). */
  actingSeat?: number;
  legal?: Legal;
  viewer: Viewer = "auto";
  /** Bots play on by themselves. */
  autoplay = true;
  /** Milliseconds between bot moves. */
  botDelay = 150;
  busy = false;
  error = "";
  /** Sealed mode: the states are tokens and each seat calls with its own credential. */
  readonly sealed: boolean;
  /**
   * Sealed hot seat: the person now at the screen (whose view is drawn), and the seat waiting
   * on the hand-over screen for its person to take the screen (nothing of the game is drawn then).
   */
  atScreen?: number;
  handOver?: number;
  private clients: RefereeClient[] = [];
  private credentials: string[] = [];
  private timer?: ReturnType<typeof setTimeout>;
  private generation = 0;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly client: RefereeClient,
    readonly setup: Setup,
    initial: StateRef,
    readonly onChange: () => void,
    seatCredentials: string[] = [],
  ) {
    this.states = [initial];
    this.sealed = isSealed(initial);
    if (this.sealed) {
      if (seatCredentials.length !== setup.seats) throw new Error(`sealed mode: ${seatCredentials.length} seat credentials for ${setup.seats} seats`);
      this.credentials = [...seatCredentials];
      this.clients = seatCredentials.map((c) => client.withCredential(c));
    }
  }

  /** The client that calls as `seat` (sealed mode: with its credential; open mode: the client). */
  clientFor(seat: number): RefereeClient {
    return this.sealed ? this.clients[seat] : this.client;
  }

  get state(): StateRef {
    return this.states[this.states.length - 1];
  }

  get over(): boolean {
    const o = this.view?.outcome;
    return !!o && (o.ranks.length > 0 || o.endReason !== "");
  }

  /** An imported game watched move by move (no one acts; Next applies the recorded actions). */
  isImport = false;

  /** People at this screen. */
  get humans(): number[] {
    return this.setup.kinds.flatMap((k, i) => (k === "human" ? [i] : []));
  }

  /** The seat drawn: the chosen one, else (auto) the person who must act, else a spectator. */
  viewSeat(): number | undefined {
    if (this.sealed) {
      // Only the person at the screen, or a spectator's view.
      if (this.viewer === "spectator" || this.isImport || this.handOver !== undefined) return undefined;
      return this.atScreen;
    }
    if (typeof this.viewer === "number") return this.viewer;
    if (this.viewer === "spectator") return undefined;
    return this.actingSeat;
  }

  /** Reloads view and legal actions of the last state, then lets a bot move if it is a bot's turn. */
  async refresh(): Promise<void> {
    const gen = ++this.generation;
    clearTimeout(this.timer);
    const state = this.state;
    try {
      // A spectator's view: who acts, and the outcome (no credential needed).
      const spectator = await this.client.view(state);
      const toAct = [...spectator.toAct];
      const humans = toAct.filter((s) => this.setup.kinds[s] === "human");
      const actingSeat = this.isImport ? undefined : humans[0];
      const over = !!spectator.outcome && (spectator.outcome.ranks.length > 0 || spectator.outcome.endReason !== "");
      if (gen !== this.generation) return;
      this.actingSeat = actingSeat;
      if (this.sealed && !this.isImport) {
        // Hot seat: a person other than the one at the screen must act → hand-over screen.
        // With one person at the table, that person stays at the screen.
        if (this.humans.length === 1) this.atScreen = this.humans[0];
        if (actingSeat !== undefined && actingSeat !== this.atScreen && !over) {
          this.handOver = actingSeat;
          this.legal = undefined;
          this.view = undefined;
          this.error = "";
          this.onChange();
          return;
        }
        this.handOver = undefined;
      }
      // Read as the seat to act and the seat drawn; nothing is kept unless this is still the
      // latest refresh (a stale answer must not overwrite a hand-over).
      const legal = actingSeat === undefined ? undefined : flattenLegal(await this.clientFor(actingSeat).legalActions(state, actingSeat));
      const seat = this.viewSeat();
      const view = seat === undefined ? spectator : await this.clientFor(seat).view(state, seat);
      if (gen !== this.generation) return;
      this.legal = legal;
      this.view = view;
      this.error = "";
      this.onChange();
      if (over || this.isImport) return;
      const bot = toAct.find((s) => this.setup.kinds[s] === "bot");
      if (bot !== undefined && this.autoplay) {
        this.timer = setTimeout(() => void this.botMove(bot, gen), this.botDelay);
      }
    } catch (e) {
      if (gen !== this.generation) return;
      this.error = errorText(e);
      this.onChange();
    }
  }

  /**
   * Runs the moves one at a time, each on the state left by the one before (a person may act
   * while a bot's move is on its way: 1841 Version 1 sealed bids are simultaneous).
   */
  private exclusive<T>(f: () => Promise<T>): Promise<T> {
    const p = this.chain.then(f, f);
    this.chain = p.catch(() => undefined);
    return p;
  }

  /** Sealed hot seat: the person of the seat on the hand-over screen has taken the screen. */
  async takeSeat(): Promise<void> {
    if (this.handOver === undefined) return;
    this.atScreen = this.handOver;
    this.handOver = undefined;
    this.rejection = undefined;
    await this.refresh();
  }

  /**
   * One move of a bot seat: the server's DefaultAction with the best policy it has for the game
   * (seeded by the move number), applied as that seat. In sealed mode the answer carries the
   * bot seat's view (`callerView`): the page drops it unread.
   */
  async botMove(seat: number, gen = this.generation): Promise<void> {
    const moved = await this.exclusive(async () => {
      if (gen !== this.generation) return false;
      const state = this.state;
      const c = this.clientFor(seat);
      const seed = (this.setup.seed ?? 0) * 100_003 + this.log.length;
      let move;
      try {
        move = await c.defaultAction(state, seat, botPolicy(this.setup.game), seed);
      } catch (e) {
        // A server without `heuristic` for this game answers INVALID_ARGUMENT: use `random`.
        if (e instanceof ConnectError && e.code === Code.InvalidArgument && botPolicy(this.setup.game) !== "random") {
          botPolicyByGame.set(this.setup.game, "random");
          move = await c.defaultAction(state, seat, "random", seed);
        } else {
          throw e;
        }
      }
      if (gen !== this.generation || !move.action) return false;
      const res = await c.apply(state, seat, move.action);
      if (gen !== this.generation) return false;
      if (!res.accepted) throw new Error(`${res.rejection.message} (${res.rejection.rule})`);
      this.push(seat, move.action, move.description || `Seat ${seat} moves`, res.state);
      return true;
    }).catch((e) => {
      this.error = `bot seat ${seat}: ${e instanceof ConnectError ? errorText(e) : e instanceof Error ? e.message : String(e)}`;
      this.onChange();
      return false;
    });
    if (moved) await this.refresh();
  }

  private push(seat: number, action: Action, text: string, state: StateRef) {
    this.log.push({ seat, action: publicAction(action, this.sealed), text });
    this.states.push(state);
    this.rejection = undefined;
  }

  /** A person's action: described, then applied; a refusal is shown with its rule. */
  async act(seat: number, action: Action): Promise<boolean> {
    this.busy = true;
    this.error = ""; // an earlier error is not this action's
    this.onChange();
    try {
      const ok = await this.exclusive(async () => {
        const state = this.state;
        const c = this.clientFor(seat);
        const d = await c.describe(state, seat, action);
        const res = await c.apply(state, seat, action);
        if (!res.accepted) {
          this.rejection = { ...res.rejection, text: d.text };
          return false;
        }
        this.push(seat, action, d.text, res.state);
        return true;
      });
      if (ok) await this.refresh();
      return ok;
    } catch (e) {
      this.error = errorText(e);
      return false;
    } finally {
      this.busy = false;
      this.onChange();
    }
  }

  /** Whether there is a move to take back. */
  get canUndo(): boolean {
    return this.log.length > this.undoFloor;
  }

  /** Takes back the last move of a person (and the bot moves after it). */
  async undo(): Promise<void> {
    if (!this.canUndo) return;
    this.autoplay = false;
    this.stop(); // a bot move on its way is dropped
    await this.exclusive(async () => {
      do {
        const e = this.log.pop();
        this.states.pop();
        if (e && this.setup.kinds[e.seat] === "human") break;
      } while (this.canUndo);
    });
    await this.refresh();
  }

  /** Watch mode: applies the next recorded action. */
  async step(): Promise<boolean> {
    const next = this.queue[0];
    if (!next) return false;
    const state = this.state;
    const c = this.clientFor(next.seat);
    const d = await c.describe(state, next.seat, next.action);
    const res = await c.apply(state, next.seat, next.action);
    if (!res.accepted) {
      this.rejection = { ...res.rejection, text: d.text };
      this.onChange();
      return false;
    }
    this.queue.shift();
    this.push(next.seat, next.action, d.text, res.state);
    await this.refresh();
    return true;
  }

  /** Watch mode: one step back (the action goes back on the queue). */
  async stepBack(): Promise<void> {
    if (!this.canUndo) return;
    const e = this.log.pop();
    if (!e) return;
    this.states.pop();
    this.queue.unshift({ seat: e.seat, action: e.action });
    await this.refresh();
  }

  stop() {
    this.generation++;
    clearTimeout(this.timer);
  }

  save(): SaveFile | SealedSaveFile {
    const log = this.log.map((e) => ({ seat: e.seat, action: toJson(ActionSchema, e.action), text: e.text }));
    const state = this.state;
    if (isSealed(state)) {
      return { format: "referee-web-sealed/1", setup: this.setup, token: toBase64(state), credentials: this.credentials, log };
    }
    return { format: "referee-web-save/1", setup: this.setup, actions: log };
  }
}

/** Starts a new game (open or sealed, as the server runs). */
export async function startSession(client: RefereeClient, setup: Setup, onChange: () => void): Promise<Session> {
  const game = await client.startGame(setup.game, setup.seats, setup.options, setup.seed);
  // Open mode: record the seed used, so a saved game replays.
  const s = new Session(client, game.sealed ? setup : { ...setup, seed: setup.seed ?? 0 }, game.state, onChange, game.seatCredentials);
  await learnBotPolicy(s);
  await s.refresh();
  return s;
}

/**
 * Loads a saved game. Open-mode files are replayed on the server, keeping every state (so undo
 * works after loading); sealed-mode files resume from their token.
 */
export async function loadSession(client: RefereeClient, file: SaveFile | SealedSaveFile, onChange: () => void): Promise<Session> {
  if (file.format === "referee-web-sealed/1") {
    const s = new Session(client, file.setup, fromBase64(file.token), onChange, file.credentials);
    s.log = file.log.map((e) => ({ seat: e.seat, action: fromJson(ActionSchema, e.action), text: e.text }));
    // The file has the last token only: undo goes no further back than the loaded position.
    s.undoFloor = s.log.length;
    await learnBotPolicy(s);
    await s.refresh();
    return s;
  }
  if (file.format !== "referee-web-save/1") throw new Error(`not a saved game of this page (format ${String((file as { format?: unknown }).format)})`);
  const { setup } = file;
  const actions = file.actions.map((a) => ({ seat: a.seat, action: fromJson(ActionSchema, a.action) }));
  const states: StateRef[] = [];
  let credentials: string[] = [];
  for await (const m of client.raw.streamReplay({
    game: { game: setup.game, seats: setup.seats, options: setup.options, seed: BigInt(setup.seed ?? 0), actions },
    every: 1,
  })) {
    if (m.failure) throw new Error(`action ${m.failure.index}: ${m.failure.rejection?.message ?? "refused"}`);
    if (m.seatCredentials.length > 0) credentials = [...m.seatCredentials];
    if (m.state) states.push(m.state);
    else if (m.sealedState.length > 0) states.push(m.sealedState);
  }
  if (states.length !== actions.length + 1) throw new Error(`replay gave ${states.length} states for ${actions.length} actions`);
  const s = new Session(client, setup, states[0], onChange, credentials);
  s.states = states;
  // Every line is described again (Describe on the state before each action, as its seat): the
  // file's own texts are not shown, since a file passed around could make its log say anything
  // ("Seat 1 passes" for a bid). Sixteen calls at a time: well inside the server's concurrency limit.
  s.log = [];
  for (let i = 0; i < file.actions.length; i += 16) {
    const chunk = file.actions.slice(i, i + 16);
    s.log.push(
      ...(await Promise.all(
        chunk.map(async (a, j) => ({
          seat: a.seat,
          action: publicAction(actions[i + j].action, s.sealed),
          text: (await s.clientFor(a.seat).describe(states[i + j], a.seat, actions[i + j].action)).text,
        })),
      )),
    );
  }
  await learnBotPolicy(s);
  await s.refresh();
  return s;
}

/** Imports an 18xx.games export of 1841 to watch move by move. */
export async function importSession(client: RefereeClient, exportJson: string, onChange: () => void): Promise<Session> {
  const imp = await client.importGame(exportJson);
  if (imp.failure && imp.actions.length === 0) throw new Error(`import: ${imp.failure.message}`);
  const seats = imp.players.length;
  const names = [...imp.players].sort((a, b) => a.seat - b.seat).map((p) => p.name || `Seat ${p.seat}`);
  const setup: Setup = {
    game: imp.game || "1841",
    seats,
    options: { ...imp.options },
    seed: 0,
    kinds: Array.from({ length: seats }, () => "human" as SeatKind),
    names,
  };
  const game = await client.startGame(setup.game, seats, setup.options, 0);
  const s = new Session(client, setup, game.state, onChange, game.seatCredentials);
  s.isImport = true;
  s.autoplay = false;
  s.queue = imp.actions.map((a) => ({ seat: a.seat, action: a.action ?? create(ActionSchema) }));
  await s.refresh();
  return s;
}
