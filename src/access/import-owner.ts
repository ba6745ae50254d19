/**
 * @module access/import-owner
 * Whose memories a mem0 export is, for /v1/import. mem0 stores a `user_id` on every memory; an app
 * key names its end user per call, so with an app key the file's one `user_id` names the end user
 * when `?user_id=` is absent, and a file holding another user's memories than the `?user_id=` given
 * (or several users' without one) is refused naming `user_id`: nothing crosses owners. A user key
 * already names its user, so the file's `user_id` (mem0's own name for that person) is not read.
 */
import { invalidInput } from "../memory/errors";
import { ID_RULE, isPrincipalId } from "../memory/ids";
import type { Principal } from "./principal";
import type { ScopeArgs } from "./scope";

const shown = (ids: string[]): string =>
  ids
    .slice(0, 3)
    .map((id) => JSON.stringify(id.slice(0, 64)))
    .join(", ") + (ids.length > 3 ? ", …" : "");

/** The scope arguments of an import whose file names the users in `fileUserIds` (mem0's user_id). */
export function importScopeArgs<T extends ScopeArgs>(principal: Principal, args: T, fileUserIds: string[]): T {
  if (principal.scope === "user" || fileUserIds.length === 0) return args;
  if (args.user_id !== undefined) {
    const others = fileUserIds.filter((id) => id !== args.user_id);
    if (others.length > 0)
      throw invalidInput(
        "user_id",
        `the file holds memories of user ${shown(others)}, not only of ${JSON.stringify(args.user_id)}: import each user's memories with their own user_id`,
      );
    return args;
  }
  if (fileUserIds.length > 1)
    throw invalidInput(
      "user_id",
      `required with an app key when the file holds memories of several users (${shown(fileUserIds)}): import each user's memories with ?user_id=<id>`,
    );
  const [only] = fileUserIds;
  if (!isPrincipalId(only)) throw invalidInput("user_id", `the file's user_id ${shown([only])} ${ID_RULE}`);
  return { ...args, user_id: only };
}
