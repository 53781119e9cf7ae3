// One game on the page: its setup, every state so far (undo keeps them on the client; the server
// stays stateless), the log in plain words, and the turn loop (people act through the page,
// bot seats through the server's DefaultAction with the `random` policy).
import { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import {
  ActionSchema,
  flattenLegal,
  type Action,
  type GameState,
  type Legal,
  type RefereeClient,
  type Rejection,
  type ViewResponse,
} from "@referee/client";

/**
 * The policy of the server's bots (DefaultAction): the best the server offers for both games.
 * `random` until a stronger policy lands on the server (then change it here, one place).
 */
export const BOT_POLICY = "random" as const;

/** Who plays a seat: a person at this screen, or the server's bot. */
export type SeatKind = "human" | "bot";

/** What NewGame needs, plus who plays each seat. */
export interface Setup {
  game: string;
  seats: number;
  options: Record<string, string>;
  seed: number;
  kinds: SeatKind[];
  /** Seat names for people. */
  names: string[];
}

/** One applied action in the log. */
export interface Entry {
  seat: number;
  action: Action;
  text: string;
}

/** A saved game file (Save / Load). */
export interface SaveFile {
  format: "referee-web-save/1";
  setup: Setup;
  actions: Array<{ seat: number; action: JsonValue; text: string }>;
}

/** Whose view the page draws: a seat, a spectator, or `auto` (hot seat: the seat to act). */
export type Viewer = number | "spectator" | "auto";

export class Session {
  /** `states[i]` is the state after `log[i - 1]`; `states[0]` is the setup. */
  states: GameState[];
  log: Entry[] = [];
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
  private timer?: ReturnType<typeof setTimeout>;
  private generation = 0;

  constructor(
    readonly client: RefereeClient,
    readonly setup: Setup,
    initial: GameState,
    readonly onChange: () => void,
  ) {
    this.states = [initial];
  }

  get state(): GameState {
    return this.states[this.states.length - 1];
  }

  get over(): boolean {
    const o = this.view?.outcome;
    return !!o && (o.ranks.length > 0 || o.endReason !== "");
  }

  /** An imported game watched move by move (no one acts; Next applies the recorded actions). */
  isImport = false;

  /** The seat drawn: the chosen one, else (auto) the person who must act, else a spectator. */
  viewSeat(): number | undefined {
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
      const spectator = await this.client.view(state);
      const toAct = [...spectator.toAct];
      const humans = toAct.filter((s) => this.setup.kinds[s] === "human");
      this.actingSeat = this.isImport ? undefined : humans[0];
      this.legal = undefined;
      if (this.actingSeat !== undefined) {
        this.legal = flattenLegal(await this.client.legalActions(state, this.actingSeat));
      }
      const seat = this.viewSeat();
      this.view = seat === undefined ? spectator : await this.client.view(state, seat);
      if (gen !== this.generation) return;
      this.error = "";
      this.onChange();
      const over = spectator.outcome && (spectator.outcome.ranks.length > 0 || spectator.outcome.endReason !== "");
      if (over || this.isImport) return;
      const bot = toAct.find((s) => this.setup.kinds[s] === "bot");
      if (bot !== undefined && this.autoplay) {
        this.timer = setTimeout(() => void this.botMove(bot, gen), this.botDelay);
      }
    } catch (e) {
      this.error = String(e);
      this.onChange();
    }
  }

  /** One move of a bot seat: the server's DefaultAction, `random` policy, seeded by the move number. */
  async botMove(seat: number, gen = this.generation): Promise<void> {
    if (gen !== this.generation) return;
    const state = this.state;
    const move = await this.client.defaultAction(state, seat, BOT_POLICY, this.setup.seed * 100_003 + this.log.length);
    if (gen !== this.generation || !move.action) return;
    const res = await this.client.apply(state, seat, move.action);
    if (gen !== this.generation) return;
    if (res.accepted) {
      this.push(seat, move.action, move.description || `Seat ${seat} moves`, res.state);
    } else {
      this.error = `bot seat ${seat}: ${res.rejection.message} (${res.rejection.rule})`;
      this.onChange();
      return;
    }
    await this.refresh();
  }

  private push(seat: number, action: Action, text: string, state: GameState) {
    this.log.push({ seat, action, text });
    this.states.push(state);
    this.rejection = undefined;
  }

  /** A person's action: described, then applied; a refusal is shown with its rule. */
  async act(seat: number, action: Action): Promise<boolean> {
    this.busy = true;
    this.onChange();
    try {
      const state = this.state;
      const d = await this.client.describe(state, seat, action);
      const res = await this.client.apply(state, seat, action);
      if (!res.accepted) {
        this.rejection = { ...res.rejection, text: d.text };
        return false;
      }
      this.push(seat, action, d.text, res.state);
      await this.refresh();
      return true;
    } catch (e) {
      this.error = String(e);
      return false;
    } finally {
      this.busy = false;
      this.onChange();
    }
  }

  /** Takes back the last move of a person (and the bot moves after it). */
  async undo(): Promise<void> {
    if (this.log.length === 0) return;
    this.autoplay = false;
    do {
      const e = this.log.pop();
      this.states.pop();
      if (e && this.setup.kinds[e.seat] === "human") break;
    } while (this.log.length > 0);
    await this.refresh();
  }

  /** Watch mode: applies the next recorded action. */
  async step(): Promise<boolean> {
    const next = this.queue[0];
    if (!next) return false;
    const state = this.state;
    const d = await this.client.describe(state, next.seat, next.action);
    const res = await this.client.apply(state, next.seat, next.action);
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

  save(): SaveFile {
    return {
      format: "referee-web-save/1",
      setup: this.setup,
      actions: this.log.map((e) => ({ seat: e.seat, action: toJson(ActionSchema, e.action), text: e.text })),
    };
  }
}

/** Starts a new game. */
export async function startSession(client: RefereeClient, setup: Setup, onChange: () => void): Promise<Session> {
  const state = await client.newGame(setup.game, setup.seats, setup.options, setup.seed);
  const s = new Session(client, setup, state, onChange);
  await s.refresh();
  return s;
}

/** Loads a saved game: replays it on the server, keeping every state (so undo works after loading). */
export async function loadSession(client: RefereeClient, file: SaveFile, onChange: () => void): Promise<Session> {
  if (file.format !== "referee-web-save/1") throw new Error(`not a saved game of this page (format ${String(file.format)})`);
  const { setup } = file;
  const actions = file.actions.map((a) => ({ seat: a.seat, action: fromJson(ActionSchema, a.action) }));
  const states: GameState[] = [];
  for await (const m of client.raw.streamReplay({
    game: { game: setup.game, seats: setup.seats, options: setup.options, seed: BigInt(setup.seed), actions },
    every: 1,
  })) {
    if (m.failure) throw new Error(`action ${m.failure.index}: ${m.failure.rejection?.message ?? "refused"}`);
    if (m.state) states.push(m.state);
  }
  if (states.length !== actions.length + 1) throw new Error(`replay gave ${states.length} states for ${actions.length} actions`);
  const s = new Session(client, setup, states[0], onChange);
  s.states = states;
  // Lines the file lacks are described again (Describe on the state before each action).
  // Sixteen calls at a time: well inside the server's concurrency limit.
  s.log = [];
  for (let i = 0; i < file.actions.length; i += 16) {
    const chunk = file.actions.slice(i, i + 16);
    s.log.push(
      ...(await Promise.all(
        chunk.map(async (a, j) => ({
          seat: a.seat,
          action: actions[i + j].action,
          text: a.text || (await client.describe(states[i + j], a.seat, actions[i + j].action)).text,
        })),
      )),
    );
  }
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
  const state = await client.newGame(setup.game, seats, setup.options, 0);
  const s = new Session(client, setup, state, onChange);
  s.isImport = true;
  s.autoplay = false;
  s.queue = imp.actions.map((a) => ({ seat: a.seat, action: a.action ?? create(ActionSchema) }));
  await s.refresh();
  return s;
}
