/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/overview-page
 * Counts by status, category, priority and type; the weekly chart; index sync; models in use; the
 * export button.
 */
import type { MemoryStats } from "../../memory/manage/browse-memories";
import { Layout, type PageFrame } from "./layout";
import { type ChartData, WeeklyChart } from "./weekly-chart";

export interface ModelsInUse {
  embedding: string;
  vectorIndex: string;
  llm: string;
  reranker: string;
}

function Counts(props: { title: string; counts: Record<string, number>; label?: (k: string) => string }) {
  const entries = Object.entries(props.counts).sort((a, b) => b[1] - a[1]);
  return (
    <div class="card">
      <h2>{props.title}</h2>
      <table>
        <tbody>
          {entries.map(([k, v]) => (
            <tr>
              <td>{props.label ? props.label(k) : k}</td>
              <td>{String(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function OverviewPage(props: { frame: PageFrame; stats: MemoryStats; chart: ChartData; models: ModelsInUse }) {
  const { m } = props.frame;
  const o = m.overview;
  const s = props.stats;
  return (
    <Layout frame={props.frame} title={o.heading}>
      <h1>{o.heading}</h1>
      <p>
        {o.total}: <strong id="total">{String(s.total)}</strong> ·{" "}
        <a href="/dashboard/export" download id="export">
          {o.export}
        </a>
      </p>
      <div class="card">
        <h2>{o.chart}</h2>
        <WeeklyChart data={props.chart} m={m} />
      </div>
      <div class="grid">
        <Counts title={o.byStatus} counts={s.byStatus} label={(k) => m.status[k] ?? k} />
        <Counts title={o.byCategory} counts={s.byCategory} />
        <Counts title={o.byPriority} counts={s.byPriority} />
        <Counts title={o.byType} counts={s.byType} />
        <div class="card">
          <h2>{o.index}</h2>
          <p>
            <strong>{s.inSync ? o.inSync : o.outOfSync}</strong>
          </p>
          <p class="muted">
            {o.unindexed}: {String(s.activeUnindexed)} · {o.otherModel}: {String(s.activeOtherModel)}
          </p>
        </div>
        <div class="card">
          <h2>{o.models}</h2>
          <table>
            <tbody>
              <tr>
                <td>{o.embedding}</td>
                <td>{props.models.embedding}</td>
              </tr>
              <tr>
                <td>{o.vectorIndex}</td>
                <td>{props.models.vectorIndex}</td>
              </tr>
              <tr>
                <td>{o.llm}</td>
                <td>{props.models.llm}</td>
              </tr>
              <tr>
                <td>{o.reranker}</td>
                <td>{props.models.reranker}</td>
              </tr>
            </tbody>
          </table>
        </div>
      </div>
    </Layout>
  );
}
