/**
 * @module shards/shard-relocation
 * One owner's crossing from one shard to another (docs/shards.md), run by the owner's Durable Object
 * on its write queue, in steps that each fit one invocation's limits (PLATFORM_LIMITS): a step does
 * pages of work while the invocation can still afford one more — its D1 queries, and the rows its CPU
 * time carries (`maxRows`) — saves where it stands in the object's storage, and the next call goes on
 * from there. The phases:
 *   clear   — delete what an earlier, abandoned crossing left on the target;
 *   copy    — copy the owner's rows page by page (memories, history, FTS rows), summing what it read;
 *   verify  — sum what the target holds, page by page, and compare count and checksum per table;
 *   switch  — record the crossing in the directory and move the object to the target;
 *   reindex — only when the target's shard has another Vectorize index (VECTORIZE_BY_SHARD): page by
 *             page, the owner's memories on the target are marked unindexed (the index repair embeds
 *             them into the target's index; recall finds them by keyword meanwhile) and their vectors
 *             removed from the source's index;
 *   delete  — delete the source's rows in chunks.
 * Until the switch the source is authoritative and the owner's writes are held (refused with a
 * retryable `conflict`, see `holdWrites`), so the copy cannot go stale; reads go on from the source.
 * A crossing that fits one invocation runs in one call, so a write arriving meanwhile just waits in
 * the queue. Safe to repeat or abandon at any point: before the switch the target is rebuilt, after it
 * only the source's leftovers are deleted.
 */
import { MemoryError } from "../memory/errors";
import type { VectorIndex } from "../memory/ports";
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
  walkRows,
  walkSums,
} from "./d1-owner-rows";
import { D1ShardDirectory } from "./d1-shard-directory";
import { UNINDEX_PAGE, unindexOwnerPage } from "./d1-unindex-owner";
import type { ShardHome } from "./shard-placement";

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
  /** Rows this call read: copied to the target, and read back there to verify (at most `maxRows` together). */
  read: { copied: number; verified: number };
}

/** Where a crossing stands between invocations (kept in the object's storage). */
export type CrossingState = { from: string; to: string; removed: Record<string, number>; verified: OwnerSums } & (
  | { phase: "clear"; step: number }
  | { phase: "copy"; walk: OwnerWalk }
  | { phase: "verify"; read: OwnerSums; walk: OwnerWalk }
  | { phase: "reindex"; cursor: string; reindexed: number }
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
  /**
   * Rows this call may read, copy and verify together: what the invocation's CPU time carries
   * (platform-limits/cpu-sizing.ts). Deletes are not counted: their rows never pass through the object.
   */
  maxRows: number;
  /** Holds (true) or releases (false) the owner's writes on the source. */
  holdWrites(on: boolean): void;
  /** Switches the object's repository to the target; called once the directory records the crossing. */
  switchTo(home: ShardHome): void;
  /**
   * The source shard's Vectorize index when the target's is another one (VECTORIZE_BY_SHARD): the
   * crossing then reindexes the owner (phase `reindex`). Null when both shards share one index.
   */
  sourceIndex: VectorIndex | null;
}

/**
 * D1 statements kept back per step: the directory's switch and what the call does after its last
 * page. A page of the copy costs its read and its insert batch (up to a dozen statements for rows
 * near the size limit); the costliest page so far sets the bar for the next one.
 */
const RESERVE = 10;
const FIRST_PAGE_COST = 14;

/** True while the crossing must hold the owner's writes (before the switch). */
export const holdsWrites = (s: CrossingState | null): boolean =>
  s !== null && s.phase !== "delete" && s.phase !== "reindex";

/** The phases whose pages read rows into the object (and count towards `maxRows`). */
const reads = (s: CrossingState) => s.phase === "copy" || s.phase === "verify";

class Steps {
  private heaviest = FIRST_PAGE_COST;
  readonly read = { copied: 0, verified: 0 };
  constructor(
    private readonly callsLeft: () => number,
    private readonly maxRows: number,
  ) {}

  /** Rows this call may still read. */
  rowsLeft(): number {
    return this.maxRows - this.read.copied - this.read.verified;
  }

  /**
   * True while one more page of `s`'s phase fits this invocation: its D1 queries (as costly as the
   * last page, at least 4) and, for a phase that reads, at least one row of `maxRows`.
   */
  fits(s: CrossingState): boolean {
    return this.callsLeft() >= this.heaviest + RESERVE && (!reads(s) || this.rowsLeft() > 0);
  }

  async page<T>(work: () => Promise<T>): Promise<T> {
    const before = this.callsLeft();
    const out = await work();
    this.heaviest = Math.max(4, before - this.callsLeft());
    return out;
  }

  /** One page of a walk (copy or verify), of at most the rows this call may still read. */
  async walk(kind: "copied" | "verified", walk: OwnerWalk, read: (rows: number) => Promise<OwnerWalk>) {
    const after = await this.page(() => read(this.rowsLeft()));
    this.read[kind] += walkRows(after) - walkRows(walk);
    return after;
  }
}

const report = (
  s: CrossingState,
  status: RelocationReport["status"],
  shard: string,
  steps: Steps,
): RelocationReport => ({
  status,
  phase: status === "partial" ? s.phase : "done",
  shard,
  verified: s.verified,
  removed: s.removed,
  read: { ...steps.read },
});

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
      const walk = await steps.walk("copied", s.walk, (rows) =>
        walkPage(r.from.db, r.owner, s.walk, { target: r.to.db, rows }),
      );
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
      const walk = await steps.walk("verified", s.walk, (rows) => walkPage(r.to.db, r.owner, s.walk, { rows }));
      if (!walkDone(walk)) return { ...s, walk };
      return crossOver(r, s.read, walkSums(walk), s);
    }
    case "reindex": {
      // Unindex on the target first, then remove from the source: a step cut short between the two
      // repeats the same page (the cursor moves only after both), so no vector is left behind.
      const ids = await steps.page(() => unindexOwnerPage(r.to.db, r.owner, s.cursor));
      if (ids.length > 0) await r.sourceIndex?.remove(r.owner, ids);
      if (ids.length > 0 && ids.length === UNINDEX_PAGE)
        return { ...s, cursor: ids[ids.length - 1], reindexed: s.reindexed + ids.length };
      return {
        from: s.from,
        to: s.to,
        removed: s.removed,
        verified: s.verified,
        phase: "delete",
        step: 0,
        crossed: true,
      };
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
  const base = { from: s.from, to: s.to, removed: s.removed, verified: written };
  return r.sourceIndex
    ? { ...base, phase: "reindex", cursor: "", reindexed: 0 }
    : { ...base, phase: "delete", step: 0, crossed: true };
}

/** The state this call starts from: the saved one when it is this move's, else a fresh start. */
async function startingState(r: Relocation): Promise<CrossingState> {
  const saved = await r.store.get();
  const mine = saved !== null && saved.from === r.from.binding && saved.to === r.to.binding ? saved : null;
  const base = { from: r.from.binding, to: r.to.binding, removed: mine?.removed ?? {}, verified: mine?.verified ?? {} };
  // On the target already (crossed, perhaps killed before the state said so): the reindex (from the
  // start when the state does not say where it stood) and the source's leftovers remain.
  if (r.current.binding === r.to.binding) {
    if (mine?.phase === "delete" || mine?.phase === "reindex") return mine;
    if (r.sourceIndex && mine !== null) return { ...base, phase: "reindex", cursor: "", reindexed: 0 };
    return { ...base, phase: "delete", step: 0, crossed: mine !== null };
  }
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
  const steps = new Steps(r.callsLeft, r.maxRows);
  while (steps.fits(state)) {
    state = await advance(r, state, steps);
    if (finished(state)) {
      await r.store.put(null);
      r.holdWrites(false);
      return report(state, state.phase === "delete" && state.crossed ? "moved" : "already", r.to.binding, steps);
    }
    await r.store.put(state);
    r.holdWrites(holdsWrites(state));
  }
  return report(state, "partial", r.to.binding, steps);
}
