/**
 * Layout checks run in the page (strings, since the tests are type-checked without the DOM's types):
 * short words (≤ 8 characters, no space) in controls and labels that the layout split over two
 * lines, and how far the page is wider than the window.
 */
import type { Page } from "playwright-core";

const BROKEN_WORDS = `(() => {
  const broken = [];
  for (const el of document.querySelectorAll("nav a, button, .badge, label, th, td, h1, h2, a")) {
    for (const node of el.childNodes) {
      const text = (node.textContent || "").trim();
      if (node.nodeType !== Node.TEXT_NODE || text.length === 0 || text.length > 8 || /\\s/.test(text)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(text);
    }
  }
  return broken;
})()`;
const OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth";

/** Short words split over two lines, in document order. */
export const brokenWords = (page: Page): Promise<string[]> => page.evaluate(BROKEN_WORDS);

/** Pixels the page is wider than the window (≤ 0 when it fits). */
export const overflowPixels = (page: Page): Promise<number> => page.evaluate(OVERFLOW);
