/**
 * @module http/oauth/consent-view-store
 * Keeps what the authorization page showed, under the SHA-256 of its consent handle, for the
 * handle's ten-minute life. A wrong key then re-renders the same page with the same handle, and
 * the page shown always matches the request stored behind the handle (nothing is trusted from
 * the form but the handle itself).
 */
import { z } from "zod";
import { sha256Hex } from "../../accounts/api-key-format";
import type { ConsentView } from "./consent-page";

const VIEW_TTL_SECONDS = 600;
const PREFIX = "hippocampus-consent-view:";

const viewSchema = z.object({
  clientName: z.string().describe("Client name as the library described it"),
  clientDomain: z.string().optional().describe("Verified domain of a Client ID Metadata Document client"),
  redirectHost: z.string().describe("Host the authorization code is sent to"),
  toLocalApp: z
    .boolean()
    .describe("True when the code goes to an app on this computer (loopback or a private-use scheme)"),
  levels: z
    .array(z.enum(["read", "write"]))
    .min(1)
    .describe("Access levels offered, default first"),
  authorizeUrl: z.url().describe("The authorization request URL, for the language switch"),
});

async function keyFor(handle: string): Promise<string> {
  return `${PREFIX}${await sha256Hex(handle)}`;
}

export async function saveConsentView(kv: KVNamespace, handle: string, view: ConsentView): Promise<void> {
  await kv.put(await keyFor(handle), JSON.stringify(view), { expirationTtl: VIEW_TTL_SECONDS });
}

export async function loadConsentView(kv: KVNamespace, handle: string): Promise<ConsentView | null> {
  if (handle === "" || handle.length > 512) return null;
  const parsed = viewSchema.safeParse(await kv.get(await keyFor(handle), "json"));
  return parsed.success ? parsed.data : null;
}

export async function dropConsentView(kv: KVNamespace, handle: string): Promise<void> {
  await kv.delete(await keyFor(handle));
}
