/**
 * @module http/dashboard/return-to
 * Where a person goes after signing in: the dashboard page they asked for while signed out (a link
 * from ChatGPT to one memory, say), carried as `next` through the sign-in form. Only a path inside
 * the dashboard on this origin is kept — never another host (`//evil.example`, `/\evil.example`),
 * never a scheme — so the sign-in page cannot be used to send anyone elsewhere.
 */

/** The dashboard's home, where a sign-in lands when no (safe) page was asked for. */
export const DASHBOARD_HOME = "/dashboard";
const MAX_RETURN_CHARS = 512;
const BASE = "http://dashboard.invalid";

/** `value` when it is a safe path inside the dashboard, else null. */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > MAX_RETURN_CHARS) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  for (const ch of value) if (ch < " " || ch === "\u007f") return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = `${url.pathname}${url.search}`;
  return path === DASHBOARD_HOME || path.startsWith(`${DASHBOARD_HOME}/`) || path.startsWith(`${DASHBOARD_HOME}?`)
    ? path
    : null;
}

/** The sign-in page that brings the person back to `path` afterwards. */
export function signInFor(path: string): string {
  const safe = safeReturnPath(path);
  return safe && safe !== DASHBOARD_HOME ? `${DASHBOARD_HOME}?next=${encodeURIComponent(safe)}` : DASHBOARD_HOME;
}
