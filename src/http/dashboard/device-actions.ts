/**
 * @module http/dashboard/device-actions
 * The devices page and its one post: revoke one of the signed-in person's own user keys. The
 * storage predicate carries the person (account, user, user scope), so another person's key id
 * changes nothing and says so. Revoking ends the key's OAuth grants (each is checked against its key
 * on every request) and its dashboard sessions (checked the same way), as `npm run keys -- revoke` does.
 */
import type { Context } from "hono";
import { invalidInput } from "../../memory/errors";
import type { AppEnv } from "../app-env";
import { forgetApiKey } from "../key-cache";
import { checkForm, frameOf, requireSession } from "./dashboard-context";
import { DevicesPage } from "./devices-page";
import { renderPage } from "./layout";

const KEY_ID = /^key_[0-9a-f]{16}$/;

export async function devicesPage(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  const keys = await c.var
    .services()
    .accounts()
    .apiKeys.listForUser(session.principal.accountId, session.principal.userId!);
  return renderPage(
    c,
    DevicesPage({ frame: frameOf(c, "devices", session), keys, currentKeyId: session.principal.keyId }),
  );
}

export async function revokeDeviceAction(c: Context<AppEnv>): Promise<Response> {
  const session = await requireSession(c);
  if (session instanceof Response) return session;
  await checkForm(c, session.csrf);
  const id = c.req.param("id") ?? "";
  if (!KEY_ID.test(id)) throw invalidInput("id", "is not a key id (key_ and 16 hex characters)");
  const row = await c.var
    .services()
    .accounts()
    .apiKeys.revokeForUser(id, session.principal.accountId, session.principal.userId!, Date.now());
  if (row !== null) forgetApiKey(row.id);
  // Revoking the key of this very session ends it: the next page is the sign-in page.
  const flash = row === null ? "notYours" : "keyRevoked";
  return c.redirect(`/dashboard/devices?flash=${flash}`, 303);
}
