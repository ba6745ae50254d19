/**
 * @module durable/shard-relocation
 * One owner's crossing from one shard to another (docs/shards.md), run by the owner's Durable Object
 * on its write queue, so no write of this owner can land in between: clear what an interrupted run
 * left on the target, copy, compare count and checksum per table, record the crossing in the
 * directory, switch the object to the target, then delete the source rows. Safe to repeat at any
 * point: before the crossing is recorded the source is authoritative and the target is rebuilt;
 * after it, only the source's leftovers are deleted.
 */
import { MemoryError } from "../memory/errors";
import type { Owner } from "../memory/types";
import { copyOwnerRows, deleteOwnerRows, type OwnerSums, ownerSums, sameSums } from "../storage/d1-owner-rows";
import { D1ShardDirectory } from "../storage/d1-shard-directory";
import type { ShardHome } from "../storage/shard-placement";

export interface RelocationReport {
  /** `moved`: copied and switched now; `already`: this owner was on the target (leftovers cleared). */
  status: "moved" | "already";
  shard: string;
  /** What the target holds for this owner, per table (rows and checksum); empty when already there. */
  verified: OwnerSums;
  /** Rows deleted from the source (or the abandoned shard), per table. */
  removed: Record<string, number>;
}

export interface Relocation {
  owner: Owner;
  current: ShardHome;
  from: ShardHome;
  to: ShardHome;
  home: D1Database;
  /** Switches the object's repository to the target; called once the directory records the crossing. */
  switchTo(home: ShardHome): void;
}

async function copyVerified(from: ShardHome, to: ShardHome, owner: Owner): Promise<OwnerSums> {
  await deleteOwnerRows(to.db, owner);
  const read = await copyOwnerRows(from.db, to.db, owner);
  const written = await ownerSums(to.db, owner);
  if (!sameSums(read, written)) {
    await deleteOwnerRows(to.db, owner);
    throw new MemoryError("conflict", `the copy to ${to.binding} did not verify; nothing moved, run the move again`);
  }
  return written;
}

export async function relocateOwner(r: Relocation): Promise<RelocationReport> {
  if (r.from.binding === r.to.binding) throw new MemoryError("invalid_input", "from and to are the same shard", "to");
  if (r.current.binding === r.to.binding) {
    return { status: "already", shard: r.to.binding, verified: {}, removed: await deleteOwnerRows(r.from.db, r.owner) };
  }
  if (r.current.binding !== r.from.binding)
    throw new MemoryError(
      "conflict",
      `this user is on ${r.current.binding}, neither ${r.from.binding} nor ${r.to.binding}`,
    );
  const verified = await copyVerified(r.from, r.to, r.owner);
  if (!(await new D1ShardDirectory(r.home).moveOwner(r.owner, r.from.binding, r.to.binding)))
    throw new MemoryError("conflict", "the directory no longer places this user on the source shard");
  r.switchTo(r.to);
  return { status: "moved", shard: r.to.binding, verified, removed: await deleteOwnerRows(r.from.db, r.owner) };
}
