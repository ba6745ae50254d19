/**
 * @module shards/move-account
 * Moving an account to another shard, online (docs/shards.md), one bounded step per call so no
 * request runs long: `npm run shards -- move` calls POST /admin/shards/move until it answers done.
 * An owner too large for one invocation's limits crosses over several calls (its crossing reports
 * `partial`): the call stops there and the next one goes on with the same owner.
 *
 * 1. The account is marked `moving` (to its target) in the directory; from then on a new owner of the
 *    account registers straight on the target (storage/d1-shard-directory.ts).
 * 2. Each owner still on the source crosses inside its own Durable Object, on its write queue
 *    (durable/shard-relocation.ts): copy, verify count and checksum, record the crossing, switch, delete.
 *    A write arriving meanwhile waits in that queue and lands once, on whichever side is current.
 * 3. Owners with rows left on the source (a crossing killed before its delete) are cleared the same way.
 * 4. The account is active on the target.
 * A killed move stays `moving`: calling again resumes it; asking for the source shard rolls it back —
 * the directory turns the move around (new owners now land on the source), every owner that crossed
 * crosses back, and leftovers on the abandoned target are cleared.
 */

import { loadConfig } from "../config";
import type { Env } from "../env";
import { MemoryError } from "../memory/errors";
import { ownerAddress } from "../memory/owner-address";
import type { Owner } from "../memory/types";
import { ownersWithRows } from "./d1-owner-rows";
import { D1ShardDirectory } from "./d1-shard-directory";
import { memoryShard } from "./shard-lookup";
import { HOME_SHARD } from "./shard-placement";
import type { RelocationReport } from "./shard-relocation";

export interface MoveProgress {
  account: string;
  from: string;
  to: string;
  /** True once the account is active on `to`. */
  done: boolean;
  /** Owners this call moved or cleared, with what each verified. */
  owners: ({ namespace: string; user_id: string } & RelocationReport)[];
  /** Owners still waiting to cross after this call. */
  remaining: number;
}

const ACTOR = "admin:shards";

async function relocate(env: Env, owner: Owner, from: string, to: string): Promise<RelocationReport> {
  const stub = env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress(owner)));
  const result = await stub.relocate({ ...owner, actor: ACTOR }, { from, to });
  if (!result.ok) throw MemoryError.from(result.error);
  return result.value;
}

/** The account's directory row; an account that stored rows while there was one shard is placed on it now. */
async function placed(env: Env, dir: D1ShardDirectory, accountId: string) {
  const found = await dir.account(accountId);
  if (found) return found;
  if ((await ownersWithRows(env.DB, accountId)).length > 0) await dir.place(accountId, HOME_SHARD, Date.now());
  const account = await dir.account(accountId);
  if (!account) throw new MemoryError("not_found", `account "${accountId}" has stored nothing yet`, "account");
  return account;
}

/** Starts a move if the account is at rest; returns the move's direction (a rollback runs target → source). */
async function direction(env: Env, dir: D1ShardDirectory, accountId: string, to: string) {
  const account = await placed(env, dir, accountId);
  if (account.state === "active") {
    if (account.shard === to) return { from: to, to, done: true };
    const source = memoryShard(env, loadConfig(env), account.shard);
    // Owners whose rows predate the directory get their row now, before the account is marked moving.
    await dir.registerOwners(await ownersWithRows(source.db, accountId), account.shard, Date.now());
    if (!(await dir.startMove(accountId, to, Date.now())))
      throw new MemoryError("conflict", "the account changed while the move started; run it again");
    return { from: account.shard, to, done: false };
  }
  if (account.target === to) return { from: account.shard, to, done: false };
  if (account.shard === to && account.target !== null) {
    if (!(await dir.reverseMove(accountId, account.shard, account.target, Date.now())))
      throw new MemoryError("conflict", "the account changed while the rollback started; run it again");
    return { from: account.target, to, done: false };
  }
  throw new MemoryError(
    "conflict",
    `account "${accountId}" is moving from ${account.shard} to ${account.target}: finish that move (--to ${account.target}) or roll it back (--to ${account.shard}) first`,
    "to",
  );
}

/** One step of a move: at most `ownersPerCall` owners cross (or are cleared). */
export async function moveAccountStep(
  env: Env,
  accountId: string,
  to: string,
  ownersPerCall: number,
): Promise<MoveProgress> {
  memoryShard(env, loadConfig(env), to);
  const dir = new D1ShardDirectory(env.DB);
  const way = await direction(env, dir, accountId, to);
  const progress: MoveProgress = { account: accountId, from: way.from, to, done: way.done, owners: [], remaining: 0 };
  if (way.done) return progress;
  const source = memoryShard(env, loadConfig(env), way.from);
  /** Crosses owners in turn; returns how many finished (an owner left partial stops the call). */
  const cross = async (owners: Owner[]) => {
    for (const [i, owner] of owners.entries()) {
      const report = await relocate(env, owner, way.from, to);
      progress.owners.push({ namespace: owner.namespace, user_id: owner.userId, ...report });
      if (report.status === "partial") return i;
    }
    return owners.length;
  };
  const pending = (await dir.owners(accountId)).filter((o) => o.shard !== to);
  const crossed = await cross(pending.slice(0, ownersPerCall));
  progress.remaining = pending.length - crossed;
  if (progress.remaining > 0) return progress;
  // Every owner has crossed; what is still on the source is left over from a crossing killed before its delete.
  const room = ownersPerCall - progress.owners.length;
  const leftovers = await ownersWithRows(source.db, accountId);
  const cleared = room > 0 ? await cross(leftovers.slice(0, room)) : 0;
  progress.remaining = leftovers.length - cleared;
  if (progress.remaining > 0) return progress;
  await dir.finishMove(accountId, to, Date.now());
  progress.done = true;
  return progress;
}
