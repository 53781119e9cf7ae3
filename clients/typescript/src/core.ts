// Transport-independent part of the Referee client: the thin helper layer over the generated
// Connect client. No Node-only imports here (src/web.ts re-exports it for browsers).
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { createClient, type Client, type Transport } from "@connectrpc/connect";
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

/** Options of `playout`. */
export interface PlayoutOptions {
  /** Games to play (1–1,000; default 1). */
  games?: number;
  /** Actions per game before it is given up (default 20,000, or 2,000,000 ÷ games when less; at most 50,000; games × this ≤ 2,000,000). */
  maxActions?: number;
  /** `random` (seeded, default) or `first` legal action. */
  policy?: "random" | "first";
  /** Game k uses `seed + k`. */
  seed?: number | bigint;
  /** Return every game's actions (`played`). */
  includeActions?: boolean;
}

/** Who looks, for `view`: a seat number, `"spectator"`, or `{ arbiter: true, key? }`. */
export type Viewer = number | "spectator" | { arbiter: true; key?: string };

/** The answer of Apply: a discriminated union on `accepted` / `rejected`. */
export type ApplyResult =
  | {
      accepted: true;
      rejected: false;
      /** The new state; store it and send it with the next call. */
      state: GameState;
      /** What happened, in order. */
      events: Event[];
    }
  | {
      accepted: false;
      rejected: true;
      /** Why; the state you sent is unchanged and still valid. */
      rejection: Rejection;
    };

/** The helper layer: one method per common call; `raw` gives the full generated client. */
export interface RefereeClient {
  /** The generated client (Replay, sealed mode, optimistic concurrency fields, call options). */
  readonly raw: RawRefereeClient;
  /** Games this server knows. */
  listGames(): Promise<GameInfo[]>;
  /** Starts a game with `seats` players; returns the initial state (open mode). */
  newGame(game: string, seats: number, options?: GameOptions, seed?: number | bigint): Promise<GameState>;
  /** Applies `action` of `seat` to `state`. A refused action is a normal result, not an error. */
  apply(state: GameState, seat: number, action: ActionInit): Promise<ApplyResult>;
  /** Seats that must act and what `seat` may do now. */
  legalActions(state: GameState, seat: number): Promise<LegalActionsResponse>;
  /** The state as `seat` may see it (omit `seat` for a spectator). */
  view(state: GameState, seat?: number): Promise<ViewResponse>;
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
  applyBatch(state: GameState, actions: SeatActionInit[]): Promise<ApplyBatchResponse>;
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
  playout(state: GameState, options?: PlayoutOptions): Promise<PlayoutResponse>;
  /** 1841: the route optimizer's best routes for `corporation` (default: the operating one). */
  suggestRoutes(state: GameState, corporation?: string, workBudget?: number | bigint): Promise<SuggestRoutesResponse>;
  /**
   * The move to play for `seat` when its clock runs out (`action`, `isPass`, `description`):
   * `pass_or_minimal` (default) or `random` (seeded).
   */
  defaultAction(
    state: GameState,
    seat: number,
    policy?: "pass_or_minimal" | "random",
    seed?: number | bigint,
  ): Promise<DefaultActionResponse>;
  /** One English line for `action` by `seat` (`text`), whether it is `legal`, else `rejection`. */
  describe(state: GameState, seat: number, action: ActionInit): Promise<DescribeResponse>;
  /** The state as a seat, a spectator or an arbiter sees it (see `Viewer`). */
  viewAs(state: GameState, viewer: Viewer): Promise<ViewResponse>;
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

/** Wraps a Connect transport (any: gRPC, gRPC-Web, Connect) into a RefereeClient. */
export function createRefereeClientFromTransport(transport: Transport): RefereeClient {
  const raw = createClient(Referee, transport);
  const gameDataCache = new Map<string, GameData>();
  return {
    raw,
    async listGames() {
      return (await raw.listGames({})).games;
    },
    async newGame(game, seats, options = {}, seed = 0) {
      const res = await raw.newGame({
        game,
        seats,
        options: Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)])),
        seed: BigInt(seed),
      });
      if (!res.state) {
        throw new Error(
          "NewGame returned no open state (is the server in sealed mode? use client.raw.newGame and sealedState)",
        );
      }
      return res.state;
    },
    async apply(state, seat, action) {
      const res = await raw.apply({ state, seat, action: create(ActionSchema, action as MessageInitShape<typeof ActionSchema>) });
      switch (res.result.case) {
        case "accepted":
          if (!res.result.value.state) throw new Error("Apply: accepted without a state (sealed mode? use client.raw.apply)");
          return { accepted: true, rejected: false, state: res.result.value.state, events: res.result.value.events };
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
      return raw.legalActions({ state, seat });
    },
    async view(state, seat) {
      return raw.view(seat === undefined ? { state } : { state, seat });
    },
    async importGame(exportJson, options = {}) {
      return raw.importGame({
        exportJson: typeof exportJson === "string" ? exportJson : JSON.stringify(exportJson),
        format: GameRecordFormat.EIGHTEEN_XX_GAMES_EXPORT,
        check: options.check ?? false,
        stopAtActionId: options.stopAtActionId === undefined ? undefined : BigInt(options.stopAtActionId),
      });
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
      });
    },
    async applyBatch(state, actions) {
      return raw.applyBatch({ state, actions });
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
      });
    },
    async playout(state, options = {}) {
      return raw.playout({
        state,
        games: options.games ?? 1,
        maxActions: options.maxActions ?? 0,
        policy: options.policy === "first" ? PlayoutPolicy.FIRST_LEGAL : PlayoutPolicy.RANDOM_LEGAL,
        seed: BigInt(options.seed ?? 0),
        includeActions: options.includeActions ?? false,
      });
    },
    async suggestRoutes(state, corporation = "", workBudget = 0) {
      return raw.suggestRoutes({ state, corporation, workBudget: BigInt(workBudget) });
    },
    async defaultAction(state, seat, policy = "pass_or_minimal", seed = 0) {
      return raw.defaultAction({
        state,
        seat,
        policy: policy === "random" ? DefaultActionPolicy.RANDOM_LEGAL : DefaultActionPolicy.PASS_OR_MINIMAL,
        seed: BigInt(seed),
      });
    },
    async describe(state, seat, action) {
      return raw.describe({ state, seat, action: create(ActionSchema, action as MessageInitShape<typeof ActionSchema>) });
    },
    async viewAs(state, viewer) {
      if (typeof viewer === "number") return raw.view({ state, seat: viewer, viewer: ViewerRole.SEAT });
      if (viewer === "spectator") return raw.view({ state, viewer: ViewerRole.SPECTATOR });
      return raw.view({ state, viewer: ViewerRole.ARBITER, arbiterKey: viewer.key ?? "" });
    },
    async gameData(game, options = {}) {
      const opts = Object.fromEntries(
        Object.entries(options)
          .map(([k, v]) => [k, String(v)])
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      const key = JSON.stringify([game, opts]);
      const cached = gameDataCache.get(key);
      const res = await raw.getGameData({ game, options: opts, ifNoneMatch: cached?.contentHash ?? "" });
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
 * The first seat of `to_act` and its flattened legal actions, or `undefined` when nobody can act
 * (the game is over — `view(state).outcome` — or the engine offers nothing more). Asks `hint`
 * first (the seat that acted last often acts again), so usually one call.
 */
export async function nextTurn(client: RefereeClient, state: GameState, hint = 0): Promise<NextTurn | undefined> {
  let resp = await client.legalActions(state, hint);
  if (resp.toAct.length === 0) return undefined;
  const seat = resp.toAct[0];
  if (seat !== hint) resp = await client.legalActions(state, seat);
  return { seat, legal: flattenLegal(resp) };
}

export * from "./legal.js";
export * from "./gen/referee/v1/referee_pb.js";
export * as g1841pb from "./gen/referee/g1841/v1/g1841_pb.js";
export * as autobahnpb from "./gen/referee/autobahn/v1/autobahn_pb.js";
