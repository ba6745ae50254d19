/**
 * @module http/dashboard/dashboard-actions
 * The dashboard's form posts: sign-in and sign-out, edit, delete, restore, release from quarantine,
 * revoke a client, and the export download. Every post is checked for its CSRF token (and Origin)
 * before anything changes; each answers with a redirect (POST → 303 → GET) carrying a flash key.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { resolveScope } from "../../access/scope";
import { editInput } from "../../memory/contracts";
import { invalidInput } from "../../memory/errors";
import { exportStream } from "../../memory/export/export-stream";
import type { AppEnv } from "../app-env";
import { revokeGrant } from "./client-grants";
import { callMemory, checkForm, frameOf, readerZone, requireSession } from "./dashboard-context";
import { LOGIN_CSRF_COOKIE, parseId, signInPage } from "./dashboard-pages";
import { endSession, HOST_COOKIE_PATH, sameToken, startSession } from "./dashboard-session";
import { memoryHref } from "./memories-page";
import { DASHBOARD_HOME, safeReturnPath } from "./return-to";

export async function signInAction(c: Context<AppEnv>): Promise<Response> {
  const m = frameOf(c, "sign-in", null).m;
  const origin = c.req.header("origin");
  const form = await c.req.parseBody();
  const next = safeReturnPath(form.next);
  const expected = getCookie(c, LOGIN_CSRF_COOKIE) ?? "";
  const presented = typeof form.csrf === "string" ? form.csrf : "";
  if ((origin && origin !== new URL(c.req.url).origin) || expected === "" || !(await sameToken(presented, expected)))
    return signInPage(c, m.signIn.problems.csrf, next);
  const problem = await startSession(c, typeof form.key === "string" ? form.key : "");
  if (problem) return signInPage(c, m.signIn.problems[problem], next);
  deleteCookie(c, LOGIN_CSRF_COOKIE, { path: HOST_COOKIE_PATH, secure: true });
  return c.redirect(next ?? DASHBOARD_HOME, 303);
}

export async function signOutAction(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  await checkForm(c, session.csrf);
  await endSession(c, session);
  return c.redirect("/dashboard", 303);
}

const back = (c: Context<AppEnv>, path: string, flash: string) => c.redirect(`${path}?flash=${flash}`, 303);

/** "a, b ,c" → ["a", "b", "c"]. */
function tagsOf(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

export async function editAction(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const form = await checkForm(c, session.csrf);
  const id = parseId(c);
  const parsed = editInput.safeParse({
    id,
    content: form.content,
    category: form.category || undefined,
    tags: tagsOf(form.tags),
    priority: form.priority ? Number(form.priority) : undefined,
    // "tomorrow" in an edited text is the reader's tomorrow (memory/write/event-date.ts).
    time_zone: readerZone(c),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput(String(issue.path[0] ?? "form"), issue.message);
  }
  await callMemory(c, session, (stub, scope) => stub.update(scope, parsed.data));
  return back(c, memoryHref(id), "saved");
}

export function memoryAction(kind: "delete" | "restore" | "release") {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const session = await requireSession(c);
    if (session instanceof Response) return session;
    await checkForm(c, session.csrf);
    const id = parseId(c);
    if (kind === "delete") {
      const r = await callMemory(c, session, (stub, scope) => stub.delete(scope, { id }));
      // Says what happened: a second delete changed nothing; a quarantined memory stays quarantined.
      const flash = r.quarantined.includes(id)
        ? "deleted-quarantined"
        : r.deleted.includes(id)
          ? "deleted"
          : "already-deleted";
      return back(c, memoryHref(id), flash);
    }
    if (kind === "restore") await callMemory(c, session, (stub, scope) => stub.restore(scope, id));
    else await callMemory(c, session, (stub, scope) => stub.release(scope, id));
    return back(c, memoryHref(id), kind === "restore" ? "restored" : "released");
  };
}

export async function revokeAction(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  await checkForm(c, session.csrf);
  const grantId = c.req.param("id") ?? "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(grantId)) throw invalidInput("id", "is not a grant id");
  const revoked = await revokeGrant(c, session.principal.accountId, session.principal.userId!, grantId);
  return back(c, "/dashboard/clients", revoked ? "revoked" : "not-revoked");
}

/** The same export as GET /v1/export (docs/export-format.md), for the signed-in person. */
export async function exportAction(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const scope = resolveScope({ caller: { principal: session.principal, agentHeader: null, sessionHeader: null } }, {});
  const now = Date.now();
  const reader = await c.var.services().exportReader(scope);
  const stream = exportStream(reader, scope, { status: "all" }, now);
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="hippocampus-${new Date(now).toISOString().slice(0, 10)}.jsonl"`,
      "cache-control": "no-store",
    },
  });
}
