// The reference web client in headless Chromium against the real server: openings of both games
// played by clicking (a tile lay chosen on the 1841 map, an Autobahn section chosen on the
// board), what is drawn checked against the state, undo, save and load, an 18xx.games import
// watched move by move, a whole bot-vs-bot game, and the screenshots of both games at mid-game
// (docs/web-1841.png, docs/web-autobahn.png when REFEREE_WEB_SCREENSHOTS=1).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { toJson } from "@bufbuild/protobuf";
import type { Page } from "playwright-core";
import { ActionSchema, createRefereeClient } from "../../typescript/src/index.js";
import { chromiumPath, start, webRoot, type Harness } from "./harness.js";

const exportPath = join(webRoot, "..", "typescript", "test", "data", "18xx_1841_132002.json");
const docs = join(webRoot, "..", "..", "docs");
const shots = Boolean(process.env.REFEREE_WEB_SCREENSHOTS);

/** Reads the page's session (the page exposes it as window.refereeSession). */
async function session<T>(page: Page, f: string): Promise<T> {
  return page.evaluate(`(() => { const s = window.refereeSession; ${f} })()`) as Promise<T>;
}

async function actions(page: Page): Promise<number> {
  return Number(await page.getAttribute("[data-testid=game]", "data-actions"));
}

/** Waits for the game screen; on a timeout, says what the page shows instead. */
async function waitGame(page: Page) {
  try {
    await page.waitForSelector("[data-testid=game]", { timeout: 60_000 });
  } catch (e) {
    const err = await page.locator("[data-testid=error]").allInnerTexts();
    throw new Error(`${String(e)}\npage errors: ${err.join(" | ")}`);
  }
}

async function newGame(page: Page, origin: string, game: string, seats: number, kinds: string[]) {
  await page.goto(origin);
  await page.waitForSelector("[data-testid=setup] select[name=game] option[value=autobahn]", { state: "attached" });
  await page.selectOption("select[name=game]", game);
  await page.fill("input[name=seats]", String(seats));
  for (let i = 0; i < seats; i++) await page.selectOption(`select[name=seat${i}]`, kinds[i]);
  await page.click("[data-testid=start]");
  await waitGame(page);
}

/** Every laid tile, token and market marker drawn equals the state's. */
async function checkDrawn1841(page: Page) {
  const st = await session<{ tiles: string[]; tokens: string[]; market: string[]; cash: string[] }>(
    page,
    `const v = s.view.view.value.state;
     return {
       tiles: (v.operations?.tiles ?? []).map(t => t.hex + ":" + t.tile + ":" + t.rotation).sort(),
       tokens: v.corporations.flatMap(c => c.tokens.map(t => t.hex + ":" + c.sym)).sort(),
       market: v.corporations.filter(c => c.started && !c.closed && c.sharePrice).map(c => c.sym + "@" + c.sharePrice.row + "," + c.sharePrice.col).sort(),
       cash: v.players.map(p => "L." + p.cash),
     };`,
  );
  const drawnTiles = await page.$$eval("[data-hex][data-tile]:not([data-tile=''])", (els) =>
    els.map((e) => `${e.getAttribute("data-hex")}:${e.getAttribute("data-tile")}:${e.getAttribute("data-rotation")}`).sort(),
  );
  assert.deepEqual(drawnTiles, st.tiles);
  const drawnTokens = await page.$$eval("[data-hex] [data-token]", (els) =>
    els.map((e) => `${e.closest("[data-hex]")!.getAttribute("data-hex")}:${e.getAttribute("data-token")}`).sort(),
  );
  assert.deepEqual(drawnTokens, st.tokens);
  const markers = await page.$$eval("[data-testid=market] [data-corp]", (els) =>
    els.map((e) => `${e.getAttribute("data-corp")}@${e.closest("[data-cell]")!.getAttribute("data-cell")}`).sort(),
  );
  assert.deepEqual(markers, st.market);
  const cash = await page.$$eval("[data-testid=players] [data-player] [data-cash]", (els) => els.map((e) => e.textContent));
  assert.deepEqual(cash, st.cash);
}

/** Every section's road and every office seat drawn equals the state's. */
async function checkDrawnAutobahn(page: Page) {
  const st = await session<{ roads: string[]; offices: string[]; delivered: string[]; dm: string[] }>(
    page,
    `const v = s.view.view.value.state;
     return {
       roads: v.sections.map(x => x.id + ":" + x.road).sort(),
       offices: v.offices.map(o => o.autobahn + ":" + o.seats.join(",")).sort(),
       delivered: v.players.map(p => p.deliveries.filter(d => d.delivered).map(d => d.country).join(",")),
       dm: v.players.map(p => String(p.dm)),
     };`,
  );
  assert.deepEqual(await page.$$eval("[data-testid=players] [data-deliveries]", (els) => els.map((e) => e.getAttribute("data-deliveries"))), st.delivered);
  assert.deepEqual(await page.$$eval("[data-testid=players] [data-dm]", (els) => els.map((e) => e.textContent)), st.dm);
  const roads = await page.$$eval("[data-section]", (els) => els.map((e) => `${e.getAttribute("data-section")}:${e.getAttribute("data-road")}`).sort());
  assert.deepEqual(roads, st.roads);
  const offices = await page.$$eval("[data-office]", (els) =>
    els.map((o) => `${o.getAttribute("data-office")}:${[...o.querySelectorAll("[data-employee]")].map((e) => e.getAttribute("data-employee")).filter((x) => x !== "").join(",")}`).sort(),
  );
  assert.deepEqual(offices, st.offices);
}

/** A save file of the recorded 1841 game 132002 up to (not including) 18xx action `stopAt`. */
async function recordedSave(h: Harness, stopAt: number): Promise<string> {
  const client = createRefereeClient(h.server.baseUrl);
  const imp = await client.importGame(readFileSync(exportPath, "utf8"), { stopAtActionId: stopAt });
  const seats = imp.players.length;
  const file = {
    format: "referee-web-save/1",
    setup: {
      game: "1841",
      seats,
      options: { ...imp.options },
      seed: 0,
      kinds: Array.from({ length: seats }, () => "human"),
      names: [...imp.players].sort((a, b) => a.seat - b.seat).map((p) => p.name),
    },
    actions: imp.actions.map((a) => ({ seat: a.seat, action: toJson(ActionSchema, a.action!), text: "" })),
  };
  const path = join(tmpdir(), `referee-web-132002-${stopAt}.json`);
  writeFileSync(path, JSON.stringify(file));
  return path;
}

async function load(page: Page, origin: string, path: string) {
  await page.goto(origin);
  await page.setInputFiles("[data-testid=load-file]", path);
  await page.click("[data-testid=load]");
  await waitGame(page);
}

const chromium = chromiumPath();
const mustHaveBrowser = Boolean(process.env.CI || process.env.REFEREE_REQUIRE_BROWSER);

describe("clients/web in headless Chromium", { skip: !chromium && !mustHaveBrowser ? "no chromium (apt-get install chromium)" : false }, () => {
  let h: Harness;
  before(async () => {
    h = await start();
  });
  after(async () => {
    await h?.close();
  });

  it("1841: bids by click in the concession round, then undo", { timeout: 120_000 }, async () => {
    const { page, origin } = h;
    await newGame(page, origin, "1841", 3, ["human", "human", "human"]);
    await checkDrawn1841(page);
    // Every hex of the variant's data (GET /v1/GameData through the page's origin) is drawn.
    const hexes = await page.evaluate(async () => (await (await fetch("/v1/GameData?game=1841")).json()).hexes.length);
    assert.equal(await page.locator("[data-hex]").count(), hexes);
    // Seat 0 bids the minimum for Bayard, seat 1 passes.
    await page.locator(".range", { hasText: "bid Bayard" }).locator("button").click();
    await page.waitForFunction(() => document.querySelector("[data-testid=game]")?.getAttribute("data-actions") === "1");
    assert.match(await page.locator("[data-testid=log] li").last().innerText(), /Bayard/);
    await page.click("button[data-action=pass]");
    await page.waitForFunction(() => document.querySelector("[data-testid=game]")?.getAttribute("data-actions") === "2");
    await page.click("[data-testid=undo]");
    await page.waitForFunction(() => document.querySelector("[data-testid=game]")?.getAttribute("data-actions") === "1");
    // A bid below the minimum raise is refused with its rule.
    await page.locator(".range", { hasText: "bid Bayard" }).locator("input").fill("21");
    await page.locator(".range", { hasText: "bid Bayard" }).locator("button").click();
    const rej = await page.waitForSelector("[data-testid=rejection]");
    assert.match((await rej.innerText()) ?? "", /rule 1841/);
    assert.deepEqual(h.errors, []);
  });

  it("1841: a tile lay chosen on the map (recorded game 132002 up to IRSFF's first tile)", { timeout: 180_000 }, async () => {
    const { page, origin } = h;
    await load(page, origin, await recordedSave(h, 189));
    const before = await actions(page);
    assert.ok(before > 50, `loaded ${before} actions`);
    await checkDrawn1841(page);
    // The operating corporation lays a tile: highlighted hexes are the legal lays.
    const playable = page.locator("[data-hex].playable");
    assert.ok((await playable.count()) > 0, "no hex offers a tile lay");
    const hex = (await page.locator("[data-hex].playable").first().getAttribute("data-hex"))!;
    await page.locator(`[data-hex=${hex}]`).click();
    const option = page.locator("[data-testid=hex-choices] [data-lay]").first();
    if (process.env.REFEREE_WEB_LOOK) await page.screenshot({ path: join(tmpdir(), "referee-web-choices.png") });
    const lay = (await option.getAttribute("data-lay"))!;
    const [tile, rotation] = lay.split("-");
    await option.click();
    await page.waitForFunction((n) => Number(document.querySelector("[data-testid=game]")?.getAttribute("data-actions")) === n + 1, before);
    assert.equal(await page.getAttribute(`[data-hex=${hex}]`, "data-tile"), tile);
    assert.equal(await page.getAttribute(`[data-hex=${hex}]`, "data-rotation"), rotation);
    assert.match(await page.locator("[data-testid=log] li").last().innerText(), new RegExp(`lays tile ${tile} on ${hex}`));
    await checkDrawn1841(page);
    assert.deepEqual(h.errors, []);
  });

  it("1841: an 18xx.games export watched move by move; mid-game screenshot", { timeout: 240_000 }, async () => {
    const { page, origin } = h;
    await page.goto(origin);
    await page.setInputFiles("[data-testid=import-file]", exportPath);
    await page.click("[data-testid=import]");
    await waitGame(page);
    for (let i = 1; i <= 3; i++) {
      await page.click("[data-testid=next]");
      await page.waitForFunction((n) => document.querySelector("[data-testid=game]")?.getAttribute("data-actions") === String(n), i);
    }
    await page.click("[data-testid=back]");
    await page.waitForFunction(() => document.querySelector("[data-testid=game]")?.getAttribute("data-actions") === "2");
    assert.equal(await page.locator("[data-testid=log] li").count(), 2);
    await checkDrawn1841(page);
    // Mid-game: the recorded game loaded up to its later operating rounds.
    await load(page, origin, await recordedSave(h, 700));
    await checkDrawn1841(page);
    if (shots) await page.screenshot({ path: join(docs, "web-1841.png"), fullPage: true });
    assert.deepEqual(h.errors, []);
  });

  it("1841: a bot-vs-bot game to the end", { timeout: 600_000 }, async () => {
    const { page, origin } = h;
    await newGame(page, origin, "1841", 3, ["bot", "bot", "bot"]);
    await session(page, "s.botDelay = 0; return 0");
    await page.waitForSelector("[data-testid=game][data-over='1']", { timeout: 540_000 });
    assert.match(await page.innerText("[data-testid=outcome]"), /Game over \(\w+\).*rank 1/);
    await checkDrawn1841(page);
    assert.deepEqual(h.errors, []);
  });

  it("Autobahn: an opening played on the board, save and load", { timeout: 180_000 }, async () => {
    const { page, origin } = h;
    await newGame(page, origin, "autobahn", 3, ["human", "bot", "bot"]);
    // The route-card draft is not on the board: take the first offered card.
    await page.waitForSelector("button[data-action^=chooseRouteCard]");
    await page.locator("button[data-action^=chooseRouteCard]").first().click();
    // Main phase: click a highlighted section, then play the first action offered there.
    await page.waitForSelector("[data-section].playable", { timeout: 60_000 });
    const sec = (await page.locator("[data-section].playable").first().getAttribute("data-section"))!;
    await page.locator(`[data-section="${sec}"]`).click();
    const offered = page.locator("[data-testid=actions] button[data-action]");
    assert.ok((await offered.count()) > 0);
    if (process.env.REFEREE_WEB_LOOK) await page.screenshot({ path: join(tmpdir(), "referee-web-autobahn-choices.png"), fullPage: true });
    const before = await actions(page);
    await offered.first().click();
    await page.waitForFunction((n) => Number(document.querySelector("[data-testid=game]")?.getAttribute("data-actions")) > n, before);
    await checkDrawnAutobahn(page);
    // Save, load: the same number of moves and the same board.
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=save]")]);
    const saved = join(tmpdir(), "referee-web-autobahn-save.json");
    await dl.saveAs(saved);
    const n = JSON.parse(readFileSync(saved, "utf8")).actions.length;
    await session(page, "s.stop(); return 0");
    await load(page, origin, saved);
    assert.equal(await actions(page), n);
    await checkDrawnAutobahn(page);
    assert.deepEqual(h.errors, []);
  });

  it("Autobahn: a bot-vs-bot game to the end; mid-game screenshot", { timeout: 600_000 }, async () => {
    const { page, origin } = h;
    await newGame(page, origin, "autobahn", 3, ["bot", "bot", "bot"]);
    await session(page, "s.botDelay = 0; return 0");
    await page.waitForFunction(() => Number(document.querySelector("[data-testid=game]")?.getAttribute("data-actions")) >= 70, undefined, { timeout: 300_000 });
    if (shots) {
      await page.click("[data-testid=autoplay]");
      await page.waitForTimeout(300);
      await checkDrawnAutobahn(page);
      await page.screenshot({ path: join(docs, "web-autobahn.png"), fullPage: true });
      await page.click("[data-testid=autoplay]");
    }
    await page.waitForSelector("[data-testid=game][data-over='1']", { timeout: 540_000 });
    const outcome = await page.innerText("[data-testid=outcome]");
    assert.match(outcome, /Game over/);
    assert.match(outcome, /rank 1/);
    await checkDrawnAutobahn(page);
    assert.deepEqual(h.errors, []);
  });
});
