/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/dashboard-pages
 * The dashboard's GET pages: sign-in or overview at /dashboard, memories (search through the
 * recall pipeline, or browse), one memory, quarantine, connected clients.
 */
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import { z } from "zod";
import { embeddingModelKey } from "../../config";
import { listInput, memoryId, recallInput } from "../../memory/contracts";
import { invalidInput } from "../../memory/errors";
import { weekOf, weekStart } from "../../memory/manage/calendar-weeks";
import { detectInjection } from "../../memory/write/injection-detector";
import { screenLabels } from "../../memory/write/screen-content";
import type { AppEnv } from "../app-env";
import { listGrants } from "./client-grants";
import { ClientsPage } from "./clients-page";
import { callMemory, frameOf, requireSession } from "./dashboard-context";
import { currentSession, HOST_COOKIE_PATH } from "./dashboard-session";
import { historyEntries } from "./history-entries";
import { renderPage } from "./layout";
import { MemoriesPage, type MemoryListQuery } from "./memories-page";
import { MemoryPage } from "./memory-page";
import { OverviewPage } from "./overview-page";
import { QuarantinePage } from "./quarantine-page";
import { DASHBOARD_HOME, safeReturnPath } from "./return-to";
import { SignInPage } from "./sign-in-page";
import { CHART_WEEKS, chartData } from "./weekly-chart";

/** The sign-in form's double-submit token, a `__Host-` cookie like the session's. */
export const LOGIN_CSRF_COOKIE = "__Host-hc_dash_login";
const PAGE_SIZE = 20;
/** Core memories shown on the overview (the page links to the rest). */
const CORE_SHOWN = 10;

export async function signInPage(
  c: Context<AppEnv>,
  problem?: string,
  next?: string | null,
  status?: 401 | 429,
): Promise<Response> {
  const token = crypto.randomUUID();
  setCookie(c, LOGIN_CSRF_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: "Strict",
    path: HOST_COOKIE_PATH,
    maxAge: 900,
  });
  return renderPage(
    c,
    <SignInPage
      frame={frameOf(c, "sign-in", null, problem)}
      loginCsrf={token}
      next={next === undefined ? safeReturnPath(c.req.query("next")) : next}
    />,
    status ?? (problem ? 401 : 200),
  );
}

export async function overview(c: Context<AppEnv>): Promise<Response> {
  const session = await currentSession(c);
  if (!session) return signInPage(c);
  const next = safeReturnPath(c.req.query("next"));
  if (next && next !== DASHBOARD_HOME) return c.redirect(next, 303);
  const config = c.var.config;
  const now = Date.now();
  const since = weekStart(weekOf(now) - CHART_WEEKS + 1);
  const byPriority = listInput.parse({ status: "active", order: "priority", limit: CORE_SHOWN });
  const [stats, weekly, first] = await Promise.all([
    callMemory(c, session, (stub, scope) => stub.stats(scope)),
    callMemory(c, session, (stub, scope) => stub.activity(scope, since)),
    callMemory(c, session, (stub, scope) => stub.list(scope, byPriority)),
  ]);
  const core = first.memories.filter((memory) => memory.priority === 1);
  const models = {
    embedding: embeddingModelKey(config),
    vectorIndex: config.VECTOR_INDEX,
    llm: config.LLM_PROVIDER === "rules" ? "rules" : config.LLM_MODEL,
    reranker: config.RERANKER === "none" ? "none" : config.RERANKER_MODEL,
  };
  return renderPage(
    c,
    <OverviewPage
      frame={frameOf(c, "overview", session)}
      stats={stats}
      chart={chartData(weekly, now)}
      models={models}
      core={core}
    />,
  );
}

const listQuery = z.object({
  q: z.string().max(1000).default(""),
  status: z.enum(["active", "superseded", "deleted", "expired", "quarantined", "all"]).default("active"),
  category: z.string().max(50).default(""),
  cursor: z.string().max(200).default(""),
});

function parseList(c: Context<AppEnv>): MemoryListQuery {
  const parsed = listQuery.safeParse(c.req.query());
  if (!parsed.success) throw invalidInput(String(parsed.error.issues[0].path[0]), parsed.error.issues[0].message);
  return { ...parsed.data, q: parsed.data.q.trim(), category: parsed.data.category.trim() };
}

export async function memoriesPage(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const q = parseList(c);
  const category = q.category === "" ? undefined : q.category;
  if (q.q !== "") {
    // The same recall pipeline agents use, with its scores; a search covers every status asked for.
    const input = recallInput.parse({ query: q.q, category, include_superseded: q.status !== "active" });
    const found = await callMemory(c, session, (stub, scope) => stub.search(scope, input, 50));
    const items = found.results
      .filter((r) => q.status === "all" || r.memory.status === q.status)
      .map((r) => ({ memory: r.memory, score: r.score }));
    return renderPage(
      c,
      <MemoriesPage frame={frameOf(c, "memories", session)} query={q} items={items} nextCursor={null} />,
    );
  }
  const input = listInput.parse({ status: q.status, category, limit: PAGE_SIZE, cursor: q.cursor || undefined });
  const page = await callMemory(c, session, (stub, scope) => stub.list(scope, input));
  const items = page.memories.map((memory) => ({ memory }));
  return renderPage(
    c,
    <MemoriesPage frame={frameOf(c, "memories", session)} query={q} items={items} nextCursor={page.nextCursor} />,
  );
}

export function parseId(c: Context<AppEnv>): string {
  const parsed = memoryId.safeParse(c.req.param("id"));
  if (!parsed.success) throw invalidInput("id", parsed.error.issues[0].message);
  return parsed.data;
}

export async function memoryPage(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const id = parseId(c);
  const [detail, keys] = await Promise.all([
    callMemory(c, session, (stub, scope) => stub.history(scope, id)),
    c.var.services().accounts().apiKeys.listForUser(session.principal.accountId, session.principal.userId!),
  ]);
  const frame = frameOf(c, "memories", session);
  const keyLabels = new Map(keys.map((k) => [k.id, k.label ?? ""]));
  const history = historyEntries(detail.events, { m: frame.m, fmt: frame.fmt, keyLabels });
  return renderPage(c, <MemoryPage frame={frame} detail={detail} history={history} />);
}

export async function quarantinePage(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const input = listInput.parse({ status: "quarantined", limit: 100 });
  const page = await callMemory(c, session, (stub, scope) => stub.list(scope, input));
  // Deleted ones (by an agent or here) stay quarantined until purged, but are not shown for review.
  // The rule that held it, as the write path saw it (its text, else its labels).
  const items = page.memories
    .filter((memory) => memory.deletedAt === null)
    .map((memory) => {
      const found = detectInjection(memory.content);
      const verdict = found.suspicious ? found : screenLabels([memory.category, ...memory.tags, memory.source]);
      return { memory, reason: verdict.suspicious ? verdict.reason : "held" };
    });
  return renderPage(c, <QuarantinePage frame={frameOf(c, "quarantine", session)} items={items} />);
}

export async function clientsPage(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const grants = await listGrants(c, session.principal.accountId, session.principal.userId!);
  return renderPage(c, <ClientsPage frame={frameOf(c, "clients", session)} grants={grants} />);
}
