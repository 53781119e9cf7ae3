// Developer aid: opens the page, starts a game and saves a screenshot (tsx test/look.ts GAME SEATS).
import { start } from "./harness.js";
const [game = "1841", seats = "4", moves = "0"] = process.argv.slice(2);
const h = await start();
try {
  await h.page.goto(h.origin);
  await h.page.selectOption("select[name=game]", game);
  await h.page.fill("input[name=seats]", seats);
  await h.page.click("[data-testid=start]");
  await h.page.waitForSelector("[data-testid=game]", { timeout: 30000 });
  await h.page.waitForFunction((n) => Number(document.querySelector("[data-testid=game]")?.getAttribute("data-actions")) >= Number(n), moves, { timeout: 120000 }).catch(() => {});
  await h.page.waitForTimeout(500);
  await h.page.screenshot({ path: `/tmp/web-${game}.png`, fullPage: true });
  console.log("errors:", h.errors);
} finally {
  await h.close();
}
