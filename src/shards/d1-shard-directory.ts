/**
 * @module shards/d1-shard-directory
 * The shard directory (migration 0010, docs/shards.md) in the home database: which shard each
 * account lives on and whether it is moving, and which shard each owner really is on. At rest all
 * owners of an account share its shard; during a move they cross one at a time, each inside its own
 * Durable Object's write queue, and only that object changes its owner's row.
 *
 * Registration and the start of a move meet in one place: an owner registers with one statement that
 * reads the account's row (`moving` → the target), and a move first marks the account `moving`, then
 * lists its owners. D1 runs statements one at a time, so every owner is either listed by the move or
 * registered straight on the target.
 */
import type { Owner } from "../memory/types";

export type ShardState = "active" | "moving";

export interface AccountShard {
  accountId: string;
  shard: string;
  state: ShardState;
  target: string | null;
}

export interface OwnerShard extends Owner {
  shard: string;
}

interface AccountRow {
  account_id: string;
  shard: string;
  state: string;
  target: string | null;
}

const toAccount = (r: AccountRow): AccountShard => ({
  accountId: r.account_id,
  shard: r.shard,
  state: r.state === "moving" ? "moving" : "active",
  target: r.target,
});

const OWNER_WHERE = "account_id = ? AND namespace = ? AND user_id = ?";

export class D1ShardDirectory {
  constructor(private readonly db: D1Database) {}

  private ownerArgs(owner: Owner): string[] {
    return [owner.accountId, owner.namespace, owner.userId];
  }

  /**
   * The owner's shard, registering the owner on its account's shard (the target while the account
   * moves) if it is new. Null when the account itself is not placed yet. One round trip.
   */
  async ownerShard(owner: Owner, now: number): Promise<string | null> {
    const [, found] = await this.db.batch<{ shard: string }>([
      this.db
        .prepare(
          `INSERT OR IGNORE INTO shard_owners (account_id, namespace, user_id, shard, created_at)
           SELECT ?, ?, ?, CASE WHEN state = 'moving' THEN target ELSE shard END, ? FROM shard_accounts WHERE account_id = ?`,
        )
        .bind(...this.ownerArgs(owner), now, owner.accountId),
      this.db.prepare(`SELECT shard FROM shard_owners WHERE ${OWNER_WHERE}`).bind(...this.ownerArgs(owner)),
    ]);
    return found.results[0]?.shard ?? null;
  }

  /** The owner's shard without registering it: null for an owner never seen. */
  async knownOwnerShard(owner: Owner): Promise<string | null> {
    return this.db
      .prepare(`SELECT shard FROM shard_owners WHERE ${OWNER_WHERE}`)
      .bind(...this.ownerArgs(owner))
      .first<string>("shard");
  }

  /** Places an account on `shard` unless it already has a place (the first placement wins a race). */
  async place(accountId: string, shard: string, now: number): Promise<void> {
    await this.db
      .prepare("INSERT OR IGNORE INTO shard_accounts (account_id, shard, state, updated_at) VALUES (?, ?, 'active', ?)")
      .bind(accountId, shard, now)
      .run();
  }

  async account(accountId: string): Promise<AccountShard | null> {
    const row = await this.db
      .prepare("SELECT account_id, shard, state, target FROM shard_accounts WHERE account_id = ?")
      .bind(accountId)
      .first<AccountRow>();
    return row ? toAccount(row) : null;
  }

  /** Registers owners found with rows on the account's shard (idempotent: known owners keep their row). */
  async registerOwners(owners: Owner[], shard: string, now: number): Promise<void> {
    if (owners.length === 0) return;
    await this.db.batch(
      owners.map((o) =>
        this.db
          .prepare(
            "INSERT OR IGNORE INTO shard_owners (account_id, namespace, user_id, shard, created_at) VALUES (?, ?, ?, ?, ?)",
          )
          .bind(...this.ownerArgs(o), shard, now),
      ),
    );
  }

  /** Marks an active account as moving to `target`; false if it was not active on another shard. */
  async startMove(accountId: string, target: string, now: number): Promise<boolean> {
    const r = await this.db
      .prepare(
        "UPDATE shard_accounts SET state = 'moving', target = ?, updated_at = ? WHERE account_id = ? AND state = 'active' AND shard <> ?",
      )
      .bind(target, now, accountId, target)
      .run();
    return r.meta.changes === 1;
  }

  /**
   * Turns a move around (a rollback): the account now moves from its old target back to `shard`, so
   * an owner that registers from here on lands on the shard the account returns to.
   */
  async reverseMove(accountId: string, shard: string, target: string, now: number): Promise<boolean> {
    const r = await this.db
      .prepare(
        "UPDATE shard_accounts SET shard = target, target = shard, updated_at = ? WHERE account_id = ? AND state = 'moving' AND shard = ? AND target = ?",
      )
      .bind(now, accountId, shard, target)
      .run();
    return r.meta.changes === 1;
  }

  /** Ends a move (or its rollback): the account is active on `shard`. */
  async finishMove(accountId: string, shard: string, now: number): Promise<void> {
    await this.db
      .prepare(
        "UPDATE shard_accounts SET shard = ?, state = 'active', target = NULL, updated_at = ? WHERE account_id = ? AND state = 'moving'",
      )
      .bind(shard, now, accountId)
      .run();
  }

  async owners(accountId: string): Promise<OwnerShard[]> {
    const { results } = await this.db
      .prepare(
        "SELECT account_id, namespace, user_id, shard FROM shard_owners WHERE account_id = ? ORDER BY namespace, user_id",
      )
      .bind(accountId)
      .all<{ account_id: string; namespace: string; user_id: string; shard: string }>();
    return results.map((r) => ({ accountId: r.account_id, namespace: r.namespace, userId: r.user_id, shard: r.shard }));
  }

  /** The owner's Durable Object records its crossing; only moves an owner that is still on `from`. */
  async moveOwner(owner: Owner, from: string, to: string): Promise<boolean> {
    const r = await this.db
      .prepare(`UPDATE shard_owners SET shard = ? WHERE ${OWNER_WHERE} AND shard = ?`)
      .bind(to, ...this.ownerArgs(owner), from)
      .run();
    return r.meta.changes === 1;
  }
}
