/**
 * What the person sees, in a real headless Chromium: on the Chinese pages the built-in
 * categories (general, personal, event, plan), the kinds and the relations ("sister of", "lives in")
 * are Chinese; at 360 px every button and link is on the screen without scrolling sideways (the
 * devices page's Revoke among them), nothing reaches past its card, and the weekly chart's labels are
 * readable — in both languages, at a phone's and a desktop's width.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../scripts/lib/api-keys.ts";
import { launchChromium } from "../../scripts/lib/chromium.ts";
import { type DashboardServer, startDashboardServer } from "../../scripts/lib/dashboard-server.ts";
import { type WatchedPage, watchedPage } from "./browser-page.ts";
import { cardOverflow, chartLabelPx, hiddenActions, overflowPixels } from "./layout-checks.ts";

type Lang = "en" | "zh";
let srv: DashboardServer;
let browser: Browser;
const opened: WatchedPage[] = [];
const BUILT_IN = ["general", "personal", "event", "plan"];
/** Labels a phone must still read: 11 CSS pixels is the smallest text browsers' readability audits accept. */
const LEAST_LABEL_PX = 11;

beforeAll(async () => {
  [srv, browser] = await Promise.all([startDashboardServer("phone-person"), launchChromium()]);
  await createKey(
    { scope: "user", name: srv.userId, account: "default", label: "The phone in my bag with a long label" },
    "local",
  );
  await srv.save("My sister Anna lives in Lisbon with her two cats", { category: "personal" });
  await srv.save("Dentist appointment next Tuesday at nine", { category: "event" });
  await srv.save("Run a half marathon in the spring", { category: "plan" });
  await srv.save("I prefer green tea in the afternoon", { category: "general" });
}, 300_000);

afterAll(async () => {
  for (const w of opened) await w.context.close().catch(() => undefined);
  await browser?.close();
  await srv?.stop();
}, 60_000);

async function signedIn(lang: Lang, width: number): Promise<WatchedPage> {
  const w = await watchedPage(browser, lang, { width, height: 800 });
  opened.push(w);
  await w.page.goto(`${srv.base}/dashboard?lang=${lang}`);
  await w.page.fill("#key", srv.key);
  await Promise.all([w.page.waitForURL(`${srv.base}/dashboard`), w.page.click("main button[type=submit]")]);
  await w.page.waitForSelector("#total");
  return w;
}

const PAGES = ["/dashboard", "/dashboard/memories", "/dashboard/devices", "/dashboard/clients", "/dashboard/entities"];

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).allTextContents()).join(" | ");
}

describe.each([360, 1100])("at %i px", (width) => {
  for (const lang of ["en", "zh"] as const) {
    it(`shows every action, keeps everything inside its card and the chart readable, in ${lang}`, async () => {
      const { page, incidents } = await signedIn(lang, width);
      for (const path of PAGES) {
        await page.goto(`${srv.base}${path}`);
        expect(await hiddenActions(page), `${path}: actions off the screen`).toEqual([]);
        expect(await cardOverflow(page), `${path}: past its card`).toEqual([]);
        expect(await overflowPixels(page), `${path}: wider than the screen`).toBeLessThanOrEqual(0);
      }
      await page.goto(`${srv.base}/dashboard/devices`);
      const revoke = page.locator("#devices button.danger").first();
      expect(await revoke.isVisible()).toBe(true);
      const box = await revoke.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width, JSON.stringify(box)).toBe(true);
      await page.goto(`${srv.base}/dashboard`);
      expect(await chartLabelPx(page), "the chart's smallest label").toBeGreaterThanOrEqual(LEAST_LABEL_PX);
      expect(incidents).toEqual([]);
    });
  }

  it("says the built-in categories, kinds and relations in Chinese on the Chinese pages", async () => {
    const { page, incidents } = await signedIn("zh", width);
    const english = new RegExp(`\\b(${BUILT_IN.join("|")}|sister of|lives in|fact)\\b`);
    const byCategory = await text(page, "#by-category td");
    for (const zh of ["个人", "事件", "计划", "通用"]) expect(byCategory).toContain(zh);
    expect(byCategory).not.toMatch(english);
    expect(await text(page, "figure .legend")).not.toMatch(english);
    expect(await text(page, "figure svg title")).not.toMatch(english);
    await page.goto(`${srv.base}/dashboard/memories`);
    expect(await text(page, "main .badge")).not.toMatch(english);
    expect(await text(page, "main .badge")).toContain("个人");
    await page.goto(`${srv.base}/dashboard/entities`);
    const relations = await text(page, "ul.relations li");
    expect(relations).toContain("住在");
    expect(relations).toContain("姐妹");
    expect(relations).not.toMatch(english);
    expect(await text(page, "main .badge")).not.toMatch(/\b(person|place|other)\b/);
    expect(incidents).toEqual([]);
  });

  it("keeps the English words on the English pages", async () => {
    const { page } = await signedIn("en", width);
    expect(await text(page, "#by-category td")).toContain("personal");
    await page.goto(`${srv.base}/dashboard/entities`);
    const relations = await text(page, "ul.relations li");
    expect(relations).toContain("lives in");
    expect(relations).toContain("sister of");
  });
});
