/**
 * A Chromium page that records what must never happen on the dashboard: a dialog (alert, confirm),
 * an uncaught script error, or a Content Security Policy violation. Hostile memory text that the
 * server escaped never reaches the CSP, so a violation means escaping failed and only the CSP caught
 * it — a test failure too.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Dialogs opened, uncaught errors and CSP reports, in order. */
  incidents: string[];
}

export async function watchedPage(
  browser: Browser,
  lang: "en" | "zh",
  viewport = { width: 1100, height: 900 },
): Promise<WatchedPage> {
  const context = await browser.newContext({
    acceptDownloads: true,
    locale: lang === "zh" ? "zh-CN" : "en-GB",
    viewport,
  });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const incidents: string[] = [];
  page.on("dialog", (d) => {
    incidents.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("pageerror", (e) => incidents.push(`page error: ${e.message}`));
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) incidents.push(`csp: ${msg.text()}`);
  });
  return { context, page, incidents };
}
