// Transport-independent part of the Referee client: the thin helper layer over the generated
// Connect client. No Node-only imports here (src/web.ts re-exports it for browsers).
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { createClient, type CallOptions, type Client, type Transport } from "@connectrpc/connect";
import {
  ActionSchema,
  DefaultActionPolicy,
  GameRecordFormat,
  PlayoutPolicy,
  Referee,
  RejectionCode,
  RejectionSchema,
  ViewerRole,
  type Action,
  type ApplyBatchResponse,
  type DefaultActionResponse,
  type DescribeResponse,
  type Event,
  type ExportGameResponse,
  type PlayoutResponse,
  type StreamReplayResponse,
  type SuggestRoutesResponse,
  type GameInfo,
  type GameState,
  type ImportGameResponse,
  type LegalActionsResponse,
  type Rejection,
  type SeatActionSchema,
  type ViewResponse,
} from "./gen/referee/v1/referee_pb.js";
import { flattenLegal, type Legal } from "./legal.js";

/** The generated Connect client of `referee.v1.Referee` (every RPC, every field). */
export type RawRefereeClient = Client<typeof Referee>;

/**
 * A game state as the caller holds it: the clear `GameState` (open mode) or the server's sealed
 * token (sealed mode, `sealedState` of the answers). Every helper takes either and answers the
 * same kind.
 */
export type StateRef = GameState | Uint8Array;

/** The request header that carries the caller's credential in sealed mode (docs/SECURITY.md). */
export const CREDENTIAL_HEADER = "referee-credential";

/** Whether `state` is a sealed token (sealed mode). */
export function isSealed(state: StateRef): state is Uint8Array {
  return state instanceof Uint8Array;
}

/** The request fields of a state: `{ state }` or `{ sealedState }`. */
export function stateFields(state: StateRef): { state: GameState } | { sealedState: Uint8Array } {
  return isSealed(state) ? { sealedState: state } : { state };
}

/**
 * Connect call options that send `credential` in the `referee-credential` header (for calls
 * made on `client.raw` directly: `client.raw.view(req, credentialCallOptions(c))`). Throws for a
 * value that cannot be a header (control characters, non-ASCII).
 */
export function credentialCallOptions(credential?: string): CallOptions {
  const c = credential?.trim();
  if (!c) return {};
  // eslint-disable-next-line no-control-regex
  if (/[^\x20-\x7e]/.test(c)) throw new Error("credential: not a header value (expected `seat-S:KEY_ID:HEX` or `arbiter:KEY_ID:HEX`)");
  return { headers: { [CREDENTIAL_HEADER]: c } };
}

/** Options of `createRefereeClientFromTransport`. */
export interface HelperOptions {
  /**
   * Sealed mode: the caller's credential, sent as the `referee-credential` header with every
   * call: a seat credential `seat-S:KEY_ID:HEX` (from `startGame(...).seatCredentials`) to act
   * and look as seat S, or the arbiter credential `arbiter:KEY_ID:HEX`
   * (`referee credential --seal-key-file F`). None: a spectator. Open mode ignores it.
   */
  credential?: string;
}

/** A new game (`startGame`). */
export interface StartedGame<S extends StateRef = StateRef> {
  /** The initial state: `GameState` (open mode) or the sealed token (sealed mode). */
  state: S;
  /** Whether the server runs in sealed mode. */
  sealed: boolean;
  /**
   * Sealed mode: every seat's credential (index = seat) for the creator to deal to the players;
   * each lets its holder act and look as that seat only, in this game only. Empty in open mode.
   */
  seatCredentials: string[];
  /** Sealed mode: what the creator may see (a spectator's view, or the arbiter's). */
  callerView?: ViewResponse;
}

/** An action as a message or as a plain object (`create(ActionSchema, init)` shape). */
export type ActionInit = Action | MessageInitShape<typeof ActionSchema>;

/** Option values of NewGame; sent as text (`true`, `3`), as the API wants. */
export type GameOptions = Record<string, string | number | boolean | bigint>;

/** Options of `importGame`. */
export interface ImportGameOptions {
  /** Compare the final result and game-end reason with the recorded ones (`check.ok`). */
  check?: boolean;
  /** Stop after the actions whose id is at most this one (18xx.games `?action=<id>`). */
  stopAtActionId?: number | bigint;
}

/** A seat's action for `exportGame` (and Replay): `{ seat, action }`, messages or plain objects. */
export type SeatActionInit = MessageInitShape<typeof SeatActionSchema>;

/** Options of `exportGame`. */
export interface ExportGameOptions {
  /** NewGame options of the game (e.g. `{ lite: true }`). */
  options?: GameOptions;
  /** One player per seat: the 18xx.games id and name written (default ids 1, 2, … and "Player n"). */
  players?: Array<{ id: string | number; name: string }>;
  /** The game id written (`id`). */
  sourceGameId?: number | bigint;
  /** The description written. */
  description?: string;
}

/** Options of `streamReplay`. */
export interface StreamReplayOptions {
  /** NewGame options of the game. */
  options?: GameOptions;
  /** NewGame seed. */
  seed?: number | bigint;
  /** A state every `every` actions (0 or 1 = every action; the last one always). */
  every?: number;
  /** Only events; the final state only. */
  eventsOnly?: boolean;
}

/**
 * The server's bots by name, one convention for both games (docs/games/autobahn-bots.md):
 * `random` and `first` for every game, `heuristic` (the game's best bot; Autobahn: = `balanced`),
 * then Autobahn's strategy bots. 1841 has `random` and `first` only for now.
 */
export const POLICY_NAMES = ["random", "first", "heuristic", "balanced", "builder", "network", "trucker", "finance"] as const;

/** A server bot's name: one of `POLICY_NAMES`, or any name a newer server knows. */
export type PolicyName = (typeof POLICY_NAMES)[number] | (string & {});

/** Options of `playout`. */
export interface PlayoutOptions {
  /** Games to play (1–1,000; default 1). */
  games?: number;
  /** Actions per game before it is given up (default 20,000, or 2,000,000 ÷ games when less; at most 50,000; games × this ≤ 2,000,000). */
  maxActions?: number;
  /**
   * `random` (seeded, default), `first` legal action, or a server bot by name (sent as
   * `policyName`; see `POLICY_NAMES`): `heuristic`, and Autobahn's `balanced`, `builder`,
   * `network`, `trucker`, `finance`. An unknown name is an INVALID_ARGUMENT listing the game's names.
   */
  policy?: PolicyName;
  /** Game k uses `seed + k`. */
  seed?: number | bigint;
  /** Return every game's actions (`played`). */
  includeActions?: boolean;
}

/** Who looks, for `view`: a seat number, `"spectator"`, or `{ arbiter: true, key? }`. */
export type Viewer = number | "spectator" | { arbiter: true; key?: string };

/** The answer of Apply: a discriminated union on `accepted` / `rejected`. */
export type ApplyResult<S extends StateRef = GameState> =
  | {
      accepted: true;
      rejected: false;
      /** The new state, of the kind sent (clear or sealed); store it and send it with the next call. */
      state: S;
      /** What happened, in order. */
      events: Event[];
      /**
       * Sealed mode: what the caller may see of the new state (its seat's view with a seat
       * credential, a spectator's without one, everything for the arbiter). Unset in open mode.
       */
      callerView?: ViewResponse;
    }
  | {
      accepted: false;
      rejected: true;
      /** Why; the state you sent is unchanged and still valid. */
      rejection: Rejection;
    };

/** The helper layer: one method per common call; `raw` gives the full generated client. */
export interface RefereeClient {
  /**
   * The generated client (Replay, optimistic concurrency fields, call options). It sends no
   * credential by itself: pass `credentialCallOptions(client.credential)`.
   */
  readonly raw: RawRefereeClient;
  /** The credential this client sends (`referee-credential`), if any. */
  readonly credential?: string;
  /**
   * A client on the same transport that sends `credential` instead (undefined: none, a
   * spectator). Cheap: make one per seat (a hot-seat page keeps one per seat).
   */
  withCredential(credential?: string): RefereeClient;
  /**
   * Starts a game in open or sealed mode: the state (clear or sealed), and in sealed mode the
   * seat credentials and what the creator may see. `seed` undefined lets a sealed server draw
   * a secret seed (open mode: 0); a given seed, 0 included, is used as given and makes the
   * deck and every draw predictable.
   */
  startGame(game: string, seats: number, options?: GameOptions, seed?: number | bigint): Promise<StartedGame>;
  /** Games this server knows. */
  listGames(): Promise<GameInfo[]>;
  /** Starts a game with `seats` players; returns the initial state (open mode). */
  newGame(game: string, seats: number, options?: GameOptions, seed?: number | bigint): Promise<GameState>;
  /**
   * Applies `action` of `seat` to `state` (clear or sealed; the answer's state is of the same
   * kind). A refused action is a normal result, not an error. Sealed mode: needs `seat`'s
   * credential (else PERMISSION_DENIED).
   */
  apply<S extends StateRef>(state: S, seat: number, action: ActionInit): Promise<ApplyResult<S>>;
  /** Seats that must act and what `seat` may do now (sealed mode: with `seat`'s credential). */
  legalActions(state: StateRef, seat: number): Promise<LegalActionsResponse>;
  /** The state as `seat` may see it (omit `seat` for a spectator; sealed mode: a seat needs its credential). */
  view(state: StateRef, seat?: number): Promise<ViewResponse>;
  /**
   * Replays a game of 1841 exported from 18xx.games (the JSON of
   * `https://18xx.games/api/game/<id>`, as text or a parsed object). The response carries the
   * final `state`, the game as this API's `actions`, the `players` (18xx id, name, seat,
   * result), `finished` and `gameEndReason`; a game that cannot be replayed to its end has
   * `failure` (`actionId`, `field`, `message`, `rejection` for an action the rules refuse) —
   * not an exception.
   */
  importGame(exportJson: string | object, options?: ImportGameOptions): Promise<ImportGameResponse>;
  /**
   * Writes a game of 1841 (setup and actions, as Replay takes them) as an 18xx.games export:
   * `exportJson` (text); `failure` (`index`, `rejection`) when an action was refused.
   * `importGame` reads the export back to the same game.
   */
  exportGame(
    game: string,
    seats: number,
    actions: SeatActionInit[],
    options?: ExportGameOptions,
  ): Promise<ExportGameResponse>;
  /**
   * Applies `{ seat, action }`s in order: `state` after the last applied one, `actionsApplied`,
   * `applied[i].events`; `failure` (`index`, `rejection`) at the first refused action (nothing
   * after it applied).
   */
  applyBatch(state: StateRef, actions: SeatActionInit[]): Promise<ApplyBatchResponse>;
  /**
   * Replays a game and yields its messages as they arrive: the setup (`actionCount` 0), then
   * one per action (`events`, and `state` every `every` actions); the last has `last`, and
   * `failure` when an action was refused.
   */
  streamReplay(
    game: string,
    seats: number,
    actions: SeatActionInit[],
    options?: StreamReplayOptions,
  ): AsyncIterable<StreamReplayResponse>;
  /**
   * Plays games on from `state`: per seat `wins`, `meanScore`, `scoreStddev`; `partial` when
   * the call's deadline cut it short.
   */
  playout(state: StateRef, options?: PlayoutOptions): Promise<PlayoutResponse>;
  /** 1841: the route optimizer's best routes for `corporation` (default: the operating one). */
  suggestRoutes(state: StateRef, corporation?: string, workBudget?: number | bigint): Promise<SuggestRoutesResponse>;
  /**
   * The move to play for `seat` when its clock runs out (`action`, `isPass`, `description`):
   * `pass_or_minimal` (default) or `random` (seeded), or a playout policy by name — the move
   * that bot would play (`POLICY_NAMES`: `heuristic`, `first`, Autobahn's `builder`, …; sent as
   * `policyName`; a name the game does not have is INVALID_ARGUMENT listing its names).
   */
  defaultAction(
    state: StateRef,
    seat: number,
    policy?: "pass_or_minimal" | PolicyName,
    seed?: number | bigint,
  ): Promise<DefaultActionResponse>;
  /** One English line for `action` by `seat` (`text`), whether it is `legal`, else `rejection`. */
  describe(state: StateRef, seat: number, action: ActionInit): Promise<DescribeResponse>;
  /** The state as a seat, a spectator or an arbiter sees it (see `Viewer`). */
  viewAs(state: StateRef, viewer: Viewer): Promise<ViewResponse>;
  /**
   * Everything needed to draw `game` with `options` that never changes while it is played
   * (GetGameData; docs/API.md "Static game data"): 1841 `hexes` (with `center`), `tiles`,
   * `borders`, `market`, `ruleset` (`trains`, `phases`), `concessions`, `corporations`;
   * Autobahn `board`, `layout`, `positions`. Kept per client by `contentHash` and asked again
   * with `ifNoneMatch`, so a repeated call moves only the hash.
   */
  gameData(game: string, options?: GameOptions): Promise<GameData>;
}

/** The static data of a game variant (GetGameData), `data` parsed. */
export interface GameData {
  /** `1841` or `autobahn`. */
  game: string;
  /** 1841 `v2`, `v1`, `lite`; Autobahn the board id. */
  variant: string;
  /** Format of `data` (1). */
  formatVersion: number;
  /** `sha256:<hex>` of the document: a cache key. */
  contentHash: string;
  /** The document (see docs/API.md). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

const optionText = (options: GameOptions) =>
  Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)]));

/** Wraps a Connect transport (any: gRPC, gRPC-Web, Connect) into a RefereeClient. */
export function createRefereeClientFromTransport(transport: Transport, helperOptions: HelperOptions = {}): RefereeClient {
  const raw = createClient(Referee, transport);
  const gameDataCache = new Map<string, GameData>();
  const credential = helperOptions.credential?.trim() || undefined;
  const co = credentialCallOptions(credential);
  return {
    raw,
    credential,
    withCredential(c?: string) {
      return createRefereeClientFromTransport(transport, { ...helperOptions, credential: c });
    },
    async listGames() {
      return (await raw.listGames({}, co)).games;
    },
    async startGame(game, seats, options = {}, seed) {
      const res = await raw.newGame(
        { game, seats, options: optionText(options), seed: BigInt(seed ?? 0), explicitSeed: seed !== undefined },
        co,
      );
      const sealed = !res.state && res.sealedState.length > 0;
      return {
        state: sealed ? res.sealedState : res.state!,
        sealed,
        seatCredentials: [...res.seatCredentials],
        callerView: res.callerView,
      };
    },
    async newGame(game, seats, options = {}, seed = 0) {
      const res = await raw.newGame({
        game,
        seats,
        options: Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)])),
        seed: BigInt(seed),
      }, co);
      if (!res.state) {
        throw new Error("NewGame returned no open state (the server is in sealed mode: use client.startGame)");
      }
      return res.state;
    },
    async apply<S extends StateRef>(state: S, seat: number, action: ActionInit): Promise<ApplyResult<S>> {
      const res = await raw.apply(
        { ...stateFields(state), seat, action: create(ActionSchema, action as MessageInitShape<typeof ActionSchema>) },
        co,
      );
      switch (res.result.case) {
        case "accepted": {
          const a = res.result.value;
          const next = isSealed(state) ? a.sealedState : a.state;
          if (!next || (isSealed(state) && a.sealedState.length === 0)) {
            throw new Error(`Apply: accepted without a ${isSealed(state) ? "sealed" : "clear"} state`);
          }
          return { accepted: true, rejected: false, state: next as S, events: a.events, callerView: a.callerView };
        }
        case "rejected":
          return {
            accepted: false,
            rejected: true,
            rejection: res.result.value.rejection ?? create(RejectionSchema),
          };
        default:
          throw new Error("Apply: the server set neither `accepted` nor `rejected`");
      }
    },
    async legalActions(state, seat) {
      return raw.legalActions({ ...stateFields(state), seat }, co);
    },
    async view(state, seat) {
      return raw.view(seat === undefined ? stateFields(state) : { ...stateFields(state), seat }, co);
    },
    async importGame(exportJson, options = {}) {
      return raw.importGame({
        exportJson: typeof exportJson === "string" ? exportJson : JSON.stringify(exportJson),
        format: GameRecordFormat.EIGHTEEN_XX_GAMES_EXPORT,
        check: options.check ?? false,
        stopAtActionId: options.stopAtActionId === undefined ? undefined : BigInt(options.stopAtActionId),
      }, co);
    },
    async exportGame(game, seats, actions, options = {}) {
      return raw.exportGame({
        game: {
          game,
          seats,
          options: Object.fromEntries(Object.entries(options.options ?? {}).map(([k, v]) => [k, String(v)])),
          actions,
        },
        format: GameRecordFormat.EIGHTEEN_XX_GAMES_EXPORT,
        players: (options.players ?? []).map((p, seat) => ({ seat, id: String(p.id), name: p.name })),
        sourceGameId: BigInt(options.sourceGameId ?? 0),
        description: options.description ?? "",
      }, co);
    },
    async applyBatch(state, actions) {
      return raw.applyBatch({ ...stateFields(state), actions }, co);
    },
    async *streamReplay(game, seats, actions, options = {}) {
      yield* raw.streamReplay({
        game: {
          game,
          seats,
          options: Object.fromEntries(Object.entries(options.options ?? {}).map(([k, v]) => [k, String(v)])),
          seed: BigInt(options.seed ?? 0),
          actions,
        },
        every: options.every ?? 0,
        eventsOnly: options.eventsOnly ?? false,
      }, co);
    },
    async playout(state, options = {}) {
      return raw.playout({
        ...stateFields(state),
        games: options.games ?? 1,
        maxActions: options.maxActions ?? 0,
        policy: options.policy === "first" ? PlayoutPolicy.FIRST_LEGAL : PlayoutPolicy.RANDOM_LEGAL,
        // Any other name (`heuristic`, `builder`, ...) travels as policyName, which the server
        // uses instead of the enum.
        policyName: options.policy === undefined || options.policy === "random" || options.policy === "first" ? "" : options.policy,
        seed: BigInt(options.seed ?? 0),
        includeActions: options.includeActions ?? false,
      }, co);
    },
    async suggestRoutes(state, corporation = "", workBudget = 0) {
      return raw.suggestRoutes({ ...stateFields(state), corporation, workBudget: BigInt(workBudget) }, co);
    },
    async defaultAction(state, seat, policy = "pass_or_minimal", seed = 0) {
      const named = policy !== "pass_or_minimal" && policy !== "random";
      return raw.defaultAction({
        ...stateFields(state),
        seat,
        policy: policy === "random" ? DefaultActionPolicy.RANDOM_LEGAL : DefaultActionPolicy.PASS_OR_MINIMAL,
        policyName: named ? policy : "",
        seed: BigInt(seed),
      }, co);
    },
    async describe(state, seat, action) {
      return raw.describe(
        { ...stateFields(state), seat, action: create(ActionSchema, action as MessageInitShape<typeof ActionSchema>) },
        co,
      );
    },
    async viewAs(state, viewer) {
      const st = stateFields(state);
      if (typeof viewer === "number") return raw.view({ ...st, seat: viewer, viewer: ViewerRole.SEAT }, co);
      if (viewer === "spectator") return raw.view({ ...st, viewer: ViewerRole.SPECTATOR }, co);
      return raw.view({ ...st, viewer: ViewerRole.ARBITER, arbiterKey: viewer.key ?? "" }, co);
    },
    async gameData(game, options = {}) {
      const opts = Object.fromEntries(
        Object.entries(options)
          .map(([k, v]) => [k, String(v)])
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      const key = JSON.stringify([game, opts]);
      const cached = gameDataCache.get(key);
      const res = await raw.getGameData({ game, options: opts, ifNoneMatch: cached?.contentHash ?? "" }, co);
      if (res.notModified && cached) return cached;
      const data: GameData = {
        game: res.game,
        variant: res.variant,
        formatVersion: res.formatVersion,
        contentHash: res.contentHash,
        data: JSON.parse(res.dataJson),
      };
      gameDataCache.set(key, data);
      return data;
    },
  };
}

/** `REJECTION_CODE_NOT_YOUR_TURN` → `"NOT_YOUR_TURN"`. */
export function rejectionCodeName(code: RejectionCode): string {
  return RejectionCode[code] ?? `UNKNOWN_${code}`;
}

/** Builders for 1841 actions (amounts in Lire). */
export const g1841 = {
  /** Nominate (open) or raise in the auction of `concession`. */
  bid(concession: string, price: number | bigint): Action {
    return create(ActionSchema, {
      action: { case: "g1841", value: { action: { case: "bid", value: { concession, price: BigInt(price) } } } },
    });
  },
  /** Pass a nomination turn, drop out of an auction, or pass in a stock round. */
  pass(): Action {
    return create(ActionSchema, { action: { case: "g1841", value: { action: { case: "pass", value: {} } } } });
  },
  /** Lay or upgrade a tile (1841 §9.1): tile number on a hex, rotation 0–5. */
  layTile(hex: string, tile: string, rotation: number): Action {
    return create(ActionSchema, {
      action: { case: "g1841", value: { action: { case: "layTile", value: { hex, tile, rotation } } } },
    });
  },
  /** Sealed bids, one per concession in order (Version 1). */
  blindBid(amounts: Array<number | bigint>): Action {
    return create(ActionSchema, {
      action: { case: "g1841", value: { action: { case: "blindBid", value: { amounts: amounts.map((a) => BigInt(a)) } } } },
    });
  },
};

/** Who must act now and what that seat may do. */
export interface NextTurn {
  seat: number;
  legal: Legal;
}

/**
 * The seat of a seat credential `seat-S:KEY_ID:HEX` (S), or `undefined` for none, an arbiter's
 * credential, or text of another shape (the server judges credentials; this only reads the seat).
 */
export function credentialSeat(credential?: string): number | undefined {
  const m = /^seat-(\d{1,9}):/.exec(credential?.trim() ?? "");
  return m ? Number(m[1]) : undefined;
}

/**
 * The first seat of `to_act` and its flattened legal actions, or `undefined` when nobody can act
 * (the game is over — `view(state).outcome` — or the engine offers nothing more). Asks `hint`
 * first (the seat that acted last often acts again), so usually one call.
 *
 * With a seat credential (sealed mode, `client.credential` = `seat-S:…`) it asks only as seat S,
 * since a seat may not ask for another's actions (PERMISSION_DENIED): `seat` is S when S is in
 * `to_act`, else the first seat of `to_act`, and `legal` is always S's own (empty while another
 * seat must act).
 */
export async function nextTurn(client: RefereeClient, state: StateRef, hint = 0): Promise<NextTurn | undefined> {
  const own = credentialSeat(client.credential);
  const ask = own ?? hint;
  let resp = await client.legalActions(state, ask);
  if (resp.toAct.length === 0) return undefined;
  if (own !== undefined) {
    return { seat: resp.toAct.includes(own) ? own : resp.toAct[0], legal: flattenLegal(resp) };
  }
  const seat = resp.toAct[0];
  if (seat !== ask) resp = await client.legalActions(state, seat);
  return { seat, legal: flattenLegal(resp) };
}

export * from "./legal.js";
export * from "./gen/referee/v1/referee_pb.js";
export * as g1841pb from "./gen/referee/g1841/v1/g1841_pb.js";
export * as autobahnpb from "./gen/referee/autobahn/v1/autobahn_pb.js";
