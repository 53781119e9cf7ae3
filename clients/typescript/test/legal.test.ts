// The helper layer for bots (no server): flattening legal actions, seeded random picks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import {
  actionKind,
  describeAction,
  firstAction,
  flattenLegal,
  LegalActionsResponseSchema,
  passAction,
  randomAction,
  seededRandom,
} from "../src/index.js";

const resp1841 = create(LegalActionsResponseSchema, {
  toAct: [1],
  legalActions: {
    case: "g1841",
    value: {
      actions: [{ action: { case: "pass", value: {} } }],
      bids: [{ concession: "Bayard", minPrice: 20n, maxPrice: 840n }],
      trainPurchases: [{ train: "2-0", from: "SFTG", minPrice: 1n, maxPrice: 80n }],
      tokenPurchases: [{ hex: "F8", city: 1, seller: "SFLP", minPrice: 1n, maxPrice: 30n }],
      offers: [
        { seller: 2, item: { item: { case: "shares", value: { corporation: "SFTG", percent: 20 } } }, minPrice: 1n, maxPrice: 840n, marketValue: 200n },
      ],
      runRoutes: { trains: ["3-1"] },
    },
  },
});

describe("flattenLegal", () => {
  it("turns 1841 lists and ranges into actions and amount ranges", () => {
    const legal = flattenLegal(resp1841);
    assert.deepEqual(legal.toAct, [1]);
    assert.deepEqual(legal.actions.map((a) => actionKind(a)[1]), ["pass", "runRoutes"]);
    assert.deepEqual(legal.routeTrains, ["3-1"]);
    assert.deepEqual(legal.ranges.map((r) => [r.kind, r.target, r.min, r.max]), [
      ["bid", "Bayard", 20n, 840n],
      ["buyTrain", "2-0 from SFTG", 1n, 80n],
      ["buyToken", "F8 city 1 from SFLP", 1n, 30n],
      ["offerPurchase", "20% SFTG from seat 2", 1n, 840n],
    ]);
    assert.equal(legal.size, 6);
    assert.equal(actionKind(legal.ranges[3].action(150))[1], "offerPurchase");
    assert.equal(describeAction(legal.ranges[0].action(25)), "bid concession=Bayard price=25");
    assert.throws(() => legal.ranges[0].action(19), RangeError);
    assert.equal(actionKind(passAction(legal)!)[1], "pass");
    assert.equal(firstAction(legal), legal.actions[0]);
  });

  it("picks random actions reproducibly and within the ranges", () => {
    const legal = flattenLegal(resp1841);
    const a = seededRandom(5);
    const b = seededRandom(5);
    const kinds = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const x = randomAction(legal, a)!;
      assert.deepEqual(x, randomAction(legal, b));
      kinds.add(actionKind(x)[1]);
      if (x.action.case === "g1841" && x.action.value.action.case === "bid") {
        const p = x.action.value.action.value.price;
        assert.ok(p >= 20n && p <= 840n);
      }
    }
    assert.deepEqual([...kinds].sort(), ["bid", "buyToken", "buyTrain", "offerPurchase", "pass", "runRoutes"]);
  });

  it("picks 1841's withholding and foreign trains rarely, amounts up to twice the minimum", () => {
    const legal = flattenLegal(create(LegalActionsResponseSchema, {
      toAct: [1],
      legalActions: {
        case: "g1841",
        value: {
          actions: [
            { action: { case: "dividend", value: { payout: true } } },
            { action: { case: "dividend", value: { payout: false } } },
          ],
          trainPurchases: [{ train: "2-0", from: "SFTG", minPrice: 1n, maxPrice: 80n }],
          bids: [{ concession: "Bayard", minPrice: 20n, maxPrice: 840n }],
        },
      },
    }));
    const rnd = seededRandom(3);
    let withheld = 0;
    let trains = 0;
    for (let i = 0; i < 4000; i++) {
      const x = randomAction(legal, rnd)!;
      if (x.action.case !== "g1841") continue;
      const inner = x.action.value.action;
      if (inner.case === "dividend" && !inner.value.payout) withheld++;
      if (inner.case === "buyTrain") trains++;
      if (inner.case === "bid") assert.ok(inner.value.price >= 20n && inner.value.price <= 40n);
    }
    // 1 time in 8 the rare ones share the pick with the rest (1/8 × 1/4 each)
    assert.ok(withheld > 60 && withheld < 240, `withheld ${withheld}`);
    assert.ok(trains > 60 && trains < 240, `trains ${trains}`);
  });

  it("handles sealed bids and an empty answer", () => {
    const legal = flattenLegal(create(LegalActionsResponseSchema, {
      toAct: [0, 1],
      legalActions: { case: "g1841", value: { blindBid: { concessions: ["A", "B", "C"], minPrice: 20n, maxTotal: 50n } } },
    }));
    const rnd = seededRandom(1);
    for (let i = 0; i < 100; i++) {
      const x = randomAction(legal, rnd)!;
      assert.ok(x.action.case === "g1841" && x.action.value.action.case === "blindBid");
      const amounts = x.action.value.action.value.amounts;
      assert.equal(amounts.length, 3);
      assert.ok(amounts.reduce((s, v) => s + v, 0n) <= 50n && amounts.every((v) => v === 0n || v >= 20n));
    }
    const none = flattenLegal(create(LegalActionsResponseSchema, { toAct: [2] }));
    assert.equal(none.size, 0);
    assert.equal(randomAction(none, rnd), undefined);
    assert.equal(firstAction(none), undefined);
  });
});
