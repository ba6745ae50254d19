/**
 * @module memory/entities/sorted-words
 * Membership in a long sorted list kept as one string, without building anything: a binary search
 * over the string's entries (separated by `sep`, sorted by code unit), each probe reading one entry.
 * The entity word lists (tens of thousands of entries) then cost nothing to load: a Set of them took
 * tens of milliseconds of CPU on an isolate's first extraction. Pure.
 */

/** The entry of `list` that holds position `at`: its start and end (exclusive). */
function entryAt(list: string, sep: string, at: number): [number, number] {
  const start = list.lastIndexOf(sep, at - 1) + 1;
  const next = list.indexOf(sep, at);
  return [start, next === -1 ? list.length : next];
}

/** True when `word` is an entry of `list`, a `sep`-separated string sorted by code unit. */
export function inSortedList(list: string, sep: string, word: string): boolean {
  if (word.length === 0 || word.includes(sep)) return false;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const [start, end] = entryAt(list, sep, (lo + hi) >>> 1);
    const entry = list.slice(start, end);
    if (entry === word) return true;
    if (entry < word) lo = end + 1;
    else hi = start;
  }
  return false;
}
