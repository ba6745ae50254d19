/**
 * @module scripts/lib/bench-users
 * Sample ids → user ids for the recall benchmark, injectively: two samples never share a user (their
 * memories would mix and their external_ids would be skipped as already imported). Letters and
 * digits of any script stay readable (「王芳」 → bench-王芳); every other character, `_` included,
 * becomes `_<hex code point>_`, which decodes uniquely. A mapping that would not survive the
 * server's NFC normalisation, or would exceed the id length, or collides anyway, fails loudly.
 */
import { ID_MAX_CHARS, isPrincipalId, normalizePrincipalId } from "../../src/memory/ids.ts";

const KEEP = /^[\p{L}\p{N}.@:-]$/u;
const KEEP_ASCII = /^[A-Za-z0-9.@:-]$/;

function escaped(sampleId: string, keep: RegExp): string {
  let out = "bench-";
  for (const ch of sampleId) out += keep.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  return out;
}

export class BenchUserError extends Error {}

/** The user id of one sample: readable where the server keeps it as is, ASCII-escaped otherwise. */
export function benchUserId(sampleId: string): string {
  const readable = escaped(sampleId, KEEP);
  // Characters NFC would rewrite (Hangul jamo, compatibility ideographs) would merge two ids on the server.
  const id = normalizePrincipalId(readable) === readable ? readable : escaped(sampleId, KEEP_ASCII);
  if (!isPrincipalId(id))
    throw new BenchUserError(
      `sample id ${JSON.stringify(sampleId)} maps to a user id longer than ${ID_MAX_CHARS} characters; shorten it`,
    );
  return id;
}

/** Every sample's user id; throws on any two samples that would share a user. */
export function benchUserIds(sampleIds: string[]): Map<string, string> {
  const users = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const sampleId of sampleIds) {
    const user = benchUserId(sampleId);
    const other = owners.get(user);
    if (other !== undefined)
      throw new BenchUserError(
        `samples ${JSON.stringify(other)} and ${JSON.stringify(sampleId)} would share user ${JSON.stringify(user)}: sample ids must be unique`,
      );
    owners.set(user, sampleId);
    users.set(sampleId, user);
  }
  return users;
}
