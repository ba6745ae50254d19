/**
 * @module durable/shard-relocation
 * One owner's crossing from one shard to another (docs/shards.md), run by the owner's Durable Object
 * on its write queue, in steps that each fit one invocation's D1 limits (PLATFORM_LIMITS): a step does
 * pages of work while the invocation can still afford one more, saves where it stands in the
 * object's storage, and the next call goes on from there. The phases:
 *   clear   — delete what an earlier, abandoned crossing left on the target;
 *   copy    — copy the owner's rows page by page (memories, history, FTS rows), summing what it read;
 *   verify  — sum what the target holds, page by page, and compare count and checksum per table;
 *   switch  — record the crossing in the directory and move the object to the target;
 *   delete  — delete the source's rows in chunks.
 * Until the switch the source is authoritative and the owner's writes are held (refused with a
 * retryable `conflict`, see `holdWrites`), so the copy cannot go stale; reads go on from the source.
 * A crossing that fits one invocation runs in one call, so a write arriving meanwhile just waits in
 * the queue. Safe to repeat or abandon at any point: before the switch the target is rebuilt, after it
 * only the source's leftovers are deleted.
 */
import { MemoryError } from "../memory/errors";
import type { Owner } from "../memory/types";
import {
  deleteChunk,
  OWNER_TABLE_COUNT,
  type OwnerSums,
  type OwnerWalk,
  sameSums,
  startWalk,
  walkDone,
  walkPage,
  walkSums,
} from "../storage/d1-owner-rows";
import { D1ShardDirectory } from "../storage/d1-shard-directory";
import type { ShardHome } from "../storage/shard-placement";

export interface RelocationReport {
  /** `moved`: crossed (and the source cleared); `already`: was on the target (leftovers cleared); `partial`: more steps to go. */
  status: "moved" | "already" | "partial";
  /** The phase the crossing is in after this call (`done` when finished). */
  phase: CrossingState["phase"] | "done";
  shard: string;
  /** What the target holds for this owner, per table (rows and checksum); empty until verified. */
  verified: OwnerSums;
  /** Rows deleted from the source (or the abandoned shard) so far, per table. */
  removed: Record<string, number>;
}

/** Where a crossing stands between invocations (kept in the object's storage). */
export type CrossingState = { from: string; to: string; removed: Record<string, number>; verified: OwnerSums } & (
  | { phase: "clear"; step: number }
  | { phase: "copy"; walk: OwnerWalk }
  | { phase: "verify"; read: OwnerSums; walk: OwnerWalk }
  | { phase: "delete"; step: number; crossed: boolean }
);

export interface CrossingStore {
  get(): Promise<CrossingState | null>;
  put(state: CrossingState | null): Promise<void>;
}

export interface Relocation {
  owner: Owner;
  current: ShardHome;
  from: ShardHome;
  to: ShardHome;
  home: D1Database;
  store: CrossingStore;
  /** D1 calls this invocation may still make (platform-limits/). */
  callsLeft(): number;
  /** Holds (true) or releases (false) the owner's writes on the source. */
  holdWrites(on: boolean): void;
  /** Switches the object's repository to the target; called once the directory records the crossing. */
  switchTo(home: ShardHome): void;
}

/**
 * D1 statements kept back per step: the directory's switch and what the call does after its last
 * page. A page of the copy costs its read and its insert batch (up to a dozen statements for rows
 * near the size limit); the costliest page so far sets the bar for the next one.
 */
const RESERVE = 10;
const FIRST_PAGE_COST = 14;

/** True while the crossing must hold the owner's writes (before the switch). */
export const holdsWrites = (s: CrossingState | null): boolean => s !== null && s.phase !== "delete";

const report = (s: CrossingState, status: RelocationReport["status"], shard: string): RelocationReport => ({
  status,
  phase: status === "partial" ? s.phase : "done",
  shard,
  verified: s.verified,
  removed: s.removed,
});

class Steps {
  private heaviest = FIRST_PAGE_COST;
  constructor(private readonly callsLeft: () => number) {}

  /** True while one more page (as costly as the costliest so far) fits this invocation. */
  fits(): boolean {
    return this.callsLeft() >= this.heaviest + RESERVE;
  }

  async page<T>(work: () => Promise<T>): Promise<T> {
    const before = this.callsLeft();
    const out = await work();
    this.heaviest = Math.max(4, before - this.callsLeft());
    return out;
  }
}

/** True once the source's rows are all deleted: the crossing is over. */
const finished = (s: CrossingState) => s.phase === "delete" && s.step >= OWNER_TABLE_COUNT;

/** One page of the phase the crossing is in; returns the state after it. */
async function advance(r: Relocation, s: CrossingState, steps: Steps): Promise<CrossingState> {
  switch (s.phase) {
    case "clear": {
      const d = await steps.page(() => deleteChunk(r.to.db, r.owner, s.step));
      if (!d.tableDone) return s;
      if (s.step + 1 < OWNER_TABLE_COUNT) return { ...s, step: s.step + 1 };
      return { from: s.from, to: s.to, removed: s.removed, verified: {}, phase: "copy", walk: startWalk() };
    }
    case "copy": {
      const walk = await steps.page(() => walkPage(r.from.db, r.owner, s.walk, r.to.db));
      if (!walkDone(walk)) return { ...s, walk };
      return {
        from: s.from,
        to: s.to,
        removed: s.removed,
        verified: {},
        phase: "verify",
        read: walkSums(walk),
        walk: startWalk(),
      };
    }
    case "verify": {
      const walk = await steps.page(() => walkPage(r.to.db, r.owner, s.walk));
      if (!walkDone(walk)) return { ...s, walk };
      return crossOver(r, s.read, walkSums(walk), s);
    }
    case "delete": {
      const d = await steps.page(() => deleteChunk(r.from.db, r.owner, s.step));
      const removed = { ...s.removed, [d.table]: (s.removed[d.table] ?? 0) + d.removed };
      return d.tableDone ? { ...s, removed, step: s.step + 1 } : { ...s, removed };
    }
  }
}

/** The copy verified: record the crossing, switch, and go on to delete the source. */
async function crossOver(r: Relocation, read: OwnerSums, written: OwnerSums, s: CrossingState): Promise<CrossingState> {
  if (!sameSums(read, written)) {
    await r.store.put({ from: s.from, to: s.to, removed: {}, verified: {}, phase: "clear", step: 0 });
    throw new MemoryError("conflict", `the copy to ${r.to.binding} did not verify; nothing moved, run the move again`);
  }
  if (!(await new D1ShardDirectory(r.home).moveOwner(r.owner, r.from.binding, r.to.binding)))
    throw new MemoryError("conflict", "the directory no longer places this user on the source shard");
  r.switchTo(r.to);
  return { from: s.from, to: s.to, removed: s.removed, verified: written, phase: "delete", step: 0, crossed: true };
}

/** The state this call starts from: the saved one when it is this move's, else a fresh start. */
async function startingState(r: Relocation): Promise<CrossingState> {
  const saved = await r.store.get();
  const mine = saved !== null && saved.from === r.from.binding && saved.to === r.to.binding ? saved : null;
  const base = { from: r.from.binding, to: r.to.binding, removed: mine?.removed ?? {}, verified: mine?.verified ?? {} };
  // On the target already (crossed, perhaps killed before the state said so): only the source's leftovers remain.
  if (r.current.binding === r.to.binding)
    return mine?.phase === "delete" ? mine : { ...base, phase: "delete", step: 0, crossed: mine !== null };
  return mine ?? { ...base, phase: "clear", step: 0 };
}

export async function relocateOwner(r: Relocation): Promise<RelocationReport> {
  if (r.from.binding === r.to.binding) throw new MemoryError("invalid_input", "from and to are the same shard", "to");
  if (r.current.binding !== r.from.binding && r.current.binding !== r.to.binding)
    throw new MemoryError(
      "conflict",
      `this user is on ${r.current.binding}, neither ${r.from.binding} nor ${r.to.binding}`,
    );
  let state = await startingState(r);
  r.holdWrites(holdsWrites(state));
  const steps = new Steps(r.callsLeft);
  while (steps.fits()) {
    state = await advance(r, state, steps);
    if (finished(state)) {
      await r.store.put(null);
      r.holdWrites(false);
      return report(state, state.phase === "delete" && state.crossed ? "moved" : "already", r.to.binding);
    }
    await r.store.put(state);
    r.holdWrites(holdsWrites(state));
  }
  return report(state, "partial", r.to.binding);
}
