/**
 * @module scripts/lib/stress-invariants
 * What the reliability run checks, as pure bookkeeping the unit tests can plant faults into:
 * - leaks: a response shown to one owner that carries another owner's marker;
 * - stack traces / internal paths and 5xx answers on the wire;
 * - the ledger: every acknowledged write, and what a later full listing must show for it.
 * No node: imports (test/unit/stress-harness.test.ts runs it inside workerd).
 */
import { MARKER_PATTERN, type StressOwner } from "./stress-owners.ts";

/** An `at fn (file:1:2)` frame, a bare `at file:1:2` frame, a source path or a `.ts:line` reference. */
const STACK_PATTERNS = [
  /\bat (?:async )?[\w$.<>[\]]+ \([^()\n]*:\d+:\d+\)/,
  /\bat (?:file:\/\/|\/)[^\s()]*:\d+:\d+/,
  /(?:^|[\s"'(])\/src\/[\w/.-]+/,
  /\.(?:ts|js|mjs):\d+(?::\d+)?\b/,
  /node_modules\//,
];

/** True when `text` shows a stack frame or an internal source path. */
export function hasStackTrace(text: string): boolean {
  return STACK_PATTERNS.some((p) => p.test(text));
}

export interface Leak {
  where: string;
  /** The owner the response was for. */
  viewer: string;
  /** The owner whose marker it showed. */
  shown: string;
}

export interface WireProblem {
  where: string;
  status: number;
  excerpt: string;
}

export class WireChecks {
  readonly leaks: Leak[] = [];
  readonly stackTraces: WireProblem[] = [];
  readonly serverErrors: WireProblem[] = [];
  private readonly ownerOfMarker = new Map<string, string>();

  constructor(owners: StressOwner[]) {
    for (const o of owners) this.ownerOfMarker.set(o.marker, o.id);
  }

  /** Records a leak for every marker in `text` that belongs to none of `allowed` (owner ids). */
  scanMarkers(where: string, allowed: readonly string[], text: string): number {
    let found = 0;
    for (const m of text.matchAll(MARKER_PATTERN)) {
      const shown = this.ownerOfMarker.get(m[0]);
      if (shown === undefined || allowed.includes(shown)) continue;
      this.leaks.push({ where, viewer: allowed.join(" | ") || "(nobody)", shown });
      found++;
    }
    return found;
  }

  /** Checks one HTTP answer (or one chunk of a stream): status ≥ 500 and stack traces are recorded. */
  scanWire(where: string, status: number, text: string): void {
    const excerpt = text.slice(0, 300);
    if (status >= 500) this.serverErrors.push({ where, status, excerpt });
    if (hasStackTrace(text)) this.stackTraces.push({ where, status, excerpt });
  }
}

/** What the ledger expects of one memory at the end. */
export type Expected = "live" | "deleted" | "any";

export interface LedgerEntry {
  owner: string;
  id: string;
  /** Exact content the server acknowledged; null = not checked (merged into, extracted, redacted). */
  content: string | null;
  expected: Expected;
  /** The last acknowledged operation, for the report. */
  op: string;
  /** A tag that forget_memories may use on it (then its status is no longer predictable). */
  forgetTag: string | null;
  /** The client that created it and alone edits it; null when no client may (merged into). */
  by: string | null;
}

export interface WriteAck {
  owner: string;
  /** null when nothing was stored (rejected). */
  id: string | null;
  outcome: string;
  content: string | null;
  forgetTag: string | null;
  by: string | null;
}

export interface ListedMemory {
  id: string;
  content: string;
  status: string;
}

export interface LostWrite {
  owner: string;
  id: string;
  op: string;
  problem: string;
}

const LIVE = new Set(["active", "superseded"]);

/**
 * Acknowledged writes per owner. A write counts once the server answered it; an operation that
 * failed or was cut off (a killed server) makes that memory's state unknown, so from then on only
 * its existence is checked.
 */
export class Ledger {
  acknowledged = 0;
  /** Writes whose answer said merged, superseded, quarantined, rejected or redacted. */
  exempt = 0;
  private readonly entries = new Map<string, LedgerEntry>();

  private static key(owner: string, id: string): string {
    return `${owner}\u0000${id}`;
  }

  get(owner: string, id: string): LedgerEntry | undefined {
    return this.entries.get(Ledger.key(owner, id));
  }

  /** A save/import/summarize the server acknowledged with `outcome`. */
  ackWrite(w: WriteAck): void {
    this.acknowledged++;
    if (w.outcome !== "created" && w.outcome !== "imported") this.exempt++;
    if (w.id === null || w.outcome === "rejected") return;
    const { owner, id } = w;
    // merged: the answer names the memory it merged into, which keeps its own content and status.
    if (w.outcome === "merged") {
      if (!this.get(owner, id))
        this.set({ owner, id, content: null, expected: "any", op: "merged", forgetTag: null, by: null });
      return;
    }
    const expected = w.outcome === "quarantined" ? "any" : "live";
    this.set({ owner, id, content: w.content, expected, op: w.outcome, forgetTag: w.forgetTag, by: w.by });
  }

  /** An edit the server acknowledged; `status` is the memory's status in its answer. */
  ackUpdate(owner: string, id: string, content: string | null, status = "active"): void {
    this.acknowledged++;
    // An edit that reads like an injection is quarantined: the answer says so.
    if (status === "quarantined") this.exempt++;
    const e = this.get(owner, id);
    if (e) this.set({ ...e, content, op: "update", expected: status === "quarantined" ? "any" : e.expected });
  }

  ackDelete(owner: string, id: string): void {
    this.acknowledged++;
    const e = this.get(owner, id);
    if (e) this.set({ ...e, expected: "deleted", op: "delete" });
  }

  ackRestore(owner: string, id: string): void {
    this.acknowledged++;
    const e = this.get(owner, id);
    if (e) this.set({ ...e, expected: "live", op: "restore" });
  }

  /** forget_memories by `tag` was sent: memories carrying it may be deleted from now on. */
  forgetting(owner: string, tag: string): void {
    for (const e of this.entries.values())
      if (e.owner === owner && e.forgetTag === tag) this.set({ ...e, expected: "any", op: "forget" });
  }

  /** An acknowledged write that leaves nothing to check afterwards (forget). */
  ack(): void {
    this.acknowledged++;
  }

  /** A mutation of `id` got no answer: it may or may not have happened. */
  unsure(owner: string, id: string): void {
    const e = this.get(owner, id);
    if (e) this.set({ ...e, content: null, expected: "any", op: `${e.op}+unanswered` });
  }

  /** Ids the ledger expects to be live for `owner` (candidates for update / delete). */
  ids(owner: string, filter: (e: LedgerEntry) => boolean = () => true): string[] {
    const out: string[] = [];
    for (const e of this.entries.values()) if (e.owner === owner && filter(e)) out.push(e.id);
    return out;
  }

  owners(): string[] {
    return [...new Set([...this.entries.values()].map((e) => e.owner))];
  }

  size(): number {
    return this.entries.size;
  }

  /** Compares an owner's full listing (every status) with what was acknowledged. */
  verify(owner: string, listed: ListedMemory[]): LostWrite[] {
    const byId = new Map(listed.map((m) => [m.id, m]));
    const lost: LostWrite[] = [];
    for (const e of this.entries.values()) {
      if (e.owner !== owner) continue;
      const m = byId.get(e.id);
      const problem = !m
        ? "missing"
        : e.content !== null && m.content !== e.content
          ? "content differs from the acknowledged text"
          : e.expected === "live" && !LIVE.has(m.status)
            ? `status ${m.status}, expected active or superseded`
            : e.expected === "deleted" && m.status !== "deleted"
              ? `status ${m.status}, expected deleted`
              : null;
      if (problem) lost.push({ owner, id: e.id, op: e.op, problem });
    }
    return lost;
  }

  private set(e: LedgerEntry): void {
    this.entries.set(Ledger.key(e.owner, e.id), e);
  }
}
