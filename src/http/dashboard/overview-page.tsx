/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/overview-page
 * What the person's agents know about them first (core memories), counts that say what they count
 * (all memories by status; active ones by category, priority and kind), the weekly chart, index
 * sync, models in use and the export button. Priorities read 1 → 5 and statuses in their life
 * order; categories by size.
 */
import { MEMORY_STATUSES } from "../../memory/contracts";
import type { MemoryStats } from "../../memory/manage/browse-memories";
import type { Memory } from "../../memory/types";
import { Layout, type PageFrame } from "./layout";
import { MemoryItem } from "./memories-page";
import { type ChartData, WeeklyChart } from "./weekly-chart";

export interface ModelsInUse {
  embedding: string;
  vectorIndex: string;
  llm: string;
  reranker: string;
}

type Order = "by-size" | string[];

function sorted(counts: Record<string, number>, order: Order): [string, number][] {
  const entries = Object.entries(counts);
  if (order === "by-size") return entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return entries.sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
}

function Counts(props: {
  id: string;
  title: string;
  counts: Record<string, number>;
  order: Order;
  frame: PageFrame;
  label?: (k: string) => string;
}) {
  const entries = sorted(props.counts, props.order);
  return (
    <div class="card" id={props.id}>
      <h2>{props.title}</h2>
      {entries.length === 0 ? <p class="muted">{props.frame.fmt.number(0)}</p> : null}
      <table>
        <tbody>
          {entries.map(([k, v]) => (
            <tr>
              <td>{props.label ? props.label(k) : k}</td>
              <td class="num">{props.frame.fmt.number(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CoreMemories(props: { frame: PageFrame; core: Memory[] }) {
  const o = props.frame.m.overview;
  return (
    <div class="card" id="core">
      <h2>{o.core}</h2>
      <p class="muted">{o.coreIntro}</p>
      {props.core.length === 0 ? <p class="muted">{o.coreNone}</p> : null}
      {props.core.map((memory) => (
        <MemoryItem item={{ memory }} frame={props.frame} />
      ))}
    </div>
  );
}

export function OverviewPage(props: {
  frame: PageFrame;
  stats: MemoryStats;
  chart: ChartData;
  models: ModelsInUse;
  core: Memory[];
}) {
  const { m, fmt } = props.frame;
  const frame = props.frame;
  const o = m.overview;
  const s = props.stats;
  return (
    <Layout frame={props.frame} title={o.heading}>
      <h1>{o.heading}</h1>
      <p>
        {o.total}: <strong id="total">{fmt.number(s.total)}</strong> ·{" "}
        <a href="/dashboard/export" download id="export">
          {o.export}
        </a>
      </p>
      <CoreMemories frame={frame} core={props.core} />
      <div class="card">
        <h2>{o.chart}</h2>
        <p class="muted">{o.chartCounts}</p>
        <WeeklyChart data={props.chart} m={m} fmt={fmt} />
      </div>
      <div class="grid">
        <Counts
          id="by-status"
          title={o.byStatus}
          counts={s.byStatus}
          order={[...MEMORY_STATUSES]}
          frame={frame}
          label={(k) => m.status[k] ?? k}
        />
        <Counts
          id="by-category"
          title={o.byCategory}
          counts={s.byCategory}
          order="by-size"
          frame={frame}
          label={(k) => m.categoryName(k)}
        />
        <Counts
          id="by-priority"
          title={o.byPriority}
          counts={s.byPriority}
          order={["1", "2", "3", "4", "5"]}
          frame={frame}
          label={(k) => m.priorities[k] ?? k}
        />
        <Counts
          id="by-type"
          title={o.byType}
          counts={s.byType}
          order={["semantic", "episodic"]}
          frame={frame}
          label={(k) => m.types[k] ?? k}
        />
        <div class="card">
          <h2>{o.index}</h2>
          <p>
            <strong>{s.inSync ? o.inSync : o.outOfSync}</strong>
          </p>
          <p class="muted">
            {o.unindexed}: {fmt.number(s.activeUnindexed)} · {o.otherModel}: {fmt.number(s.activeOtherModel)}
          </p>
        </div>
        <div class="card">
          <h2>{o.models}</h2>
          <table>
            <tbody>
              <tr>
                <td class="label">{o.embedding}</td>
                <td class="code">{props.models.embedding}</td>
              </tr>
              <tr>
                <td class="label">{o.vectorIndex}</td>
                <td class="code">{props.models.vectorIndex}</td>
              </tr>
              <tr>
                <td class="label">{o.llm}</td>
                <td class="code">{props.models.llm}</td>
              </tr>
              <tr>
                <td class="label">{o.reranker}</td>
                <td class="code">{props.models.reranker}</td>
              </tr>
            </tbody>
          </table>
        </div>
      </div>
    </Layout>
  );
}
