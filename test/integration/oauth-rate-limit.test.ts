import { beforeEach, describe, expect, it } from "vitest";
import { browserFetch, ORIGIN, uniqueIp } from "../helpers/oauth";

/** The limiter counts in wall-clock-aligned windows: start a burst well inside one. */
async function awayFromWindowEdge(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
}

function postSignIn(ip: string): Promise<Response> {
  return browserFetch(ip, {
    "content-type": "application/x-www-form-urlencoded",
    origin: ORIGIN,
    "accept-language": "zh-CN",
  })(`${ORIGIN}/authorize`, {
    method: "POST",
    body: "handle=nope&credential=guess&access=write&decision=approve",
    redirect: "manual",
  });
}

function postDashboardSignIn(ip: string): Promise<Response> {
  return browserFetch(ip, {
    "content-type": "application/x-www-form-urlencoded",
    origin: ORIGIN,
    "accept-language": "zh-CN",
  })(`${ORIGIN}/dashboard/sign-in`, { method: "POST", body: "csrf=x&key=guess", redirect: "manual" });
}

function postToken(ip: string): Promise<Response> {
  return browserFetch(ip, { "content-type": "application/x-www-form-urlencoded" })(`${ORIGIN}/oauth/token`, {
    method: "POST",
    body: "grant_type=refresh_token&refresh_token=a:b:c&client_id=none",
  });
}

describe("rate limits on the authorization endpoints", () => {
  beforeEach(awayFromWindowEdge, 70_000);

  it("allows 10 sign-in attempts a minute per address, then answers 429 in the page's language", async () => {
    const ip = uniqueIp();
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await postSignIn(ip)).status);
    expect(statuses).not.toContain(429);
    const limited = await postSignIn(ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.text()).toContain("尝试次数过多");
    // Another address is counted on its own.
    expect((await postSignIn(uniqueIp())).status).not.toBe(429);
  });

  it("counts an IPv6 /64 as one address: a person's devices and privacy addresses share one budget", async () => {
    const hex = () => crypto.getRandomValues(new Uint16Array(1))[0].toString(16);
    const prefix = `2001:db8:${hex()}:${hex()}`;
    const statuses = [];
    // Ten attempts, each from another address of the same /64, in every way an address may be written.
    for (let i = 0; i < 10; i++)
      statuses.push((await postSignIn(`${prefix}:${hex()}:${hex()}:${hex()}:${i + 1}`)).status);
    expect(statuses).not.toContain(429);
    expect((await postSignIn(`${prefix.toUpperCase()}::1`)).status).toBe(429);
    expect((await postDashboardSignIn(`${prefix}:0:0:0:0`)).status).toBe(429);
    // The next /64 is someone else.
    expect((await postSignIn(`2001:db8:${hex()}:${hex()}::1`)).status).not.toBe(429);
  });

  it("limits the dashboard's sign-in alike: 10 attempts a minute per address, then a 429 page", async () => {
    const ip = uniqueIp();
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await postDashboardSignIn(ip)).status);
    expect(statuses).not.toContain(429);
    const limited = await postDashboardSignIn(ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.text()).toContain("Too many attempts");
    expect((await postDashboardSignIn(uniqueIp())).status).not.toBe(429);
  });

  it("counts both sign-in surfaces in one budget per address", async () => {
    const ip = uniqueIp();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await postSignIn(ip)).status, (await postDashboardSignIn(ip)).status);
    expect(statuses).not.toContain(429);
    expect((await postDashboardSignIn(ip)).status).toBe(429);
    expect((await postSignIn(ip)).status).toBe(429);
  });

  it("limits the token endpoint per address with an OAuth error body", async () => {
    const ip = uniqueIp();
    const statuses = [];
    for (let i = 0; i < 60; i++) statuses.push((await postToken(ip)).status);
    expect(statuses).not.toContain(429);
    const limited = await postToken(ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.json()).toMatchObject({ error: "temporarily_unavailable" });
    // Registration and the page have their own buckets.
    const register = await browserFetch(ip, { "content-type": "application/json" })(`${ORIGIN}/oauth/register`, {
      method: "POST",
      body: "{}",
    });
    expect(register.status).not.toBe(429);
  });
});
