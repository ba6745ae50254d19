/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/weekly-chart
 * Memories saved per week, stacked by category, as server-rendered SVG (no script, no library):
 * the last 12 weeks (Monday to Sunday, `memory/manage/calendar-weeks.ts`), each labelled by its
 * first day in the reader's locale, the 6 largest categories with the rest as "other". Category
 * names are untrusted text and only ever appear as escaped SVG text. On a phone the SVG is scaled
 * down, so its text is drawn large and every other week's label is left out.
 */
import { weekOf, weekStart } from "../../memory/manage/calendar-weeks";
import type { WeeklyCount } from "../../memory/ports";
import type { DashFormat } from "./dashboard-format";
import type { DashMessages } from "./dashboard-messages";

export const CHART_WEEKS = 12;
const COLORS = ["#0b57d0", "#1e7b34", "#a35a00", "#8e24aa", "#b3261e", "#00796b", "#6b7080"];
const W = 640;
const H = 220;
const PAD = { left: 44, bottom: 34, top: 10 };
const FONT = 16;
/** The key of the bucket of every category past the six largest. */
export const OTHER_CATEGORY = "\u0000other";

export interface ChartData {
  weeks: number[];
  categories: string[];
  /** counts[category index][week index] */
  counts: number[][];
}

export function chartData(rows: WeeklyCount[], now: number): ChartData {
  const last = weekOf(now);
  const weeks = Array.from({ length: CHART_WEEKS }, (_, i) => last - CHART_WEEKS + 1 + i);
  const totals = new Map<string, number>();
  for (const r of rows) totals.set(r.category, (totals.get(r.category) ?? 0) + r.count);
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([c]) => c);
  const top = ranked.slice(0, COLORS.length - 1);
  const categories = ranked.length > top.length ? [...top, OTHER_CATEGORY] : top;
  const counts = categories.map(() => weeks.map(() => 0));
  for (const r of rows) {
    const w = weeks.indexOf(r.week);
    if (w < 0) continue;
    const c = top.includes(r.category) ? top.indexOf(r.category) : categories.length - 1;
    counts[c][w] += r.count;
  }
  return { weeks, categories, counts };
}

/** How one drawing of the chart is laid out: a desktop's (wide) or a phone's (narrow), in SVG units. */
interface Geometry {
  cls: "wide" | "narrow";
  w: number;
  h: number;
  /** Right: room for half of the last week's date, which is centred under its bar. */
  pad: { left: number; bottom: number; top: number; right: number };
  font: number;
  /** A week's date is written under every `labelEvery`-th bar, the last week's always. */
  labelEvery: number;
}

/**
 * Drawn twice, and the stylesheet shows one: an SVG scales its text with its width, so the desktop's
 * 640-unit drawing at a phone's ~310 px would write its labels at 7 px. The phone's drawing is 320
 * units wide with a date under every third week, so its labels render at ~13 px.
 */
const WIDE: Geometry = { cls: "wide", w: W, h: H, pad: { ...PAD, right: 24 }, font: FONT, labelEvery: 2 };
const NARROW: Geometry = {
  cls: "narrow",
  w: 320,
  h: 200,
  pad: { left: 30, bottom: 30, top: 10, right: 22 },
  font: 13,
  labelEvery: 3,
};

export function WeeklyChart(props: { data: ChartData; m: DashMessages; fmt: DashFormat }) {
  const { weeks, categories, counts } = props.data;
  const name = (cat: string) => (cat === OTHER_CATEGORY ? props.m.overview.otherCategory : props.m.categoryName(cat));
  const totals = weeks.map((_, w) => counts.reduce((sum, row) => sum + row[w], 0));
  if (totals.every((t) => t === 0)) return <p class="muted">{props.m.overview.noActivity}</p>;
  return (
    <figure>
      <Drawing {...props} g={WIDE} name={name} totals={totals} />
      <Drawing {...props} g={NARROW} name={name} totals={totals} />
      <figcaption class="legend">
        {categories.map((cat, c) => (
          <span>
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" fill={COLORS[c]} />
            </svg>{" "}
            {name(cat)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function Drawing(props: {
  data: ChartData;
  m: DashMessages;
  fmt: DashFormat;
  g: Geometry;
  name: (cat: string) => string;
  totals: number[];
}) {
  const { weeks, categories, counts } = props.data;
  const { g, name } = props;
  const max = Math.max(1, ...props.totals);
  const slot = (g.w - g.pad.left - g.pad.right) / weeks.length;
  const plotH = g.h - g.pad.bottom - g.pad.top;
  const y = (v: number) => g.pad.top + plotH - (v / max) * plotH;
  return (
    <svg class={`chart ${g.cls}`} viewBox={`0 0 ${g.w} ${g.h}`} role="img" aria-label={props.m.overview.chart}>
      <title>{props.m.overview.chart}</title>
      <line x1={g.pad.left} y1={y(0)} x2={g.w} y2={y(0)} stroke="#6b7080" />
      <text x={g.pad.left - 6} y={y(max) + 6} text-anchor="end" font-size={g.font}>
        {props.fmt.number(max)}
      </text>
      <text x={g.pad.left - 6} y={y(0)} text-anchor="end" font-size={g.font}>
        {props.fmt.number(0)}
      </text>
      {weeks.map((week, w) => {
        let base = 0;
        const x = g.pad.left + w * slot + slot * 0.15;
        return (
          <g>
            {categories.map((cat, c) => {
              const v = counts[c][w];
              if (v === 0) return null;
              const rect = (
                <rect x={x} width={slot * 0.7} y={y(base + v)} height={y(base) - y(base + v)} fill={COLORS[c]}>
                  <title>{`${name(cat)}: ${props.fmt.number(v)}`}</title>
                </rect>
              );
              base += v;
              return rect;
            })}
            {(weeks.length - 1 - w) % g.labelEvery === 0 ? (
              <text x={x + slot * 0.35} y={g.h - 10} text-anchor="middle" font-size={g.font}>
                {props.fmt.day(weekStart(week))}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
