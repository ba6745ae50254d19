/**
 * @module test/unit/metered-sql-storage
 * The Durable Object's SQLite rows, counted per call: every cursor a call opens is summed when its
 * snapshot is taken (rows read as they are iterated count too), other calls are not charged, and
 * the rows travel with the snapshot to the Worker's recorder.
 */
import { describe, expect, it } from "vitest";
import { meteredSqlStorage } from "../../src/storage/object/metered-sql-storage";
import { RequestTiming, runTimed } from "../../src/timing/request-timing";

/** A SqlStorage whose cursors read one row per `next()` and write what the statement says. */
function fakeSql(): SqlStorage {
  const exec = (query: string) => {
    const rows = query.startsWith("SELECT") ? [{ n: 1 }, { n: 2 }, { n: 3 }] : [];
    let read = 0;
    return {
      next: () => (read < rows.length ? { done: false, value: rows[read++] } : { done: true, value: undefined }),
      toArray: () => {
        read = rows.length;
        return rows;
      },
      get rowsRead() {
        return read;
      },
      get rowsWritten() {
        return query.startsWith("INSERT") ? 1 : 0;
      },
    };
  };
  return { exec, databaseSize: 4096 } as unknown as SqlStorage;
}

describe("metered Durable Object SQL", () => {
  it("counts the rows each statement of the call read and wrote", () => {
    const sql = meteredSqlStorage(fakeSql());
    const timing = new RequestTiming();
    runTimed(timing, () => {
      sql.exec("INSERT INTO t VALUES (1)");
      sql.exec("SELECT n FROM t").toArray();
      const partly = sql.exec("SELECT n FROM t");
      partly.next();
    });
    expect(timing.snapshot()).toMatchObject({ doSqlRowsRead: 4, doSqlRowsWritten: 1 });
    expect(sql.databaseSize).toBe(4096);
  });

  it("charges nothing outside a call, and another call's rows stay its own", () => {
    const sql = meteredSqlStorage(fakeSql());
    sql.exec("INSERT INTO t VALUES (1)");
    const a = new RequestTiming();
    const b = new RequestTiming();
    runTimed(a, () => sql.exec("INSERT INTO t VALUES (2)"));
    runTimed(b, () => sql.exec("SELECT n FROM t").toArray());
    expect(a.snapshot()).toMatchObject({ doSqlRowsRead: 0, doSqlRowsWritten: 1 });
    expect(b.snapshot()).toMatchObject({ doSqlRowsRead: 3, doSqlRowsWritten: 0 });
  });

  it("counts every statement of a long call while holding only the latest cursors", () => {
    const sql = meteredSqlStorage(fakeSql());
    const timing = new RequestTiming();
    runTimed(timing, () => {
      for (let i = 0; i < 1000; i++) sql.exec("INSERT INTO t VALUES (1)");
      sql.exec("SELECT n FROM t").toArray();
    });
    expect(timing.snapshot()).toMatchObject({ doSqlRowsRead: 3, doSqlRowsWritten: 1000 });
  });

  it("travels with the object's snapshot to the Worker's recorder", () => {
    const sql = meteredSqlStorage(fakeSql());
    const inside = new RequestTiming();
    runTimed(inside, () => sql.exec("INSERT INTO t VALUES (1)"));
    const worker = new RequestTiming();
    worker.addDurableObjectCall(5, inside.snapshot());
    expect(worker.snapshot()).toMatchObject({ doSqlRowsRead: 0, doSqlRowsWritten: 1 });
  });
});
