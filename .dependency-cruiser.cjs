/**
 * Import rules for src/ and scripts/, checked by `npm run deps` (part of `npm run check`, so CI
 * gates them). They enforce the layering docs/architecture.md §2 describes:
 *   - no cycle anywhere;
 *   - memory/ (the domain) imports only memory/ and npm packages, never an adapter or the wiring;
 *   - http/ reaches the MCP layer only through mcp/transports.ts (the MCP endpoints as HTTP handlers);
 *     what both need (caller, scope, the Durable Object client) lives in access/;
 *   - only the Worker entry (index.ts) and the Durable Objects (durable/) import the composition root:
 *     everything else is handed what it needs (http/route-services.ts, jobs' ScheduledDeps);
 *   - http/ and mcp/ never import storage/: memory rows are reached through the Durable Object or the
 *     route services, the account tables through the account ports (accounts/account-ports.ts);
 *   - accounts/ (the account ports and the key format) imports only accounts/ and npm packages.
 */
// Without @swc/core dependency-cruiser would cruise nothing and pass: fail loudly instead.
require.resolve("@swc/core");

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      severity: "error",
      comment: "A cycle makes load order matter and layers impossible to read; move the shared part down.",
      from: {},
      to: { circular: true },
    },
    {
      name: "memory-imports-no-adapter",
      severity: "error",
      comment:
        "memory/ is the domain: it defines ports (memory/ports.ts) that adapters implement and never imports " +
        "storage/, providers/, durable/, http/, mcp/, access/, jobs/, config, env or the composition root.",
      from: { path: "^src/memory/" },
      to: { path: "^src/", pathNot: "^src/memory/" },
    },
    {
      name: "http-uses-mcp-entry-only",
      severity: "error",
      comment:
        "http/ may use only mcp/transports.ts; scope resolution and the Durable Object client are in access/, " +
        "so an HTTP route never needs an MCP internal.",
      from: { path: "^src/http/" },
      to: { path: "^src/mcp/", pathNot: "^src/mcp/transports\\.ts$" },
    },
    {
      name: "access-is-transport-neutral",
      severity: "error",
      comment: "access/ serves both transports: it imports neither http/ nor mcp/.",
      from: { path: "^src/access/" },
      to: { path: "^src/(http|mcp)/" },
    },
    {
      name: "composition-only-at-entries",
      severity: "error",
      comment:
        "composition.ts builds adapters; only the Worker entry (src/index.ts) and the Durable Objects (src/durable/) " +
        "call it. Routes get read services through c.var (http/request-context.ts), jobs get their scans as arguments.",
      from: { path: "^src/", pathNot: "^src/(index\\.ts|durable/)" },
      to: { path: "^src/composition\\.ts$" },
    },
    {
      name: "transports-never-import-storage",
      severity: "error",
      comment:
        "http/ and mcp/ never import an adapter from storage/: memories through the Durable Object (access/) or " +
        "c.var.services() (http/route-services.ts), account tables through the ports in accounts/ that " +
        "c.var.services().accounts() hands out (built by the composition root).",
      from: { path: "^src/(http|mcp)/" },
      to: { path: "^src/storage/" },
    },
    {
      name: "accounts-imports-no-adapter",
      severity: "error",
      comment:
        "accounts/ holds the account ports and the API key format: it imports only accounts/ and npm packages, " +
        "so the operator scripts can load the key format under plain Node and no route reaches an adapter through it.",
      from: { path: "^src/accounts/" },
      to: { path: "^src/", pathNot: "^src/accounts/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that does not resolve is a typo or a missing dependency.",
      from: {},
      to: { couldNotResolve: true, pathNot: "^cloudflare:" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // TypeScript 7 has no JS compiler API yet (dependency-cruiser reads TS up to 6), so swc parses the
    // sources and `tsPreCompilationDeps` (a tsc-parser option) cannot apply. swc reports `import type`
    // declarations: a cycle made only of type imports still fails. It does not see import() type
    // expressions (`import("./x").T`), so Biome refuses those in src/ and scripts/
    // (.biome/no-import-type-expressions.grit). test/node/static-guards.test.ts proves each rule fails.
    parser: "swc",
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    exclude: { path: "(^|/)node_modules/" },
  },
};
