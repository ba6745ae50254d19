/**
 * @module scripts/lib/bench-users
 * Sample ids → user ids for the recall benchmark, injectively: two samples never share a user (their
 * memories would mix and their external_ids would be skipped as already imported). Letters and
 * digits of any script stay readable (「王芳」 → bench-王芳); every other character, `_` included,
 * becomes `_<hex code point>_`, which decodes uniquely. A mapping that would not survive the
 * server's NFC normalisation, or would exceed the id length, or collides anyway, fails loudly. And
 * the other side of the same promise: every memory recall returns to a user is that user's own.
 */
import { ID_MAX_CHARS, isPrincipalId, normalizePrincipalId } from "../../src/memory/ids.ts";

const KEEP = /^[\p{L}\p{N}.@:-]$/u;
const KEEP_ASCII = /^[A-Za-z0-9.@:-]$/;

/**
 * Against a running server (`--url`) the users of one run get a tag of their own
 * (`bench-<run>-<sample>`), so a second run never meets the first one's memories; a fresh local
 * server needs none.
 */
let runPrefix = "bench-";

export function setBenchRun(tag: string | null): void {
  runPrefix = tag ? `bench-${tag}-` : "bench-";
}

/** The user id of a benchmark user that is not a sample (the scale run's, calibration's): tagged like the samples'. */
export function benchRunUser(name: string): string {
  return `${runPrefix}${name}`;
}

function escaped(sampleId: string, keep: RegExp): string {
  let out = runPrefix;
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

/**
 * The returned memories as this user's evidence ids. A fresh server holds only what the benchmark
 * imported, so an id outside `own` (the user's own import) is another owner's memory: the run stops,
 * since no figure means anything once memories cross owners.
 */
export function ownEvidence(userId: string, ids: string[], own: Map<string, string>): string[] {
  const foreign = ids.filter((id) => !own.has(id));
  if (foreign.length > 0)
    throw new BenchUserError(
      `recall for ${userId} returned ${foreign.length} memories it does not own (${foreign[0]}): memory crossed owners`,
    );
  return ids.map((id) => own.get(id)!);
}
