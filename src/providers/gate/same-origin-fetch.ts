/**
 * @module providers/gate/same-origin-fetch
 * A provider request never follows a redirect to another origin: it is sent with
 * `redirect: "manual"`, a 3xx to the same origin (scheme, host and port) is followed (at most
 * MAX_REDIRECTS times, as the same POST with the same body: 307/308 semantics), and a 3xx anywhere
 * else is refused, so the memory text and the API key are never re-sent to a host the operator did
 * not configure. (By default fetch follows redirects and, for 307/308, re-sends the body.)
 */

export const MAX_REDIRECTS = 3;

/** A redirect the provider call refused to follow: another origin, no Location, or too many hops. */
export class UpstreamRedirectError extends Error {
  constructor(
    readonly status: number,
    why: string,
  ) {
    super(`redirect refused (HTTP ${status}): ${why}`);
    this.name = "UpstreamRedirectError";
  }
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** `send(url, init)` with redirects followed only within `url`'s origin. */
export async function sameOriginFetch(send: typeof fetch, url: string, init: RequestInit): Promise<Response> {
  const origin = new URL(url).origin;
  let target = url;
  for (let hop = 0; ; hop++) {
    const res = await send(target, { ...init, redirect: "manual" });
    if (!isRedirect(res.status) || res.status === 304) return res;
    await res.body?.cancel().catch(() => undefined);
    const location = res.headers.get("location");
    if (!location) throw new UpstreamRedirectError(res.status, "no Location");
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      throw new UpstreamRedirectError(res.status, "a Location that is not a URL");
    }
    if (next.origin !== origin) throw new UpstreamRedirectError(res.status, "to another origin");
    if (hop + 1 > MAX_REDIRECTS) throw new UpstreamRedirectError(res.status, `more than ${MAX_REDIRECTS} redirects`);
    target = next.href;
  }
}
