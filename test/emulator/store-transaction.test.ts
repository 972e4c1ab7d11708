// emulator/store/db.ts on node:sqlite: transaction() commits, rolls back everything on a throw, and nests as a
// savepoint (an inner failure undoes only the inner work); the store's pragmas are in force.
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../emulator/store/db.js";

function fresh() {
  const db = openDatabase(":memory:");
  db.exec("CREATE TABLE t (v TEXT)");
  const values = () => (db.prepare("SELECT v FROM t ORDER BY rowid").all() as { v: string }[]).map((r) => r.v);
  const insert = (v: string) => db.prepare("INSERT INTO t (v) VALUES (?)").run(v);
  return { db, values, insert };
}

describe("openDatabase (node:sqlite)", () => {
  it("commits a transaction and returns its value", () => {
    const { db, values, insert } = fresh();
    expect(db.transaction((a: string, b: string) => (insert(a), insert(b), 2))("a", "b")).toBe(2);
    expect(values()).toEqual(["a", "b"]);
  });

  it("rolls the whole transaction back when it throws, and the next one works", () => {
    const { db, values, insert } = fresh();
    expect(() =>
      db.transaction(() => {
        insert("lost");
        throw new Error("boom");
      })(),
    ).toThrow("boom");
    expect(values()).toEqual([]);
    db.transaction(() => insert("kept"))();
    expect(values()).toEqual(["kept"]);
  });

  it("nests as a savepoint: an inner failure undoes only the inner work", () => {
    const { db, values, insert } = fresh();
    db.transaction(() => {
      insert("outer");
      expect(() =>
        db.transaction(() => {
          insert("inner");
          throw new Error("inner");
        })(),
      ).toThrow("inner");
      db.transaction(() => insert("inner 2"))();
    })();
    expect(values()).toEqual(["outer", "inner 2"]);
  });

  it("enforces foreign keys", () => {
    const { db } = fresh();
    expect((db.prepare("PRAGMA foreign_keys").get() as { foreign_keys: number }).foreign_keys).toBe(1);
  });
});
