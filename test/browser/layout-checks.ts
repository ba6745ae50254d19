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

// Every button and link in main that a person cannot see without scrolling sideways: outside the
// window, or cut off by a box that clips or scrolls its content (a table in a scrolling card).
const HIDDEN_ACTIONS = `(() => {
  const hidden = [];
  const clips = (el) => { const s = getComputedStyle(el); return s.overflowX !== "visible" || s.overflow !== "visible"; };
  for (const el of document.querySelectorAll("main button, main a, main input[type=submit]")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    let cut = r.left < -0.5 || r.right > window.innerWidth + 0.5;
    for (let p = el.parentElement; p && !cut && p !== document.body; p = p.parentElement) {
      if (!clips(p) || p.classList.contains("visually-hidden")) continue;
      const b = p.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5) cut = true;
    }
    if (cut) hidden.push((el.textContent || el.getAttribute("aria-label") || el.tagName).trim());
  }
  return hidden;
})()`;

// Elements wider than the card they sit in (its content box), or reaching past its right edge.
const CARD_OVERFLOW = `(() => {
  const out = [];
  for (const card of document.querySelectorAll("main .card")) {
    const c = card.getBoundingClientRect();
    const right = c.right - parseFloat(getComputedStyle(card).paddingRight) + 0.5;
    if (card.scrollWidth > card.clientWidth + 0.5) out.push("card scrolls: " + (card.id || card.className));
    for (const el of card.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || el.closest(".visually-hidden")) continue;
      if (r.right > right) { out.push(el.tagName.toLowerCase() + ": " + (el.textContent || "").trim().slice(0, 40)); break; }
    }
  }
  return out;
})()`;

// The smallest rendered size, in CSS pixels, of the chart's visible labels (Infinity without a chart).
const CHART_LABEL_PX = `(() => {
  let least = Infinity;
  for (const svg of document.querySelectorAll("svg.chart")) {
    if (svg.getBoundingClientRect().width === 0) continue;
    for (const t of svg.querySelectorAll("text")) least = Math.min(least, t.getBoundingClientRect().height);
  }
  return least;
})()`;

/** Buttons and links a person cannot see without scrolling sideways, by their text. */
export const hiddenActions = (page: Page): Promise<string[]> => page.evaluate(HIDDEN_ACTIONS);

/** What reaches past the right edge of its card (one entry per card), and cards that scroll. */
export const cardOverflow = (page: Page): Promise<string[]> => page.evaluate(CARD_OVERFLOW);

/** The rendered height in CSS pixels of the chart's smallest label. */
export const chartLabelPx = (page: Page): Promise<number> => page.evaluate(CHART_LABEL_PX);
