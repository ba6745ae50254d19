/**
 * @module http/client-address
 * Which address a per-client limit counts: an IPv4 address as it is, an IPv6 address by its /64.
 * One household, phone or laptop holds a whole /64 (RFC 4291's interface identifiers, RFC 8981's
 * temporary addresses change every day or sooner), so counting each IPv6 address apart gives one
 * person 2^64 budgets. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) counts as its IPv4 address; a
 * value that is neither (local runs, a malformed header) counts as itself. A scan, no pattern.
 */

const HEXTETS = 8;

/** The eight 16-bit groups of an IPv6 address, or null when `text` is not one. */
function ipv6Groups(text: string): number[] | null {
  const zone = text.indexOf("%");
  const addr = (zone >= 0 ? text.slice(0, zone) : text).toLowerCase();
  if (addr.length === 0 || addr.length > 45 || !addr.includes(":")) return null;
  const halves = addr.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = ipv4Bytes(piece);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
        continue;
      }
      if (piece.length === 0 || piece.length > 4) return null;
      let n = 0;
      for (const ch of piece) {
        const d = Number.parseInt(ch, 16);
        if (Number.isNaN(d)) return null;
        n = n * 16 + d;
      }
      out.push(n);
    }
    return out;
  };
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === HEXTETS ? head : null;
  const missing = HEXTETS - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

function ipv4Bytes(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const p of parts) {
    if (p.length === 0 || p.length > 3) return null;
    for (const ch of p) if (ch < "0" || ch > "9") return null;
    const n = Number(p);
    if (n > 255) return null;
    bytes.push(n);
  }
  return bytes;
}

/** The key a per-client limit counts `ip` under: IPv4 as written, IPv6 as its /64 (`2001:db8:1:2::/64`). */
export function addressBucket(ip: string): string {
  const trimmed = ip.trim();
  const groups = ipv6Groups(trimmed);
  if (!groups) return trimmed;
  // ::ffff:a.b.c.d is an IPv4 client reaching a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
