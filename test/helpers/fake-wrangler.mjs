#!/usr/bin/env node
import { randomUUID } from "node:crypto";
// A fake `wrangler` for `npm run setup`'s tests: answers the account commands setup runs (d1, vectorize,
// kv, migrations, whoami) in wrangler's output shapes, keeps what was "created" in the JSON file
// FAKE_WRANGLER_STATE, and appends every command line to FAKE_WRANGLER_LOG. FAKE_WRANGLER_FAIL makes
// the command that starts with it fail once (exit 1), to test resuming.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const line = args.join(" ");
appendFileSync(process.env.FAKE_WRANGLER_LOG, `${line}\n`);
const statePath = process.env.FAKE_WRANGLER_STATE;
const state = existsSync(statePath)
  ? JSON.parse(readFileSync(statePath, "utf8"))
  : { d1: [], vectorize: [], metadata: {}, kv: [], migrated: [], failed: [] };
const save = () => writeFileSync(statePath, JSON.stringify(state));
const fail = process.env.FAKE_WRANGLER_FAIL;
if (fail && line.startsWith(fail) && !state.failed.includes(fail)) {
  state.failed.push(fail);
  save();
  console.error("✘ [ERROR] A request to the Cloudflare API failed (fake).");
  process.exit(1);
}
const out = (text) => process.stdout.write(`\n ⛅️ wrangler 4.164.0 (fake)\n───────────────────\n${text}\n`);
const is = (...words) => words.every((w, i) => args[i] === w);

if (is("whoami")) out("You are logged in with an OAuth Token, associated with the email a@example.com.");
else if (is("d1", "list")) out(JSON.stringify(state.d1.map((d) => ({ uuid: d.uuid, name: d.name }))));
else if (is("d1", "create")) {
  const db = { uuid: randomUUID(), name: args[2] };
  state.d1.push(db);
  out(
    `✅ Successfully created DB '${db.name}'\n\n{\n  "d1_databases": [\n    {\n      "binding": "DB",\n      "database_name": "${db.name}",\n      "database_id": "${db.uuid}"\n    }\n  ]\n}`,
  );
} else if (is("d1", "migrations", "apply")) {
  state.migrated.push(args[3]);
  out("✅ Applied migrations");
} else if (is("vectorize", "list"))
  // An index is its name (made by setup with the dimensions and metric it asked for) or, seeded by a
  // test, { name, dimensions, metric } (made by hand earlier, with a shape of its own).
  out(
    JSON.stringify(
      state.vectorize.map((v) =>
        typeof v === "string"
          ? {
              name: v,
              config: {
                dimensions: state.shapes?.[v]?.dimensions ?? 1024,
                metric: state.shapes?.[v]?.metric ?? "cosine",
              },
            }
          : { name: v.name, config: { dimensions: v.dimensions, metric: v.metric } },
      ),
    ),
  );
else if (is("vectorize", "create")) {
  const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  state.vectorize.push(args[2]);
  (state.shapes ??= {})[args[2]] = { dimensions: Number(option("dimensions")), metric: option("metric") };
  out(`✅ Successfully created a new Vectorize index: '${args[2]}'`);
} else if (is("vectorize", "list-metadata-index"))
  out(JSON.stringify((state.metadata[args[2]] ?? []).map((p) => ({ propertyName: p, indexType: "String" }))));
else if (is("vectorize", "create-metadata-index")) {
  const prop = args.find((a) => a.startsWith("--propertyName=")).split("=")[1];
  (state.metadata[args[2]] ??= []).push(prop);
  out("✅ Successfully enqueued metadata index creation request.");
} else if (is("kv", "namespace", "list")) out(JSON.stringify(state.kv));
else if (is("kv", "namespace", "create")) {
  const ns = { id: randomUUID().replaceAll("-", ""), title: args[3] };
  state.kv.push(ns);
  out(
    `✨ Success!\nTo access your new KV Namespace in your Worker, add the following snippet:\n[[kv_namespaces]]\nbinding = "${args[3]}"\nid = "${ns.id}"`,
  );
} else {
  console.error(`fake wrangler: unexpected command: ${line}`);
  process.exit(2);
}
save();
