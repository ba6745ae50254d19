/** A tiny cookie-keeping browser over the Worker for dashboard tests (no redirects followed). */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { createKey, uniqueUser } from "./api-keys";
import { uniqueIp } from "./oauth";

export const SAME_ORIGIN = "http://localhost";

export const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)![1];

export class Browser {
  cookies = new Map<string, string>();
  /** `ip`: the client address the Worker sees (cf-connecting-ip); its own by default, as every sign-in surface is limited per address. */
  constructor(readonly ip: string = uniqueIp()) {}

  async go(path: string, init: RequestInit = {}): Promise<Response> {
    const request = new Request(`http://localhost${path}`, { ...init, redirect: "manual" });
    request.headers.set("host", "localhost");
    request.headers.set("cf-connecting-ip", this.ip);
    if (this.cookies.size > 0) request.headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await exports.default.fetch(request);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, value] = pair.split("=");
      if (/Max-Age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async html(path: string): Promise<string> {
    const res = await this.go(path);
    expect(res.status, path).toBe(200);
    return res.text();
  }

  /** A form post; `origin: null` sends no Origin header at all (the string "null" is what a sandboxed page sends). */
  post(path: string, form: Record<string, string>, origin: string | null = SAME_ORIGIN): Promise<Response> {
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (origin !== null) headers.origin = origin;
    return this.go(path, { method: "POST", headers, body: new URLSearchParams(form).toString() });
  }

  async signIn(key: string): Promise<Response> {
    const page = await this.html("/dashboard");
    return this.post("/dashboard/sign-in", { csrf: csrfOf(page), key });
  }
}

/** A person signed in with a fresh user key of their own. */
export async function signedInPerson(): Promise<{ b: Browser; key: string; keyId: string; user: string }> {
  const user = uniqueUser("dash");
  const { key, id } = await createKey({ user });
  const b = new Browser();
  const res = await b.signIn(key);
  expect(res.status).toBe(303);
  return { b, key, keyId: id, user };
}
