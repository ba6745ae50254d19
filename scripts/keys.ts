/**
 * @module scripts/keys
 * `npm run keys -- <command>`: create, list and revoke the API keys clients send as Bearer tokens,
 * and list and revoke the OAuth grants people approved by signing in with those keys.
 * Works on the local dev database by default and on the deployed one with --remote. Grants are
 * read straight from the OAUTH_KV namespace through wrangler (see scripts/lib/oauth-grants.ts).
 * Output contract: `create` prints the new key alone on the last line of stdout, so scripts can
 * `| tail -1`; errors are one line on stderr with exit code 1.
 */
import { parseArgs } from "node:util";
import { createKey, type KeyRecord, listKeys, revokeKey } from "./lib/api-keys.ts";
import { type GrantRecord, listGrants, revokeGrantById, revokeGrantsOfKey } from "./lib/oauth-grants.ts";
import { ScriptError, type Target } from "./lib/wrangler-d1.ts";

const HELP = `Usage: npm run keys -- <command> [options]

Manage Hippocampus API keys (table api_keys). A key is shown once, when it is created;
only its SHA-256 hash is stored. Clients send it as "Authorization: Bearer <key>".

Commands:
  create --user <id> [--label <text>] [--account <id>]
      A user key: acts as that user.
  create --app <name> [--label <text>] [--account <id>]
      An app key: a bot serving many end users, which passes user_id in tool arguments.
      The new key is printed alone on the last line of stdout.
  list                  All keys: id, scope, account, user/app, label, created, last used, revoked,
                        and the shard the account's memories are on ("-": nothing stored yet, or one shard).
  revoke <key-id>       Revoke a key (its requests get 401 from then on), and delete the OAuth
                        grants made by signing in with it (they already stop working: every
                        request checks the key).
  grants list [--user <id>] [--account <id>] [--key <key-id>]
                        OAuth grants (Claude.ai, ChatGPT, Cursor connectors...): id, account, user,
                        key signed in with, client, scopes, created, expires.
  grants revoke <grant-id>
                        Revoke one grant: its access and refresh tokens stop working at once.
  grants revoke --key <key-id>
                        Revoke every grant made by signing in with that key.

Options:
  --account <id>        Account the key belongs to (default "default"); a filter for grants list.
  --user <id>           A filter for grants list.
  --key <key-id>        Grants made by signing in with this key (grants list, grants revoke).
  --remote              Use the deployed D1 database instead of the local dev one (.wrangler/state).
  -h, --help            Show this help.`;

const OPTIONS = {
  user: { type: "string" },
  app: { type: "string" },
  label: { type: "string" },
  account: { type: "string" },
  key: { type: "string" },
  remote: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = {
  user?: string;
  app?: string;
  label?: string;
  account?: string;
  key?: string;
  remote?: boolean;
  help?: boolean;
};

function parse(argv: string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    // parseArgs messages are clear but long; keep the first sentence.
    throw new ScriptError(`${(err as Error).message.split(". ")[0]} (see --help)`);
  }
}

/** Refuses options that do not apply to the command, rather than silently ignoring them. */
function onlyOptions(command: string, values: Values, allowed: string[]): void {
  const extra = Object.keys(values).filter((k) => !allowed.includes(k));
  if (extra.length > 0) throw new ScriptError(`${command} does not take --${extra[0]} (see --help)`);
}

async function create(values: Values, target: Target): Promise<void> {
  if ((values.user === undefined) === (values.app === undefined)) {
    throw new ScriptError("create needs exactly one of --user <id> or --app <name>");
  }
  const scope = values.user !== undefined ? "user" : "app";
  const name = (values.user ?? values.app) as string;
  const account = values.account ?? "default";
  const { id, key } = await createKey({ scope, name, account, label: values.label ?? null }, target);
  console.log(`Created ${scope} key ${id} for ${scope} ${name} (account ${account}, ${target} database).`);
  console.log('Copy the key now: it is shown only this once. Clients send it as "Authorization: Bearer <key>".');
  console.log(key);
}

function formatTime(ms: number | null): string {
  // UTC, minute precision: enough to tell keys apart, short enough for a table.
  return ms === null ? "-" : new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

function tableRows(keys: KeyRecord[]): string[][] {
  return keys.map((k) => [
    k.id,
    k.scope,
    k.account_id,
    (k.scope === "app" ? k.app_name : k.user_id) ?? "-",
    k.label ?? "-",
    formatTime(k.created_at),
    formatTime(k.last_used_at),
    formatTime(k.revoked_at),
    k.shard ?? "-",
  ]);
}

const KEY_HEADER = ["ID", "SCOPE", "ACCOUNT", "USER/APP", "LABEL", "CREATED (UTC)", "LAST USED", "REVOKED", "SHARD"];

function printTable(rows: string[][], header = KEY_HEADER): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows]) {
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    );
  }
}

function list(target: Target): void {
  const keys = listKeys(target);
  if (keys.length === 0) {
    console.log(`No API keys in the ${target} database. Create one: npm run keys -- create --user <id>`);
    return;
  }
  printTable(tableRows(keys));
}

function revoke(positionals: string[], target: Target): void {
  if (positionals.length !== 1) throw new ScriptError("usage: npm run keys -- revoke <key-id>");
  const { record, alreadyRevoked } = revokeKey(positionals[0], target);
  const owner = record.scope === "app" ? `app ${record.app_name}` : `user ${record.user_id}`;
  if (alreadyRevoked) {
    console.log(`Key ${record.id} (${owner}) was already revoked at ${formatTime(record.revoked_at)} UTC.`);
  } else {
    console.log(`Revoked key ${record.id} (${owner}, account ${record.account_id}, ${target} database).`);
  }
  if (record.scope === "user") revokeGrantsAfterKey(record.id, target);
}

/** Clean-up only: a revoked key's grants are already refused on every request, so a KV failure is a warning. */
function revokeGrantsAfterKey(keyId: string, target: Target): void {
  try {
    const grants = revokeGrantsOfKey(keyId, target);
    if (grants.length > 0)
      console.log(`Revoked ${grants.length} OAuth grant(s) made with it: ${grants.map((g) => g.id).join(", ")}.`);
  } catch (err) {
    console.error(
      `keys: warning: the key's OAuth grants were not deleted (${(err as Error).message}); they stop working anyway, since every request checks the key. Retry: npm run keys -- grants revoke --key ${keyId}`,
    );
  }
}

/** Client names are chosen by the client: keep them on one short line. */
function clean(value: string | null, max = 40): string {
  if (value === null || value === "") return "-";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this strips
  const flat = value.replace(/[\u0000-\u001f\u007f]/g, "?");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const GRANT_HEADER = ["ID", "ACCOUNT", "USER", "KEY", "CLIENT", "SCOPES", "CREATED (UTC)", "EXPIRES"];

function grantRows(grants: GrantRecord[]): string[][] {
  return grants.map((g) => [
    g.id,
    clean(g.accountId),
    clean(g.userId),
    clean(g.keyId),
    clean(g.clientName ?? g.clientId),
    g.scope.join(" ") || "-",
    formatTime(g.createdAt * 1000),
    formatTime(g.expiresAt === null ? null : g.expiresAt * 1000),
  ]);
}

function grantsList(values: Values, target: Target): void {
  onlyOptions("grants list", values, ["remote", "user", "account", "key"]);
  const grants = listGrants(target, { user: values.user, account: values.account, keyId: values.key });
  if (grants.length === 0)
    return console.log(
      `No OAuth grants in the ${target} KV namespace${values.user || values.account || values.key ? " matching the filter" : ""}.`,
    );
  printTable(grantRows(grants), GRANT_HEADER);
}

function grantsRevoke(positionals: string[], values: Values, target: Target): void {
  onlyOptions("grants revoke", values, ["remote", "key"]);
  if ((positionals.length === 1) === (values.key !== undefined) || positionals.length > 1) {
    throw new ScriptError("usage: npm run keys -- grants revoke <grant-id>   or   grants revoke --key <key-id>");
  }
  if (values.key !== undefined) {
    const grants = revokeGrantsOfKey(values.key, target);
    return console.log(
      grants.length === 0
        ? `No OAuth grants made with key ${values.key} (${target} KV).`
        : `Revoked ${grants.length} OAuth grant(s) made with key ${values.key}: ${grants.map((g) => g.id).join(", ")}.`,
    );
  }
  const grant = revokeGrantById(positionals[0], target);
  console.log(
    `Revoked OAuth grant ${grant.id} (${clean(grant.clientName ?? grant.clientId)} for user ${clean(grant.userId)}, ${target} KV): its tokens stop working now.`,
  );
}

function grants(positionals: string[], values: Values, target: Target): void {
  const [sub, ...rest] = positionals;
  if (sub === "list" && rest.length === 0) return grantsList(values, target);
  if (sub === "revoke") return grantsRevoke(rest, values, target);
  throw new ScriptError(
    `grants needs list or revoke${sub === undefined ? "" : `, not ${JSON.stringify([sub, ...rest].join(" "))}`} (see --help)`,
  );
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  const [command, ...rest] = positionals;
  if (values.help || command === "help") return console.log(HELP);
  const target: Target = values.remote ? "remote" : "local";
  if (command !== "revoke" && command !== "grants" && rest.length > 0)
    throw new ScriptError(`unexpected argument ${JSON.stringify(rest[0])} (see --help)`);
  switch (command) {
    case "create":
      onlyOptions(command, values, ["user", "app", "label", "account", "remote"]);
      return create(values, target);
    case "list":
      onlyOptions(command, values, ["remote"]);
      return list(target);
    case "revoke":
      onlyOptions(command, values, ["remote"]);
      return revoke(rest, target);
    case "grants":
      return grants(rest, values, target);
    case undefined:
      throw new ScriptError("missing command: create, list, revoke or grants (see --help)");
    default:
      throw new ScriptError(
        `unknown command ${JSON.stringify(command)}: use create, list, revoke or grants (see --help)`,
      );
  }
}

try {
  await main(process.argv.slice(2));
} catch (err) {
  // Operators get one line, not a stack trace; unexpected errors still say what broke.
  console.error(`keys: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
