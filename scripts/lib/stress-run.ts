/**
 * @module scripts/lib/stress-run
 * The random phase of the reliability run: `clients` concurrent loops, each one device over /mcp or
 * /sse, drawing operations from its own seeded generator until the deadline. A gate pauses every
 * loop while the server is killed and restarted; in-flight counts let the killer strike while
 * imports and saves are under way.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { ProtocolError } from "@modelcontextprotocol/client";
import { type Executor, execute, openClient, type Transport } from "./stress-client.ts";
import type { Ledger, WireChecks } from "./stress-invariants.ts";
import { nextOp, OP_WEIGHTS, type OpKind } from "./stress-ops.ts";
import type { StressDevice } from "./stress-owners.ts";
import type { Rng } from "./stress-prng.ts";

interface Slot {
  label: string;
  device: StressDevice;
  transport: Transport;
  rng: Rng;
  seq: number;
  executor: Executor | null;
}

export interface OpCounts {
  ok: number;
  toolError: number;
  /** No answer: the server was killed under it, or the transport failed. */
  failed: number;
}

/** Opens and closes while the server restarts; loops wait on it. */
class Gate {
  private waiting: Promise<void> | null = null;
  private release: () => void = () => {};

  close(): void {
    if (this.waiting) return;
    this.waiting = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  open(): void {
    this.release();
    this.waiting = null;
  }

  get isOpen(): boolean {
    return this.waiting === null;
  }

  async pass(): Promise<void> {
    while (this.waiting) await this.waiting;
  }
}

export class RandomRun {
  readonly counts = Object.fromEntries(
    Object.keys(OP_WEIGHTS).map((k) => [k, { ok: 0, toolError: 0, failed: 0 }]),
  ) as Record<OpKind, OpCounts>;
  readonly inFlight = Object.fromEntries(Object.keys(OP_WEIGHTS).map((k) => [k, 0])) as Record<OpKind, number>;
  readonly latencies: number[] = [];
  /** Imports sent but not answered (prefix → lines): checked for all-or-nothing after a kill. */
  readonly importsInFlight = new Map<string, number>();
  /** Failures while the server was up and not being killed, with their messages (first few). */
  readonly unexpectedFailures: string[] = [];
  unexpectedFailureCount = 0;
  private readonly gate = new Gate();
  private readonly slots: Slot[];
  private killing = false;
  private base: string;
  private readonly ledger: Ledger;
  private readonly wire: WireChecks;

  constructor(base: string, devices: StressDevice[], clients: number, ledger: Ledger, wire: WireChecks, rng: Rng) {
    this.base = base;
    this.ledger = ledger;
    this.wire = wire;
    this.slots = Array.from({ length: clients }, (_, i) => ({
      label: `c${i + 1}`,
      device: devices[i % devices.length],
      // every fourth client speaks the legacy SSE transport
      transport: i % 4 === 3 ? "sse" : "mcp",
      rng: rng.fork(),
      seq: 0,
      executor: null,
    }));
  }

  describeClients(): string[] {
    return this.slots.map((s) => `${s.label}: ${s.device.label} over /${s.transport}`);
  }

  /** Pauses every loop (the server is about to die). */
  pause(): void {
    this.killing = true;
    this.gate.close();
  }

  /** Resumes on a restarted server: every client reconnects. */
  async resume(base: string): Promise<void> {
    this.base = base;
    await Promise.all(this.slots.map((s) => this.disconnect(s)));
    this.killing = false;
    this.gate.open();
  }

  /** Waits until `ready()` or `timeoutMs` passes; true when ready. */
  async waitFor(ready: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (Date.now() > deadline) return false;
      await sleep(5);
    }
    return true;
  }

  /** Runs every client loop until `stopped()` says so. */
  async run(stopped: () => boolean): Promise<void> {
    await Promise.all(this.slots.map((s) => this.loop(s, stopped)));
    await Promise.all(this.slots.map((s) => this.disconnect(s)));
  }

  /** Operations in flight, all kinds. */
  busy(): number {
    return Object.values(this.inFlight).reduce((a, b) => a + b, 0);
  }

  operations(): number {
    return Object.values(this.counts).reduce((n, c) => n + c.ok + c.toolError + c.failed, 0);
  }

  private async disconnect(s: Slot): Promise<void> {
    const client = s.executor?.client;
    s.executor = null;
    await client?.close().catch(() => undefined);
  }

  private async connect(s: Slot): Promise<Executor> {
    const { client, fetch } = await openClient(this.base, s.device, s.transport, this.wire);
    return {
      base: this.base,
      device: s.device,
      client,
      fetch,
      clientLabel: s.label,
      ledger: this.ledger,
      wire: this.wire,
      importsInFlight: this.importsInFlight,
    };
  }

  private async loop(s: Slot, stopped: () => boolean): Promise<void> {
    while (!stopped()) {
      await this.gate.pass();
      if (stopped()) return;
      try {
        s.executor ??= await this.connect(s);
      } catch (err) {
        this.noteFailure(s, "connect", err);
        await sleep(200);
        continue;
      }
      await this.step(s);
    }
  }

  private async step(s: Slot): Promise<void> {
    const x = s.executor!;
    const liveOf = (expected: string) => (owner: { id: string }) =>
      this.ledger.ids(owner.id, (e) => e.by === s.label && e.expected === expected);
    const op = nextOp(s.rng, {
      device: s.device,
      client: s.label,
      seq: s.seq++,
      liveIds: liveOf("live"),
      deletedIds: liveOf("deleted"),
    });
    this.inFlight[op.kind]++;
    const started = performance.now();
    try {
      const result = await execute(x, op);
      this.latencies.push(performance.now() - started);
      if (result === "ok") this.counts[op.kind].ok++;
      else if (result === "tool-error") this.counts[op.kind].toolError++;
      else this.counts[op.kind].failed++;
    } catch (err) {
      if (err instanceof ProtocolError) {
        this.latencies.push(performance.now() - started);
        this.counts[op.kind].toolError++;
      } else {
        this.counts[op.kind].failed++;
        this.noteFailure(s, op.kind, err);
        await this.disconnect(s);
      }
    } finally {
      this.inFlight[op.kind]--;
    }
  }

  private noteFailure(s: Slot, what: string, err: unknown): void {
    if (this.killing || !this.gate.isOpen) return;
    this.unexpectedFailureCount++;
    if (this.unexpectedFailures.length < 10)
      this.unexpectedFailures.push(`${s.label} ${what}: ${(err as Error)?.message ?? String(err)}`);
  }
}
