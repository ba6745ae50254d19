/**
 * @module scripts/lib/stress-report
 * The reliability run's figures: one object (written by --json), a printed table, and the list of
 * invariants with whether each held. Pure.
 */

export interface StressFigures {
  seed: number;
  seconds: number;
  clients: number;
  users: number;
  operations: number;
  operationsPerSecond: number;
  toolErrors: number;
  /** Operations that got no answer while the server was up and not being killed. */
  unanswered: number;
  acknowledgedWrites: number;
  /** Of those, answers that said merged, superseded, quarantined, rejected or redacted. */
  exemptWrites: number;
  lostWrites: number;
  crossOwnerLeaks: number;
  serverErrors: number;
  stackTraces: number;
  kills: number;
  killsSurvived: number;
  halfWritten: number;
  vectorFault: { recallAnswered: string; repairCaughtUp: boolean; ok: boolean };
  /** The embedding outage: writes by every path, failed writes, keyword recall meanwhile, repair after. */
  embedderFault: { writes: string; recallAnswered: string; repairCaughtUp: boolean; ok: boolean };
  hostileSlowestMs: number;
  hostileErrors: number;
  /** The quarantine-bypass sequence and hostile labels (stress-trust.ts): expectations checked, and failed. */
  trustChecks: number;
  trustFailures: number;
  fuzzCases: number;
  fuzzRefused: number;
  fuzzAccepted: number;
  fuzzUnclear: number;
  storeUnchanged: boolean;
  latencyP50Ms: number;
  latencyP95Ms: number;
  /** Lines of the server's log that carry an owner's marker (memory text). */
  memoryTextInLog: number;
  /** `--hostile`: the hostile upstream's phase (scripts/lib/stress-hostile-upstream.ts); absent without it. */
  hostileUpstream?: {
    summary: string;
    ok: boolean;
  };
}

/** Each invariant and whether it held; the run exits non-zero when any did not. */
export function invariants(f: StressFigures, minKills: number, minFuzz: number, stallMs: number) {
  return [
    { name: "no cross-owner leak", ok: f.crossOwnerLeaks === 0 },
    { name: "no acknowledged write lost", ok: f.lostWrites === 0 },
    { name: "no 5xx answer", ok: f.serverErrors === 0 },
    { name: "no stack trace or internal path on the wire", ok: f.stackTraces === 0 },
    { name: "every operation answered while the server was up", ok: f.unanswered === 0 },
    { name: `at least ${minKills} hard kills survived`, ok: f.killsSurvived >= minKills },
    { name: "nothing half-written after a kill", ok: f.halfWritten === 0 },
    { name: "recall answers while the vector index fails; repair catches up", ok: f.vectorFault.ok },
    {
      name: "no write fails while the embedder fails; recall answers; every such memory indexed after",
      ok: f.embedderFault.ok,
    },
    {
      name: `ReDoS inputs answered within ${stallMs / 1000} s, without error`,
      ok: f.hostileSlowestMs < stallMs && f.hostileErrors === 0,
    },
    {
      name: `at least ${minFuzz} fuzz cases, each refused cleanly`,
      ok: f.fuzzCases >= minFuzz && f.fuzzRefused === f.fuzzCases,
    },
    {
      name: "quarantine holds against tools and imports; hostile categories and actors refused",
      ok: f.trustChecks > 0 && f.trustFailures === 0,
    },
    { name: "store byte-for-byte unchanged by the fuzz cases", ok: f.storeUnchanged },
    { name: "no memory text in the server's log", ok: f.memoryTextInLog === 0 },
    ...(f.hostileUpstream
      ? [
          {
            name: "hostile upstream: 0 recall failures, 0 unscreened model texts, no call past its deadline by 2 s, no body read past its cap, nothing sent to another origin",
            ok: f.hostileUpstream.ok,
          },
        ]
      : []),
  ];
}

const ms = (n: number) => `${Math.round(n)} ms`;

export function figureRows(f: StressFigures): [string, string][] {
  return [
    ["seed", String(f.seed)],
    ["clients / users / seconds", `${f.clients} / ${f.users} / ${f.seconds}`],
    ["operations", String(f.operations)],
    ["operations/s", f.operationsPerSecond.toFixed(1)],
    ["tool errors (clean refusals)", String(f.toolErrors)],
    ["unanswered while up", String(f.unanswered)],
    [
      "acknowledged writes",
      `${f.acknowledgedWrites} (${f.exemptWrites} merged/superseded/quarantined/rejected/redacted)`,
    ],
    ["lost writes", String(f.lostWrites)],
    ["cross-owner leaks", String(f.crossOwnerLeaks)],
    ["5xx", String(f.serverErrors)],
    ["stack traces", String(f.stackTraces)],
    ["kills survived", `${f.killsSurvived} of ${f.kills}`],
    ["half-written after kills", String(f.halfWritten)],
    [
      "vector index fault",
      `recall ${f.vectorFault.recallAnswered}; repair caught up: ${f.vectorFault.repairCaughtUp ? "yes" : "no"}`,
    ],
    [
      "embedding outage",
      `writes ${f.embedderFault.writes}; recall ${f.embedderFault.recallAnswered}; indexed after: ${f.embedderFault.repairCaughtUp ? "yes" : "no"}`,
    ],
    ["ReDoS inputs, slowest answer", ms(f.hostileSlowestMs)],
    ["trust checks (failed / checked)", `${f.trustFailures} / ${f.trustChecks}`],
    ["fuzz cases", `${f.fuzzCases} (${f.fuzzRefused} refused, ${f.fuzzAccepted} accepted, ${f.fuzzUnclear} unclear)`],
    ["store unchanged by fuzzing", f.storeUnchanged ? "yes" : "NO"],
    ["memory text in server log", `${f.memoryTextInLog} lines`],
    ["latency p50 / p95", `${ms(f.latencyP50Ms)} / ${ms(f.latencyP95Ms)}`],
    ...(f.hostileUpstream ? [["hostile upstream", f.hostileUpstream.summary] as [string, string]] : []),
  ];
}

/** The figures as a Markdown table (printed, and pasted into docs/reliability.md). */
export function renderTable(f: StressFigures): string {
  const rows = figureRows(f);
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    `| ${"figure".padEnd(width)} | value |`,
    `| ${"-".repeat(width)} | ----- |`,
    ...rows.map(([k, v]) => `| ${k.padEnd(width)} | ${v} |`),
  ].join("\n");
}
