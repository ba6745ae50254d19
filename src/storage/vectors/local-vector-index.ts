/**
 * @module storage/vectors/local-vector-index
 * VectorIndex inside the user's Durable Object: vectors persist in DO SQLite and are scanned from an
 * in-memory int8 matrix loaded lazily on the first query. Int8 with a per-vector scale keeps 100k ×
 * 384-d at 38 MB while cosine ranking stays within quantisation noise. The matrix is column-major
 * (one contiguous run per dimension), so a query reads only the dimensions it uses: the hash
 * embedder's query vectors touch ~20 of 384, and a dense query (bge-m3) costs what a row scan would.
 * It is held in fixed blocks of rows (column-major inside each block): growing adds one block and
 * copies nothing, so the matrix never holds a doubled buffer beside the old one (at 100k × 384 a
 * doubling copy was 77 MB new + 38 MB old at once) nor more than one block of slack. A load reads a
 * block of rows as one blob and turns it column-major where it lies (transpose-in-place.ts), so it
 * leaves no copy behind as garbage. A block is sized so that the query reading it stays within
 * Durable Object SQLite's 2 MB per string, BLOB and row (do-sqlite-limits.ts): 4,096 rows at 384
 * dimensions, 1,838 at 1,024 (bge-m3).
 * Writes are visible immediately, so this index needs no fresh buffer. With `maxVectors` set
 * (LOCAL_INDEX_MAX_VECTORS, which config requires above 384 dimensions), an upsert that would hold
 * more vectors for the owner is refused: the rows stay in D1 and are found lexically.
 */

import { ownerAddress } from "../../memory/owner-address";
import type { VectorIndex, VectorItem } from "../../memory/ports";
import { topK } from "../../memory/top-k";
import type { Owner, ScoredId } from "../../memory/types";
import { DO_SQLITE_MAX_VALUE_BYTES } from "../object/do-sqlite-limits";
import { queryDims, scoreInt8Block } from "./int8-block-scan";
import { transposeInPlace } from "./transpose-in-place";

/**
 * Heap bytes per id beyond its matrix column: the id string (~40), its array slot (8) and its Map
 * entry (~37), measured with process.memoryUsage() on 100k ULIDs in V8.
 */
const ID_OVERHEAD_BYTES = 85;

/** Resident bytes one vector costs in the matrix (int8 components, its scale, its id): the size check's unit. */
export function localIndexBytesPerVector(dims: number): number {
  return dims + 4 + ID_OVERHEAD_BYTES;
}
/** Rows per block at most: 1.5 MB at 384 dimensions, so slack and the unit of growth stay small. */
export const LOCAL_INDEX_BLOCK_ROWS = 4096;

/**
 * Bytes a loaded row adds to the load's result row beside its `dims` vector bytes: its id in the JSON
 * array (a 26-character ULID, quoted, and a comma: 29) and its scale as %.17g text and a comma (at most 25).
 */
const LOAD_ROW_TEXT_BYTES = 64;

/**
 * Rows per block for `dims`-dimensional vectors: as many as one load query can return while its
 * largest value (the block's vectors as one blob) and its whole result row stay within
 * `maxValueBytes`, and at most LOCAL_INDEX_BLOCK_ROWS.
 */
export function localIndexBlockRows(dims: number, maxValueBytes = DO_SQLITE_MAX_VALUE_BYTES): number {
  return Math.max(1, Math.min(LOCAL_INDEX_BLOCK_ROWS, Math.floor(maxValueBytes / (dims + LOAD_ROW_TEXT_BYTES))));
}

interface Matrix {
  count: number;
  /** blocks[b][dim * blockRows + r]: quantised component of vector `b * blockRows + r` in dimension `dim`. */
  blocks: Int8Array[];
  /** scales[b][r]: the scale of vector `b * blockRows + r`. */
  scales: Float32Array[];
  ids: string[];
  slotOf: Map<string, number>;
}

export function quantize(vector: Float32Array): { q: Int8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i]));
  const q = new Int8Array(vector.length);
  if (max === 0) return { q, scale: 0 };
  const k = 127 / max;
  for (let i = 0; i < vector.length; i++) q[i] = Math.round(vector[i] * k);
  return { q, scale: max / 127 };
}

/** One chunk of an owner's vectors in rowid order: ids as a JSON array, scales exact (%.17g), vectors concatenated. */
type LoadChunk = {
  n: number;
  last: number;
  ids: string;
  scales: string;
  vecs: ArrayBuffer;
};

// The three aggregates read the rows in one pass, so ids, scales and vectors stay in the same order.
// The vectors are concatenated as they are (group_concat copies a BLOB's bytes, NULs included, and
// the CAST gives them back as a BLOB): no hex string twice their size in between, so the largest
// value the query makes is the blob it returns.
const LOAD_CHUNK = `SELECT count(*) AS n, max(rowid) AS last, json_group_array(id) AS ids,
  group_concat(printf('%.17g', scale), ',') AS scales, CAST(group_concat(vec, '') AS BLOB) AS vecs
  FROM (SELECT rowid, id, scale, vec FROM local_vectors WHERE owner = ?1 AND dims = ?2 AND rowid > ?3 ORDER BY rowid LIMIT ?4)`;

const emptyMatrix = (): Matrix => ({ count: 0, blocks: [], scales: [], ids: [], slotOf: new Map() });

export class LocalVectorIndex implements VectorIndex {
  readonly kind = "local" as const;
  readonly eventual = false;
  /** One matrix per owner; in production a Durable Object serves one owner, so there is one. */
  private readonly matrices = new Map<string, Matrix>();
  /** Score buffer reused across queries: no 400 KB allocation per recall at 100k. */
  private scratch = new Float32Array(0);

  constructor(
    private readonly sqlStorage: SqlStorage,
    private readonly dims: number,
    private readonly maxVectors = Number.POSITIVE_INFINITY,
    private readonly blockRows = localIndexBlockRows(dims),
  ) {
    if (blockRows > localIndexBlockRows(dims))
      throw new RangeError(
        `${blockRows} rows of ${dims} dimensions are more than one Durable Object SQLite value holds`,
      );
    sqlStorage.exec(`CREATE TABLE IF NOT EXISTS local_vectors (
      id TEXT PRIMARY KEY, owner TEXT NOT NULL, dims INTEGER NOT NULL, scale REAL NOT NULL, vec BLOB NOT NULL)`);
  }

  /** Bytes the loaded matrices hold: vector blocks, scales, ids and the score buffer. */
  residentBytes(): number {
    let bytes = this.scratch.byteLength;
    for (const m of this.matrices.values()) {
      for (let b = 0; b < m.blocks.length; b++) bytes += m.blocks[b].byteLength + m.scales[b].byteLength;
      bytes += m.count * ID_OVERHEAD_BYTES;
    }
    return bytes;
  }

  async upsert(owner: Owner, items: VectorItem[]): Promise<void> {
    const key = ownerAddress(owner);
    this.checkRoom(key, items);
    const m = this.matrices.get(key);
    for (const item of items) {
      if (item.vector.length !== this.dims)
        throw new Error(`vector for ${item.id} has ${item.vector.length} dims, index has ${this.dims}`);
      const { q, scale } = quantize(item.vector);
      this.sqlStorage.exec(
        "INSERT OR REPLACE INTO local_vectors (id, owner, dims, scale, vec) VALUES (?, ?, ?, ?, ?)",
        item.id,
        key,
        this.dims,
        scale,
        q.buffer,
      );
      if (m) this.place(m, item.id, q, 0, scale);
    }
  }

  /** Refuses an upsert that would take the owner past maxVectors (replacing a stored id takes no room). */
  private checkRoom(key: string, items: VectorItem[]): void {
    if (!Number.isFinite(this.maxVectors)) return;
    const held = this.sqlStorage.exec("SELECT count(*) AS n FROM local_vectors WHERE owner = ?", key).one().n as number;
    const added = items.filter(
      (item) =>
        this.sqlStorage.exec("SELECT 1 FROM local_vectors WHERE id = ? AND owner = ?", item.id, key).toArray()
          .length === 0,
    ).length;
    if (held + added > this.maxVectors)
      throw new Error(
        `local vector index is full: ${held} of ${this.maxVectors} vectors (LOCAL_INDEX_MAX_VECTORS); the new memories are found by keyword until there is room`,
      );
  }

  async query(owner: Owner, vector: Float32Array, k: number): Promise<ScoredId[]> {
    const m = this.load(ownerAddress(owner));
    const n = m.count;
    if (n === 0) return [];
    if (this.scratch.length < n) this.scratch = new Float32Array(m.blocks.length * this.blockRows);
    const scores = this.scratch.subarray(0, n);
    const q = queryDims(vector, this.dims);
    for (let b = 0; b < m.blocks.length; b++) {
      // Each block's rows at their global slots (int8-block-scan.ts).
      const base = b * this.blockRows;
      const rows = Math.min(this.blockRows, n - base);
      scoreInt8Block(m.blocks[b], this.blockRows, rows, q, m.scales[b], scores.subarray(base, base + rows));
    }
    return topK(scores, k).map(({ index, score }) => ({ id: m.ids[index], score }));
  }

  async remove(owner: Owner, ids: string[]): Promise<void> {
    const key = ownerAddress(owner);
    const m = this.matrices.get(key);
    for (const id of ids) {
      this.sqlStorage.exec("DELETE FROM local_vectors WHERE id = ? AND owner = ?", id, key);
      if (m) this.evict(m, id);
    }
  }

  async listIds(owner: Owner): Promise<string[]> {
    return this.sqlStorage
      .exec<{ id: string }>("SELECT id FROM local_vectors WHERE owner = ?", ownerAddress(owner))
      .toArray()
      .map((r) => r.id);
  }

  private load(key: string): Matrix {
    const cached = this.matrices.get(key);
    if (cached) return cached;
    const m = emptyMatrix();
    // A block of rows per query, its vectors as ONE blob (not an ArrayBuffer per row: at 100k that
    // was 100,000 small buffers of garbage, tens of MB beside the matrix while it loads).
    for (let after = 0, done = false; !done; ) {
      const chunk = this.sqlStorage.exec<LoadChunk>(LOAD_CHUNK, key, this.dims, after, this.blockRows).one();
      if (chunk.n === 0) break;
      const ids = JSON.parse(chunk.ids) as string[];
      const scales = chunk.scales.split(",");
      const vecs = new Int8Array(chunk.vecs);
      if (chunk.n === this.blockRows) this.adoptBlock(m, ids, vecs, scales);
      else for (let r = 0; r < chunk.n; r++) this.place(m, ids[r], vecs, r * this.dims, Number(scales[r]));
      after = chunk.last;
      done = chunk.n < this.blockRows;
    }
    this.matrices.set(key, m);
    return m;
  }

  /**
   * A full block read in one query (every block before it full too, so it starts at a block's first
   * slot): the blob, turned column-major where it lies, becomes the block — no copy left as garbage.
   */
  private adoptBlock(m: Matrix, ids: string[], rowMajor: Int8Array, scales: string[]): void {
    transposeInPlace(rowMajor, this.blockRows, this.dims);
    m.blocks.push(rowMajor);
    m.scales.push(Float32Array.from(scales, Number));
    for (const id of ids) {
      m.slotOf.set(id, m.count);
      m.ids[m.count++] = id;
    }
  }

  /** Writes the vector at `q[offset…offset + dims)` into the id's slot (a new slot at the end if it has none). */
  private place(m: Matrix, id: string, q: Int8Array, offset: number, scale: number): void {
    let slot = m.slotOf.get(id);
    if (slot === undefined) {
      if (m.count === m.blocks.length * this.blockRows) {
        m.blocks.push(new Int8Array(this.blockRows * this.dims));
        m.scales.push(new Float32Array(this.blockRows));
      }
      slot = m.count++;
      m.ids[slot] = id;
      m.slotOf.set(id, slot);
    }
    const block = m.blocks[Math.floor(slot / this.blockRows)];
    const row = slot % this.blockRows;
    for (let dim = 0; dim < this.dims; dim++) block[dim * this.blockRows + row] = q[offset + dim];
    m.scales[Math.floor(slot / this.blockRows)][row] = scale;
  }

  /** Swap-remove keeps every column dense so the scan never skips holes; an emptied last block is released. */
  private evict(m: Matrix, id: string): void {
    const slot = m.slotOf.get(id);
    if (slot === undefined) return;
    const last = m.count - 1;
    if (slot !== last) {
      const [to, from] = [m.blocks[Math.floor(slot / this.blockRows)], m.blocks[Math.floor(last / this.blockRows)]];
      const [toRow, fromRow] = [slot % this.blockRows, last % this.blockRows];
      for (let dim = 0; dim < this.dims; dim++) to[dim * this.blockRows + toRow] = from[dim * this.blockRows + fromRow];
      m.scales[Math.floor(slot / this.blockRows)][toRow] = m.scales[Math.floor(last / this.blockRows)][fromRow];
      m.ids[slot] = m.ids[last];
      m.slotOf.set(m.ids[slot], slot);
    }
    m.ids.length = last;
    m.count = last;
    m.slotOf.delete(id);
    if (m.count <= (m.blocks.length - 1) * this.blockRows) {
      m.blocks.pop();
      m.scales.pop();
    }
  }
}
