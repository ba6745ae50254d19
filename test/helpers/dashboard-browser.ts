/** A tiny cookie-keeping browser over the Worker, for the dashboard's e2e tests. */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { createKey, uniqueUser } from "./api-keys";
import { uniqueIp } from "./oauth";

/** A tiny cookie-keeping browser over the Worker (no redirects followed). */
export class Browser {
  cookies = new Map<string, string>();
  /** Its own client address: every sign-in surface is limited per address. */
  readonly ip = uniqueIp();

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

  post(path: string, form: Record<string, string>, origin = "http://localhost"): Promise<Response> {
    return this.go(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams(form).toString(),
    });
  }

  async signIn(key: string): Promise<Response> {
    const page = await this.html("/dashboard");
    return this.post("/dashboard/sign-in", { csrf: csrfOf(page), key });
  }
}

/** The CSRF token a page's forms carry ("" when it has none). */
export const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

/** A person signed in with a fresh user key of their own. */
export async function signedInPerson(): Promise<{ b: Browser; key: string; keyId: string; user: string }> {
  const user = uniqueUser("dash");
  const { key, id } = await createKey({ user });
  const b = new Browser();
  const res = await b.signIn(key);
  expect(res.status).toBe(303);
  return { b, key, keyId: id, user };
}
