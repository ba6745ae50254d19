/**
 * The dashboard's people, places and things in a real headless Chromium, in English and Chinese, at
 * desktop width and on a 360 px phone: reached from the navigation, no serious or critical axe-core
 * violation, no page wider than the screen, no short word broken over two lines; hostile entity
 * names (a script tag, an attribute break-out) render as text on the list, on their own page and in
 * the relations of others; an entity's page links to the memories that name it.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../scripts/lib/chromium.ts";
import { type DashboardServer, startDashboardServer } from "../../scripts/lib/dashboard-server.ts";
import { seriousViolations } from "./axe.ts";
import { type WatchedPage, watchedPage } from "./browser-page.ts";
import { brokenWords, overflowPixels } from "./layout-checks.ts";

type Lang = "en" | "zh";
let srv: DashboardServer;
let browser: Browser;
const opened: WatchedPage[] = [];
const SCRIPT_NAME = '<script>alert("entity")</script>';
const BREAKOUT_NAME = '"><img src=x onerror=alert(1)>';

const GRAPH = [
  { type: "entity", name: "Ana", entityType: "person", observations: ["Works as a marine biologist"] },
  { type: "entity", name: "Bergen", entityType: "city", observations: ["Rains a lot in autumn"] },
  { type: "entity", name: SCRIPT_NAME, entityType: "product", observations: ["A strange gadget on the desk"] },
  { type: "entity", name: BREAKOUT_NAME, entityType: "organization", observations: ["Sends odd letters"] },
  {
    type: "entity",
    name: "Kommunale Bibliotheksverwaltungsgesellschaft",
    entityType: "organization",
    observations: ["Lends books"],
  },
  { type: "relation", from: "Ana", to: "Bergen", relationType: "lives_in" },
  { type: "relation", from: "Ana", to: SCRIPT_NAME, relationType: "owns" },
  { type: "relation", from: BREAKOUT_NAME, to: "Ana", relationType: "writes_to" },
];

const TEXT = {
  en: { nav: "People & places", heading: "People, places and things", memories: "Memories that name it" },
  zh: { nav: "人物与地点", heading: "人物、地点与事物", memories: "提到它的记忆" },
};

beforeAll(async () => {
  [srv, browser] = await Promise.all([startDashboardServer("entities-person"), launchChromium()]);
  const res = await fetch(`${srv.base}/v1/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${srv.key}` },
    body: GRAPH.map((l) => JSON.stringify(l)).join("\n"),
  });
  if (res.status !== 200) throw new Error(`import: ${res.status} ${await res.text()}`);
  await srv.save("My sister Ana lives in Bergen");
}, 300_000);

afterAll(async () => {
  for (const w of opened) await w.context.close().catch(() => undefined);
  await browser?.close();
  await srv?.stop();
}, 60_000);

async function open(lang: Lang, width = 1100): Promise<WatchedPage> {
  const w = await watchedPage(browser, lang, { width, height: 800 });
  opened.push(w);
  return w;
}

async function signIn(page: Page, lang: Lang): Promise<void> {
  await page.goto(`${srv.base}/dashboard?lang=${lang}`);
  await page.fill("#key", srv.key);
  await Promise.all([page.waitForURL(`${srv.base}/dashboard`), page.click("main button[type=submit]")]);
  await page.waitForSelector("#total");
}

async function checkLayout(page: Page, what: string): Promise<void> {
  expect(await seriousViolations(page), what).toEqual([]);
  expect(await overflowPixels(page), `${what} is wider than the screen`).toBeLessThanOrEqual(0);
  expect(await brokenWords(page), what).toEqual([]);
  expect(await page.locator("main img, main script").count(), what).toBe(0);
}

describe.each(["en", "zh"] as const)("people, places and things in %s", (lang) => {
  for (const width of [1100, 360]) {
    it(`are reached from the navigation, readable and accessible at ${width} px, hostile names as text`, async () => {
      const { page, incidents } = await open(lang, width);
      await signIn(page, lang);
      await page.click(`nav a[href='/dashboard/entities']`);
      await page.waitForURL(`${srv.base}/dashboard/entities`);
      expect(await page.textContent("nav a[aria-current=page]")).toBe(TEXT[lang].nav);
      expect(await page.textContent("main h1")).toBe(TEXT[lang].heading);
      const names = await page.locator("#entities a.entity-name").allTextContents();
      expect(names).toEqual(expect.arrayContaining(["Ana", "Bergen", SCRIPT_NAME, BREAKOUT_NAME]));
      expect(names[0]).toBe("Ana");
      const ana = page.locator("#entities > li", { has: page.locator("a.entity-name", { hasText: /^Ana$/ }) });
      expect(await ana.locator("ul.relations li").allTextContents()).toEqual(
        expect.arrayContaining([`Ana · owns · ${SCRIPT_NAME}`, `${BREAKOUT_NAME} · writes to · Ana`]),
      );
      await checkLayout(page, `/dashboard/entities at ${width}`);

      await page.locator("#entities a.entity-name", { hasText: SCRIPT_NAME }).click();
      await page.waitForURL(/\/dashboard\/entities\/%3Cscript%3E/);
      expect(await page.textContent("main h1")).toBe(SCRIPT_NAME);
      expect(await page.textContent("#memories h2")).toBe(TEXT[lang].memories);
      expect(await page.locator("#memories .memory .content").allTextContents()).toContain(
        `${SCRIPT_NAME}: A strange gadget on the desk`,
      );
      await checkLayout(page, `the page of ${SCRIPT_NAME} at ${width}`);

      await page.locator("#relations a", { hasText: /^Ana$/ }).click();
      await page.waitForURL(`${srv.base}/dashboard/entities/Ana`);
      await checkLayout(page, `the page of Ana at ${width}`);
      await page.locator("#memories a[href^='/dashboard/memories/']").first().click();
      await page.waitForURL(/\/dashboard\/memories\/[0-9A-Z]{26}$/);
      expect(incidents).toEqual([]);
    });
  }
});
