/**
 * @module scripts/lib/stress-owners
 * Who the reliability run acts as. Persons (user keys, two devices each), two apps whose end users
 * collide with each other and with a person's user id, and a pair of owners whose `account:user`
 * strings are equal (`acme` + `x:y`, `acme:x` + `y`): every place where two owners could share a
 * store is exercised. Each owner gets a marker, a word that appears in every text saved for it and
 * nowhere else, so a response that shows another owner's marker is a cross-owner leak. Pure.
 */
import type { Rng } from "./stress-prng.ts";

export interface StressOwner {
  /** Unique label: `user:<account>/<user>` or `app:<account>/<app>/<end user>`. */
  id: string;
  account: string;
  user: string;
  /** The app the end user belongs to; null for a person's own store. */
  app: string | null;
  marker: string;
}

export interface StressDevice {
  label: string;
  scope: "user" | "app";
  account: string;
  /** User id (scope user) or app name (scope app). */
  name: string;
  /** The owners this key may act for: its user, or the app's end users. */
  owners: StressOwner[];
  /** Filled in once the key exists. */
  key?: string;
}

export interface OwnerPlan {
  owners: StressOwner[];
  /** Devices the random clients use, apps first so they are always among the clients. */
  devices: StressDevice[];
  /** A person and an app used only by the fuzzer. */
  fuzzDevices: StressDevice[];
  /** A person used only by the vector index fault phase (its consolidation must not touch the ledger). */
  vectorDevice: StressDevice;
  /** A person used only by the embedding outage phase (scripts/lib/stress-embedder-fault.ts). */
  embedderDevice: StressDevice;
}

export const MARKER_PATTERN = /\bzq[a-z0-9]{10}\b/g;

/** Person i's address: the first two collide as `account:user` strings. */
function personAddress(i: number): { account: string; user: string } {
  if (i === 0) return { account: "acme", user: "x:y" };
  if (i === 1) return { account: "acme:x", user: "y" };
  return { account: "stress", user: `u${i}` };
}

export function planOwners(users: number, rng: Rng): OwnerPlan {
  if (!Number.isInteger(users) || users < 2) throw new Error("--users must be an integer of at least 2");
  const used = new Set<string>();
  const marker = (): string => {
    let m = `zq${rng.token(10)}`;
    while (used.has(m)) m = `zq${rng.token(10)}`;
    used.add(m);
    return m;
  };
  const owner = (account: string, user: string, app: string | null): StressOwner => ({
    id: app ? `app:${account}/${app}/${user}` : `user:${account}/${user}`,
    account,
    user,
    app,
    marker: marker(),
  });
  const app = (name: string, endUsers: string[]): StressDevice => ({
    label: `app ${name}`,
    scope: "app",
    account: "stress",
    name,
    owners: endUsers.map((u) => owner("stress", u, name)),
  });
  const person = (account: string, user: string, devices: number): StressDevice[] => {
    const o = owner(account, user, null);
    return Array.from({ length: devices }, (_, d) => ({
      label: `${account}/${user} device ${d + 1}`,
      scope: "user" as const,
      account,
      name: user,
      owners: [o],
    }));
  };
  // bot-a's "u2" is also a person's user id; bot-a and bot-b both serve an "e1".
  const devices = [app("bot-a", ["u2", "e1", "e2"]), app("bot-b", ["e1", "u3"])];
  for (let i = 0; i < users; i++) {
    const { account, user } = personAddress(i);
    devices.push(...person(account, user, 2));
  }
  const fuzzDevices = [...person("stress", "fuzz", 1), app("fuzz-app", ["fuzz-end-user"])];
  const [vectorDevice] = person("stress", "vector", 1);
  const [embedderDevice] = person("stress", "embedder", 1);
  const owners = [...devices, ...fuzzDevices, vectorDevice, embedderDevice].flatMap((d) => d.owners);
  return {
    owners: [...new Map(owners.map((o) => [o.id, o])).values()],
    devices,
    fuzzDevices,
    vectorDevice,
    embedderDevice,
  };
}
