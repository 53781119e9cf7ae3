// Legal actions flattened for bots and UIs: concrete actions plus amount ranges, a seeded random
// pick and a one-line description of any action. No Node imports (works in browsers).
//
// Autobahn lists every legal action concretely. 1841 lists some concretely and gives ranges for
// amounts: bids per concession, trains and tokens bought from another corporation, purchases
// offered to other players (option `p2p_purchases`; the seller answers with `answerOffer`),
// Version 1 sealed bids, and the routes step (`runRoutes`: the trains that may run; any valid route set is
// accepted, and the empty set — the corporation runs nothing — always is, so it is listed as a
// concrete action here).
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { ActionSchema, type Action, type Event, type LegalActionsResponse } from "./gen/referee/v1/referee_pb.js";
import type { ActionSchema as G1841ActionSchema } from "./gen/referee/g1841/v1/g1841_pb.js";
import type { Action as AutobahnAction } from "./gen/referee/autobahn/v1/autobahn_pb.js";

/** Any whole amount from `min` to `max` (both included) is legal. */
export interface AmountRange {
  /** `bid` (1841 concession), `buyTrain` / `buyToken` (from another corporation), `offerPurchase` (from another player). */
  kind: "bid" | "buyTrain" | "buyToken" | "offerPurchase";
  /** What the amount is for, in words: `Bayard`, `2-0 from SFTG`, `F8 city 0 from SFLP`, `20% SFTG from seat 1`. */
  target: string;
  min: bigint;
  max: bigint;
  /** The action for `amount` (throws outside the range). */
  action(amount: bigint | number): Action;
}

/** 1841 Version 1 sealed bids: per concession 0 or at least `minPrice`, total at most `maxTotal`. */
export interface BlindBidChoice {
  concessions: string[];
  minPrice: bigint;
  maxTotal: bigint;
  action(amounts: Array<bigint | number>): Action;
}

/** What a seat may do, flattened. */
export interface Legal {
  /** Seats that must act now. */
  toAct: number[];
  /** Concrete actions, ready to send. */
  actions: Action[];
  /** Amount ranges (1841). */
  ranges: AmountRange[];
  /** Set when the seat may submit sealed bids (1841 Version 1). */
  blindBid?: BlindBidChoice;
  /** 1841 trains that may run now (empty outside the routes step). */
  routeTrains: string[];
  /** Number of choices: each concrete action, range and the sealed bid count one. */
  size: number;
}

const g1841Action = (value: MessageInitShape<typeof G1841ActionSchema>["action"]): Action =>
  create(ActionSchema, { action: { case: "g1841", value: { action: value } } });

/** Flattens a LegalActions answer. */
export function flattenLegal(resp: LegalActionsResponse): Legal {
  const legal: Legal = { toAct: [...resp.toAct], actions: [], ranges: [], routeTrains: [], size: 0 };
  const la = resp.legalActions;
  if (la.case === "autobahn") {
    legal.actions = la.value.actions.map((a) => create(ActionSchema, { action: { case: "autobahn", value: a } }));
  } else if (la.case === "g1841") {
    const l = la.value;
    legal.actions = l.actions.map((a) => create(ActionSchema, { action: { case: "g1841", value: a } }));
    if (l.runRoutes) {
      legal.routeTrains = [...l.runRoutes.trains];
      legal.actions.push(g1841Action({ case: "runRoutes", value: { routes: [] } }));
    }
    const range = (kind: AmountRange["kind"], target: string, min: bigint, max: bigint, make: (p: bigint) => Action): AmountRange => ({
      kind,
      target,
      min,
      max,
      action(amount) {
        const p = BigInt(amount);
        if (p < min || p > max) throw new RangeError(`${kind} ${target}: ${p} is outside ${min}..${max}`);
        return make(p);
      },
    });
    for (const b of l.bids) {
      legal.ranges.push(range("bid", b.concession, b.minPrice, b.maxPrice, (price) =>
        g1841Action({ case: "bid", value: { concession: b.concession, price } })));
    }
    for (const t of l.trainPurchases) {
      legal.ranges.push(range("buyTrain", `${t.train} from ${t.from}`, t.minPrice, t.maxPrice, (price) =>
        g1841Action({ case: "buyTrain", value: { train: t.train, from: t.from, price } })));
    }
    for (const t of l.tokenPurchases) {
      legal.ranges.push(range("buyToken", `${t.hex} city ${t.city} from ${t.seller}`, t.minPrice, t.maxPrice, (price) =>
        g1841Action({ case: "buyToken", value: { hex: t.hex, city: t.city, seller: t.seller, price } })));
    }
    for (const o of l.offers) {
      const it = o.item?.item;
      const what = it?.case === "shares" ? `${it.value.percent}% ${it.value.corporation}` : `concession ${it?.value ?? ""}`;
      legal.ranges.push(range("offerPurchase", `${what} from seat ${o.seller}`, o.minPrice, o.maxPrice, (price) =>
        g1841Action({ case: "offerPurchase", value: { seller: o.seller, item: o.item, price } })));
    }
    if (l.blindBid) {
      const bb = l.blindBid;
      legal.blindBid = {
        concessions: [...bb.concessions],
        minPrice: bb.minPrice,
        maxTotal: bb.maxTotal,
        action(amounts) {
          const a = amounts.map((x) => BigInt(x));
          if (a.length !== bb.concessions.length) throw new RangeError(`need ${bb.concessions.length} amounts`);
          if (a.some((x) => x < 0n || (x !== 0n && x < bb.minPrice))) throw new RangeError(`each amount 0 or >= ${bb.minPrice}`);
          if (a.reduce((s, x) => s + x, 0n) > bb.maxTotal) throw new RangeError(`total over ${bb.maxTotal}`);
          return g1841Action({ case: "blindBid", value: { amounts: a } });
        },
      };
    }
  }
  legal.size = legal.actions.length + legal.ranges.length + (legal.blindBid ? 1 : 0);
  return legal;
}

/** A seeded random generator (mulberry32): numbers in [0, 1). Same seed, same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `[game, kind]` of an action, e.g. `["autobahn", "playCard"]`, `["g1841", "bid"]`. */
export function actionKind(a: Action): [string, string] {
  if (a.action.case === undefined) return ["", ""];
  return [a.action.case, (a.action.value.action as { case?: string }).case ?? ""];
}

/** Actions a random policy picks rarely (1 in 8) — as the server's own `referee playout`. */
const RARE = new Set(["autobahn/takeBackCards", "autobahn/decline", "g1841/declareBankruptcy", "g1841/offerPurchase"]);

/** Whether a random policy picks `c` rarely: the RARE kinds, and in 1841 withholding and buying
 * another corporation's train (as `referee playout`), so random games come to an end. */
function isRare(c: Action | AmountRange | BlindBidChoice): boolean {
  if ("kind" in c) return c.kind === "buyTrain" || c.kind === "offerPurchase";
  if (!("$typeName" in c)) return false;
  const kind = actionKind(c).join("/");
  if (RARE.has(kind)) return true;
  if (kind !== "g1841/dividend" || c.action.case !== "g1841") return false;
  const inner = c.action.value.action;
  return inner.case === "dividend" && !inner.value.payout;
}
/** Pass-like actions: 1841 pass, Autobahn end turn and decline. */
const PASS_LIKE = new Set(["g1841/pass", "autobahn/endTurn", "autobahn/decline"]);

/** A legal pass-like action, if any. */
export function passAction(legal: Legal): Action | undefined {
  return legal.actions.find((a) => PASS_LIKE.has(actionKind(a).join("/")));
}

/** The first concrete action, else the first range at its minimum, else an all-zero sealed bid. */
export function firstAction(legal: Legal): Action | undefined {
  if (legal.actions.length) return legal.actions[0];
  if (legal.ranges.length) return legal.ranges[0].action(legal.ranges[0].min);
  if (legal.blindBid) return legal.blindBid.action(legal.blindBid.concessions.map(() => 0));
  return undefined;
}

function randomBetween(rnd: () => number, min: bigint, max: bigint): bigint {
  if (max <= min) return min;
  return min + BigInt(Math.floor(rnd() * (Number(max - min) + 1)));
}

/**
 * A random legal action: one choice uniformly (each concrete action, range and the sealed bid
 * weigh the same; Autobahn's take-back and decline only 1 time in 8 while anything else is
 * legal; 1841's withholding, foreign trains, bankruptcy and offers likewise), amounts half the
 * time at the minimum, else uniform up to twice the minimum. Same generator state, same pick.
 */
export function randomAction(legal: Legal, rnd: () => number): Action | undefined {
  type Choice = Action | AmountRange | BlindBidChoice;
  const all: Choice[] = [...legal.actions, ...legal.ranges, ...(legal.blindBid ? [legal.blindBid] : [])];
  if (!all.length) return undefined;
  const common = all.filter((c) => !isRare(c));
  const pool = common.length && rnd() >= 1 / 8 ? common : all;
  const pick = pool[Math.floor(rnd() * pool.length)];
  if ("$typeName" in pick) return pick;
  if ("kind" in pick) {
    // At most twice the minimum: players who pay up to all their cash stall 1841 games.
    const top = pick.max < 2n * pick.min ? pick.max : 2n * pick.min;
    return pick.action(rnd() < 0.5 ? pick.min : randomBetween(rnd, pick.min, top));
  }
  const amounts = pick.concessions.map(() => 0n);
  let budget = pick.maxTotal;
  pick.concessions.forEach((_, i) => {
    if (budget >= pick.minPrice && rnd() < 1 / 3) {
      const top = budget < 3n * pick.minPrice ? budget : 3n * pick.minPrice;
      amounts[i] = randomBetween(rnd, pick.minPrice, top);
      budget -= amounts[i];
    }
  });
  return pick.action(amounts);
}

function fieldsText(inner: Record<string, unknown>): string[] {
  return Object.entries(inner)
    .filter(([k, v]) => k !== "$typeName" && v !== "" && v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => {
      if (Array.isArray(v)) return `${k}=${v.join(">")}`;
      if (typeof v === "object" && v !== null) return `${k}=${JSON.stringify(v, (key, x) => (key === "$typeName" ? undefined : typeof x === "bigint" ? x.toString() : x))}`;
      return `${k}=${String(v)}`;
    });
}

/** One line for people: the action's kind and its fields, e.g. `playCard card=C12 colour=red …`. */
export function describeAction(a: Action): string {
  const [, kind] = actionKind(a);
  const inner = (a.action.value?.action as { value?: Record<string, unknown> } | undefined)?.value ?? {};
  return [kind, ...fieldsText(inner)].join(" ");
}

/** One line for people for an event, e.g. `sectionBuilt player=0 section=L3-1 cost=2`. */
export function describeEvent(e: Event): string {
  const inner = e.event.value?.event as { case?: string; value?: Record<string, unknown> } | undefined;
  return [inner?.case ?? "?", ...fieldsText(inner?.value ?? {})].join(" ");
}

/** Builders for common Autobahn answers (the legal list already holds every legal action). */
export const autobahn = {
  endTurn(): Action {
    return create(ActionSchema, { action: { case: "autobahn", value: { action: { case: "endTurn", value: {} } } } });
  },
  decline(): Action {
    return create(ActionSchema, { action: { case: "autobahn", value: { action: { case: "decline", value: {} } } } });
  },
  /** Wraps a typed Autobahn action into the envelope. */
  wrap(action: AutobahnAction): Action {
    return create(ActionSchema, { action: { case: "autobahn", value: action } });
  },
};
