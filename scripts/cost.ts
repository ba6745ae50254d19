/**
 * @module scripts/cost
 * `npm run cost -- --memories 11000 --saves 1000 --recalls 10000 [--users 1] [--plan paid|free]
 * [--dimensions 1024] [--vector-index vectorize|local] [--reranker workers-ai|none]
 * [--embeddings workers-ai|other] [--llm workers-ai|rules] [--auth oauth|key] [--profile free] [--matrix] [--json]`: what a month costs on
 * Cloudflare, every billed line, from the per-operation figures the benchmarks measured and the dated
 * price table of scripts/lib/cost-model.ts (docs/deploying.md, "What it costs"). `--matrix` prints the
 * README's table: 1k / 10k / 100k memories per user, 1 and 100 users, Paid and Free (the default
 * configuration, and the free profile: `--profile free`, the vars `npm run setup -- --plan free` writes).
 */
import { parseArgs } from "node:util";
import {
  type CostReport,
  costModel,
  DEFAULT_USAGE,
  FREE_PROFILE,
  PER_OPERATION,
  PRICES,
  type Usage,
} from "./lib/cost-model.ts";

class UsageError extends Error {}

const whole = (name: string, text: string | undefined, fallback: number, min = 0): number => {
  if (text === undefined) return fallback;
  const n = Number(text.replaceAll("_", "").replaceAll(",", ""));
  if (!Number.isInteger(n) || n < min || n > 1e12)
    throw new UsageError(`--${name} must be a whole number from ${min} to 1e12 (got "${text}")`);
  return n;
};

function oneOf<T extends string>(name: string, text: string | undefined, allowed: readonly T[], fallback: T): T {
  if (text === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(text))
    throw new UsageError(`--${name} must be ${allowed.join(" or ")} (got "${text}")`);
  return text as T;
}

const usd = (x: number) => (x === 0 ? "$0" : x < 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(2)}`);
const num = (x: number) =>
  x >= 1e9
    ? `${(x / 1e9).toFixed(2)} B`
    : x >= 1e6
      ? `${(x / 1e6).toFixed(2)} M`
      : x >= 100
        ? Math.round(x).toLocaleString("en-US")
        : x.toFixed(x >= 1 ? 1 : 3);

const periodWord = { day: "a day", month: "a month", total: "in all" } as const;

function table(r: CostReport): string[] {
  const u = r.usage;
  const out: string[] = [];
  if (u.plan === "paid") {
    out.push(
      `| resource | per operation | a month, 1 user | a month, the account (${u.users} user${u.users === 1 ? "" : "s"}) | included (Workers Paid) | price beyond | cost, the account | each further user |`,
      "| --- | --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const l of r.lines) {
      const p = PRICES[l.price];
      out.push(
        `| ${l.resource} | ${l.perOperation} | ${num(l.perUser)} ${l.unit} | ${num(l.total)} | ${num(p.paidIncluded)}${l.price === "neurons" ? " (10,000 a day)" : ""} | ${usd(p.paidPerUnit * (l.unit === "GB" ? 1 : 1e6))}${l.unit === "GB" ? " / GB-month" : ` / M ${l.unit}`} | ${usd(l.cost)} | ${usd(l.perFurtherUser)} |`,
      );
    }
  } else {
    out.push(
      `| resource | per operation | a month, 1 user | ${u.users} user${u.users === 1 ? "" : "s"}, per limit period | Workers Free limit | fits |`,
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const l of r.lines) {
      const limited = Number.isFinite(l.freeLimit);
      out.push(
        `| ${l.resource} | ${l.perOperation} | ${num(l.perUser)} ${l.unit} | ${limited ? `${num(l.freeUse)} ${periodWord[l.freePer]}` : "–"} | ${limited ? `${num(l.freeLimit)} ${periodWord[l.freePer]}` : "10 ms per invocation"} | ${limited ? (l.freeUse <= l.freeLimit ? "yes" : `no: ${(l.freeUse / l.freeLimit).toFixed(2)}×`) : "see CPU below"} |`,
      );
    }
  }
  return out;
}

function summary(r: CostReport): string[] {
  const u = r.usage;
  if (u.plan === "paid")
    return [
      `Workers Paid: ${usd(r.total)} a month for ${u.users} user${u.users === 1 ? "" : "s"} (the $${r.subscription} subscription included; ${usd(r.total / u.users)} a user).`,
      `The first user: ${usd(r.firstUser)} a month; each further user, once the included usage is spent: ${usd(r.perFurtherUser)} a month.`,
    ];
  const cpu = [PER_OPERATION.saveCpuMs.value, PER_OPERATION.recallCpuMs.value];
  return [
    r.overFree.length === 0
      ? `Workers Free: every limit holds for ${u.users} user${u.users === 1 ? "" : "s"}.`
      : `Workers Free: over the limit — ${r.overFree.map((o) => `${o.resource} ${o.times.toFixed(2)}×`).join(", ")}.`,
    `At this usage the Free plan carries at most ${Number.isFinite(r.freeUsersFit) ? r.freeUsersFit : "any number of"} user${r.freeUsersFit === 1 ? "" : "s"} (the tightest limit).`,
    `CPU: a save ${cpu[0]} ms and a recall ${cpu[1]} ms p50 of isolate CPU measured locally against Free's 10 ms per invocation (docs/benchmarks.md, "CPU per request kind").`,
  ];
}

/** README's table: 1k / 10k / 100k memories per user × 1 and 100 users × Paid and Free. */
function matrix(base: Usage): string[] {
  const out = [
    `| memories per user | 1 user, Paid | 100 users, Paid | each further user, Paid | 1 user, Free | 100 users, Free | 1 user, Free, free profile | 100 users, Free, free profile |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const memories of [1_000, 10_000, 100_000]) {
    const paid = (users: number) => costModel({ ...base, memories, users, plan: "paid" });
    const free = (users: number, profile = false) => {
      const r = costModel({ ...base, memories, users, plan: "free", ...(profile ? FREE_PROFILE : {}) });
      return r.overFree.length === 0
        ? "fits"
        : `over: ${r.overFree.map((o) => `${o.resource} ${o.times.toFixed(2)}×`).join(", ")}`;
    };
    const one = paid(1);
    const hundred = paid(100);
    out.push(
      `| ${memories.toLocaleString("en-US")} | ${usd(one.total)} | ${usd(hundred.total)} | ${usd(one.perFurtherUser)} | ${free(1)} | ${free(100)} | ${free(1, true)} | ${free(100, true)} |`,
    );
  }
  return out;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      memories: { type: "string" },
      saves: { type: "string" },
      recalls: { type: "string" },
      users: { type: "string" },
      plan: { type: "string" },
      dimensions: { type: "string" },
      "vector-index": { type: "string" },
      reranker: { type: "string" },
      embeddings: { type: "string" },
      auth: { type: "string" },
      llm: { type: "string" },
      profile: { type: "string" },
      matrix: { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  const d = DEFAULT_USAGE;
  const usage: Usage = {
    memories: whole("memories", values.memories, d.memories),
    saves: whole("saves", values.saves, d.saves),
    recalls: whole("recalls", values.recalls, d.recalls),
    users: whole("users", values.users, d.users, 1),
    plan: oneOf("plan", values.plan, ["paid", "free"] as const, d.plan),
    dimensions: whole("dimensions", values.dimensions, d.dimensions, 1),
    vectorIndex: oneOf("vector-index", values["vector-index"], ["vectorize", "local"] as const, d.vectorIndex),
    reranker: oneOf("reranker", values.reranker, ["workers-ai", "none"] as const, "workers-ai") === "workers-ai",
    workersAiEmbeddings:
      oneOf("embeddings", values.embeddings, ["workers-ai", "other"] as const, "workers-ai") === "workers-ai",
    llm: oneOf("llm", values.llm, ["workers-ai", "rules"] as const, "workers-ai") === "workers-ai",
    auth: oneOf("auth", values.auth, ["oauth", "key"] as const, d.auth),
    ...(oneOf("profile", values.profile, ["default", "free"] as const, "default") === "free" ? FREE_PROFILE : {}),
  };
  if (values.matrix) {
    console.log(
      `npm run cost -- --matrix: ${usage.saves.toLocaleString("en-US")} saves and ${usage.recalls.toLocaleString("en-US")} recalls per user a month, ${usage.dimensions} dimensions; prices read ${PRICES.read}`,
    );
    for (const l of matrix(usage)) console.log(l);
    return;
  }
  const report = costModel(usage);
  if (values.json) {
    console.log(JSON.stringify({ prices_read: PRICES.read, ...report }, null, 2));
    return;
  }
  console.log(
    `${usage.users} user${usage.users === 1 ? "" : "s"} × ${usage.memories.toLocaleString("en-US")} memories, ${usage.saves.toLocaleString("en-US")} saves and ${usage.recalls.toLocaleString("en-US")} recalls a month each, ${usage.dimensions} dimensions, Workers ${usage.plan === "paid" ? "Paid" : "Free"}; prices read ${PRICES.read}`,
  );
  console.log("");
  for (const l of table(report)) console.log(l);
  console.log("");
  for (const l of summary(report)) console.log(l);
  console.log("");
  console.log("Sources:");
  const pages = new Set<string>([PRICES.subscription.page]);
  for (const l of report.lines) pages.add(PRICES[l.price].page);
  for (const m of Object.values(PRICES.models)) pages.add(m.page);
  for (const p of pages) console.log(`  ${p}`);
  console.log("  per operation: scripts/lib/cost-model.ts PER_OPERATION (docs/benchmarks.md)");
}

try {
  main();
} catch (err) {
  console.error(`cost: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
