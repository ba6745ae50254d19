/**
 * @module scripts/lib/dev-url
 * Where `npm run dev` is listening, for the scripts that talk to it: dev.ts records its URL in
 * .wrangler/dev-url once the server answers and removes it when the server stops; `npm run export`,
 * `npm run import` (and others that take `--url`) use it when no `--url` is given, else
 * http://127.0.0.1:8787. An explicit `--url` always wins.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const DEV_URL_FILE = join(import.meta.dirname, "../../.wrangler/dev-url");
export const DEFAULT_DEV_URL = "http://127.0.0.1:8787";

export function recordDevUrl(base: string, file = DEV_URL_FILE): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${base}\n`);
}

/** Removes the record if it is still this server's (another dev server may have written its own since). */
export function clearDevUrl(base: string, file = DEV_URL_FILE): void {
  try {
    if (readFileSync(file, "utf8").trim() === base) rmSync(file);
  } catch {
    // nothing recorded
  }
}

/** The server a script talks to: `--url`, else the running dev server's, else the default. */
export function serverUrl(explicit: string | undefined, file = DEV_URL_FILE): { url: string; from: string } {
  if (explicit) return { url: explicit, from: "--url" };
  if (existsSync(file)) {
    const recorded = readFileSync(file, "utf8").trim();
    if (/^https?:\/\/[^\s/]+$/.test(recorded)) return { url: recorded, from: "npm run dev (.wrangler/dev-url)" };
  }
  return { url: DEFAULT_DEV_URL, from: "the default" };
}

/** After a 401 or 403: the key is checked by whatever answers at that URL, which may not be this project's server. */
export function authHint(status: number): string {
  return status === 401 || status === 403
    ? " (is that the server you meant? The key is checked by the server at that URL: pass --url, or start npm run dev)"
    : "";
}
