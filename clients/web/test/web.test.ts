// The reference web client in headless Chromium against the real server: openings of both games
// played by clicking (a tile lay chosen on the 1841 map, an Autobahn section chosen on the
// board), what is drawn checked against the state, undo, save and load, an 18xx.games import
// watched move by move, a whole bot-vs-bot game, and the screenshots of both games at mid-game
// (docs/web-1841.png, docs/web-autobahn.png when REFEREE_WEB_SCREENSHOTS=1).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { toJson } from "@bufbuild/protobuf";
import type { Page } from "playwright-core";
import { ActionSchema, createRefereeClient } from "../../typescript/src/index.js";
import { chromiumPath, start, webRoot, type Harness } from "./harness.js";
import { messages, recordCalls, type Call } from "./wire.js";

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

async function newGame(page: Page, origin: string, game: string, seats: number, kinds: string[], options: Record<string, string> = {}) {
  await page.goto(origin);
  await page.waitForSelector("[data-testid=setup] select[name=game] option[value=autobahn]", { state: "attached" });
  await page.selectOption("select[name=game]", game);
  await page.fill("input[name=seats]", String(seats));
  for (let i = 0; i < seats; i++) await page.selectOption(`select[name=seat${i}]`, kinds[i]);
  for (const [k, v] of Object.entries(options)) await page.selectOption(`select[name=opt-${k}]`, v);
  await page.click("[data-testid=start]");
  await waitGame(page);
}

/** The seat a request acts or asks as (Apply, LegalActions, Describe, DefaultAction, View with a seat). */
function namedSeat(c: Call): number | undefined {
  const r = c.request as unknown as { seat?: number; actions?: Array<{ seat: number }> };
  if (c.method === "View") return (r as { seat?: number }).seat;
  if (["Apply", "LegalActions", "Describe", "DefaultAction"].includes(c.method)) return r.seat;
  return undefined;
}

/**
 * What every sealed-mode call of the page must show: each call that names a seat carries that
 * seat's credential and no other (a spectator's calls none); no answer carries a clear state,
 * another seat's view (`seatViews`) or credentials (after NewGame), nor a hidden pile.
 */
function checkSealedCalls(calls: Call[], credentials: string[]) {
  assert.ok(calls.length > 0, "no calls recorded");
  for (const c of calls) {
    const seat = namedSeat(c);
    if (seat !== undefined) assert.equal(c.credential, credentials[seat], `${c.method} as seat ${seat} with ${c.credential.split(":")[0] || "no credential"}`);
    else if (c.method === "View") assert.equal(c.credential, "", "a spectator's View carries no credential");
    for (const m of c.responses.flatMap((r) => [...messages(r)])) {
      assert.notEqual(m.$typeName, "referee.v1.GameState", `${c.method} answered a clear state`);
      const o = m as unknown as Record<string, unknown[]>;
      if (c.method !== "NewGame" && Array.isArray(o.seatCredentials)) assert.equal(o.seatCredentials.length, 0, `${c.method}: seat credentials`);
      if (Array.isArray(o.seatViews)) assert.equal(o.seatViews.length, 0, `${c.method}: every seat's view`);
      if (m.$typeName === "referee.autobahn.v1.State") {
        for (const pile of ["cardDeck", "deliveryTileStack", "tilesInBox", "advancedAside"]) assert.equal(o[pile].length, 0, `${c.method}: ${pile}`);
      }
    }
  }
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
    // An amount that is not an integer is refused on the page with a message (no page error).
    await page.locator(".range", { hasText: "bid Bayard" }).locator("input").fill("1e5");
    await page.locator(".range", { hasText: "bid Bayard" }).locator("button").click();
    assert.match(await (await page.waitForSelector("[data-testid=error]")).innerText(), /1e5/);
    // A bid below the minimum raise is refused with its rule.
    await page.locator(".range", { hasText: "bid Bayard" }).locator("input").fill("21");
    await page.locator(".range", { hasText: "bid Bayard" }).locator("button").click();
    const rej = await page.waitForSelector("[data-testid=rejection]");
    assert.match((await rej.innerText()) ?? "", /rule 1841/);
    assert.deepEqual(h.errors, []);
  });

  it("a file that is not a saved game, or too large, is refused with a message; the page still works", { timeout: 60_000 }, async () => {
    const { page, origin } = h;
    const dir = mkdtempSync(join(tmpdir(), "referee-web-bad-"));
    const files: Array<[string, string, string, RegExp]> = [
      ["load", "notjson.json", "{this is not json", /not JSON/],
      ["load", "null.json", "null", /not a saved game.*format missing/],
      ["load", "html.json", JSON.stringify({ format: "<img src=x onerror=alert(1)>" }), /not a saved game.*<img src=x/],
      ["import", "huge.json", `{"x":"${"A".repeat(4 * 1024 * 1024 + 1)}"}`, /at most 4 MiB/],
    ];
    try {
      for (const [kind, name, text, expected] of files) {
        await page.goto(origin);
        writeFileSync(join(dir, name), text);
        await page.setInputFiles(`[data-testid=${kind}-file]`, join(dir, name));
        await page.click(`[data-testid=${kind}]`);
        const err = await page.waitForSelector("[data-testid=error]", { timeout: 10_000 });
        assert.match(await err.innerText(), expected, name);
        // Shown as text, never as HTML; the start form is still there.
        assert.equal(await page.locator("img").count(), 0);
        assert.equal(await page.locator("[data-testid=start]").count(), 1);
      }
      // A saved game's log is the server's description of each move, not the file's text.
      writeFileSync(
        join(dir, "forged.json"),
        JSON.stringify({
          format: "referee-web-save/1",
          setup: { game: "1841", seats: 3, options: {}, seed: 0, kinds: ["human", "human", "human"], names: ["A", "B", "C"] },
          actions: [{ seat: 0, action: { g1841: { pass: {} } }, text: "<b>Seat 0 buys every concession</b>" }],
        }),
      );
      await load(page, origin, join(dir, "forged.json"));
      assert.deepEqual(await page.locator("[data-testid=log] li").allInnerTexts(), ["Seat 0 passes"]);
      // No file chosen: said so.
      await page.goto(origin);
      await page.click("[data-testid=load]");
      assert.match(await (await page.waitForSelector("[data-testid=error]")).innerText(), /choose a file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(h.errors, []);
  });

  it("the header names the bots' policy before the first bot move", { timeout: 60_000 }, async () => {
    const { page, origin } = h;
    // What the server has for 1841 (today `random` only; `heuristic` once it lands).
    const client = createRefereeClient(h.server.baseUrl);
    const g = await client.startGame("1841", 3, {}, 0);
    const expected = await client.defaultAction(g.state, 0, "heuristic").then(
      () => "heuristic",
      () => "random",
    );
    // Seat 0 (a person) acts first: no bot has moved when the header is read.
    await newGame(page, origin, "1841", 3, ["human", "bot", "bot"]);
    assert.equal(await actions(page), 0);
    assert.equal((await page.innerText("[data-testid=header-bots]")).trim(), `· bots: ${expected}`);
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
    // The server has `heuristic` for 1841 too (issue #22): the bots play it.
    assert.match(await page.innerText("[data-testid=header-bots]"), /heuristic/);
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
    const savedActions = JSON.parse(readFileSync(saved, "utf8")).actions as Array<{ seat: number; text: string }>;
    const n = savedActions.length;
    await session(page, "s.stop(); return 0");
    await load(page, origin, saved);
    // The loaded game goes on with its bots (150 ms a move): stop them, then the first n moves
    // are the saved ones (a bot may have moved once more on a busy machine).
    await session(page, "s.stop(); return 0");
    const loaded = await session<string[]>(page, "return s.log.map((e) => e.seat + ': ' + e.text)");
    assert.ok(loaded.length >= n, `${loaded.length} moves loaded, ${n} saved`);
    assert.deepEqual(loaded.slice(0, n), savedActions.map((a) => `${a.seat}: ${a.text}`));
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
  it("Autobahn: a person plays to the end against the server's bots", { timeout: 300_000 }, async () => {
    const { page, origin } = h;
    await newGame(page, origin, "autobahn", 3, ["human", "bot", "bot"]);
    await session(page, "s.botDelay = 0; return 0");
    // Bots play Autobahn's `heuristic` policy (the server has it).
    let clicks = 0;
    for (;;) {
      await page.waitForSelector("[data-testid=game][data-over='1'], [data-testid=actions] button[data-action]:not([disabled])", { timeout: 60_000 });
      if ((await page.getAttribute("[data-testid=game]", "data-over")) === "1") break;
      const before = await actions(page);
      // The person plays the first action offered (a section chosen on the board gives the same list).
      await page.locator("[data-testid=actions] button[data-action]").first().click();
      await page.waitForFunction((n) => Number(document.querySelector("[data-testid=game]")?.getAttribute("data-actions")) > n, before);
      clicks++;
      assert.ok(clicks < 600, "the game did not end within 600 of the person's moves");
    }
    assert.match(await page.innerText("[data-testid=header-bots]"), /heuristic/);
    const outcome = await page.innerText("[data-testid=outcome]");
    assert.match(outcome, /Game over/);
    assert.match(outcome, /Seat 0 -?\d+ \(rank \d\)/);
    assert.ok(clicks > 10, `the person played ${clicks} moves`);
    await checkDrawnAutobahn(page);
    assert.deepEqual(h.errors, []);
  });

  it("sealed 1841 Version 1, hot seat: a seat's sealed bid is not drawn nor received while the next seat plays", { timeout: 120_000 }, async () => {
    const { page } = h;
    await newGame(page, h.sealedOrigin, "1841", 3, ["human", "human", "bot"], { version_1: "true" });
    assert.equal(await page.getAttribute("[data-testid=game]", "data-sealed"), "1");
    const credentials = await session<string[]>(page, "return s.credentials");
    assert.deepEqual(credentials.map((c) => c.split(":")[0]), ["seat-0", "seat-1", "seat-2"]);
    // Seat 0's person takes the screen and bids L.37 on the first concession.
    await page.waitForSelector("[data-testid=handover][data-seat='0']");
    assert.equal(await page.locator("[data-hex]").count(), 0, "the map is hidden on the hand-over screen");
    await page.click("[data-testid=take-seat]");
    const blind = page.locator(".range", { hasText: "sealed bids" });
    await blind.locator("input").fill("37");
    // The bot's sealed bid lands while the person has typed and not submitted: the amount stays.
    await page.waitForFunction(() => (window as unknown as { refereeSession: { log: Array<{ seat: number }> } }).refereeSession.log.some((e) => e.seat === 2));
    assert.equal(await blind.locator("input").inputValue(), "37");
    await blind.locator("button").click();
    // Hand-over to seat 1: nothing of seat 0's turn stays on the page.
    await page.waitForSelector("[data-testid=handover][data-seat='1']");
    const rec = recordCalls(page);
    assert.doesNotMatch(await page.content(), /L\.37/);
    assert.equal(await session(page, "return s.view === undefined && s.legal === undefined"), true);
    assert.doesNotMatch(await session<string>(page, "return JSON.stringify(s.log, (k, v) => typeof v === 'bigint' ? String(v) : v)"), /37/);
    // The bid is in the token the page holds (the arbiter's view, asked by the test, shows it).
    const arbiter = createRefereeClient(h.sealedServer.baseUrl, { credential: h.arbiter });
    const token = await session<number[]>(page, "return [...s.state]");
    const full = await arbiter.viewAs(Uint8Array.from(token), { arbiter: true });
    const fullBids = full.view.case === "g1841" && full.view.value.state!.round.case === "concessionRound" ? full.view.value.state!.round.value.sealedBids : [];
    assert.equal(fullBids.find((b) => b.seat === 0)?.amounts[0], 37n);
    // Seat 1 plays: its view, its credential; seat 0's row says only "submitted".
    await page.click("[data-testid=take-seat]");
    await page.waitForSelector("[data-testid=sealed-bids] [data-seat='0'] [data-bid]");
    assert.equal(await page.getAttribute("[data-testid=game]", "data-at-screen"), "1");
    assert.equal(await page.innerText("[data-testid=sealed-bids] [data-seat='0'] [data-bid]"), "submitted (secret)");
    assert.equal(await blind.locator("input").inputValue(), "");
    assert.doesNotMatch(await page.content(), /L\.37/);
    // Wait for the bot's sealed bid, so that seat 1's bid reveals all three.
    await page.waitForFunction(() => document.querySelector("[data-testid=sealed-bids] [data-seat='2'] [data-bid]")?.textContent === "submitted (secret)");
    const during = await rec.calls();
    checkSealedCalls(during, credentials);
    assert.ok(during.some((c) => c.method === "View" && namedSeat(c) === 1), "seat 1's view was asked");
    const leaks = during.flatMap((c) => c.responses.flatMap((r) => [...messages(r)]))
      .filter((m) => m.$typeName === "referee.g1841.v1.SealedBid" && (m as unknown as { seat: number; amounts: bigint[] }).seat === 0)
      .filter((m) => (m as unknown as { amounts: bigint[] }).amounts.length > 0);
    assert.deepEqual(leaks, [], "seat 0's amounts reached the page while seat 1 played");
    // Seat 1 bids nothing: every seat has bid, the bids are revealed to everyone (the check above can fail).
    const rec2 = recordCalls(page);
    const before = await actions(page);
    await blind.locator("input").fill("0");
    await blind.locator("button").click();
    await page.waitForFunction((n) => Number(document.querySelector("[data-testid=game]")?.getAttribute("data-actions")) > n, before);
    const reveal = (await rec2.calls()).filter((c) => c.method === "Apply");
    checkSealedCalls(reveal, credentials);
    const revealed = reveal.flatMap((c) => c.responses.flatMap((r) => [...messages(r)]))
      .filter((m) => m.$typeName === "referee.g1841.v1.SealedBid" && (m as unknown as { seat: number }).seat === 0)
      .map((m) => (m as unknown as { amounts: bigint[] }).amounts[0]);
    assert.ok(revealed.includes(37n), `after the reveal seat 0's bid is public: ${revealed}`);
    assert.deepEqual(h.errors, []);
  });

  it("sealed Autobahn, hot seat: hand-over between people, each call with its seat's credential", { timeout: 180_000 }, async () => {
    const { page } = h;
    const rec = recordCalls(page);
    await newGame(page, h.sealedOrigin, "autobahn", 3, ["human", "human", "bot"]);
    const credentials = await session<string[]>(page, "return s.credentials");
    const handovers: number[] = [];
    let played = 0;
    while (played < 6) {
      await page.waitForSelector("[data-testid=handover], [data-testid=actions] button[data-action]", { timeout: 60_000 });
      if ((await page.locator("[data-testid=handover]").count()) > 0) {
        const seat = Number(await page.getAttribute("[data-testid=handover]", "data-seat"));
        assert.equal(await page.locator("[data-section]").count(), 0, "the board is hidden on the hand-over screen");
        assert.equal(await page.locator("[data-testid=players]").count(), 0);
        handovers.push(seat);
        await page.click("[data-testid=take-seat]");
        await page.waitForFunction((s) => document.querySelector("[data-testid=game]")?.getAttribute("data-at-screen") === String(s), seat);
        continue;
      }
      const at = await page.getAttribute("[data-testid=game]", "data-at-screen");
      const acting = await session<number>(page, "return s.actingSeat");
      assert.equal(String(acting), at, "the person at the screen is the one to act");
      const before = await actions(page);
      await page.locator("[data-testid=actions] button[data-action]").first().click();
      await page.waitForFunction((n) => Number(document.querySelector("[data-testid=game]")?.getAttribute("data-actions")) > n, before);
      played++;
    }
    assert.ok(handovers.includes(0) && handovers.includes(1), `hand-overs: ${handovers}`);
    await checkDrawnAutobahn(page).catch(async (e) => {
      // On the hand-over screen nothing is drawn; take the seat and compare.
      if ((await page.locator("[data-testid=handover]").count()) === 0) throw e;
      await page.click("[data-testid=take-seat]");
      await page.waitForSelector("[data-section]");
      await checkDrawnAutobahn(page);
    });
    // Save and load: a sealed file (the token and the credentials), resumed at the same move.
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=save]")]);
    const saved = join(tmpdir(), "referee-web-autobahn-sealed.json");
    await dl.saveAs(saved);
    const file = JSON.parse(readFileSync(saved, "utf8"));
    assert.equal(file.format, "referee-web-sealed/1");
    const n = await actions(page);
    await session(page, "s.stop(); return 0");
    const calls = await rec.calls();
    checkSealedCalls(calls, credentials);
    for (const seat of [0, 1, 2]) assert.ok(calls.some((c) => c.method === "Apply" && namedSeat(c) === seat), `seat ${seat} applied`);
    // The deck the page never received exists (the arbiter's view, asked by the test).
    const arbiter = createRefereeClient(h.sealedServer.baseUrl, { credential: h.arbiter });
    const full = await arbiter.viewAs(Uint8Array.from(Buffer.from(file.token, "base64")), { arbiter: true });
    assert.ok(full.view.case === "autobahn" && full.view.value.state!.cardDeck.length > 0);
    await load(page, h.sealedOrigin, saved);
    assert.equal(await actions(page), n);
    assert.equal(await page.getAttribute("[data-testid=game]", "data-sealed"), "1");
    assert.deepEqual(h.errors, []);
  });
});
