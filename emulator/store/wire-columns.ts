// A table's wire columns, read from the field tables (wire/generated/fields.ts): a field's column bears the field's
// name, so what a row shows in the API, what a create inserts and what an update may set come from the wire, not
// from lists kept in each store. A column stored another way (JSON text, 0/1 for a boolean) is decoded by its
// store, beside these; inserts name their columns by the keys of the values given.
import type { SQLInputValue, StatementResultingChanges } from "node:sqlite";
import type { FieldTable } from "../../wire/generated/fields.js";
import { stmt, type Database } from "./db.js";

type Shown<T> = { [K in keyof T]: T[K] extends { read: true } ? K : never }[keyof T] & string;
type Created<T> = { [K in keyof T]: T[K] extends { create: "required" | "optional" } ? K : never }[keyof T] & string;
type Updated<T> = { [K in keyof T]: T[K] extends { update: true } ? K : never }[keyof T] & string;

/** The fields answers always show, in the table's order (a webhook endpoint's secret, shown once, is not one). */
export function shownFields<T extends FieldTable>(table: T): Shown<T>[] {
  return Object.keys(table).filter((name) => table[name]!.read === true) as Shown<T>[];
}

/** The fields the create request takes. */
export function createFields<T extends FieldTable>(table: T): Created<T>[] {
  return Object.keys(table).filter((name) => table[name]!.create !== false) as Created<T>[];
}

/** The fields the update request takes. */
export function updateFields<T extends FieldTable>(table: T): Updated<T>[] {
  return Object.keys(table).filter((name) => table[name]!.update) as Updated<T>[];
}

/** `row`'s values of `names`, in that order; a value the row lacks is null (a nullable field never written). */
export function pickColumns<R extends object, K extends keyof R>(row: R, names: readonly K[]): Pick<R, K> {
  const out = {} as Pick<R, K>;
  for (const name of names) out[name] = row[name] ?? (null as R[K]);
  return out;
}

/** Reads a stored value back into what the API shows (JSON text, 0/1). */
export type Decode = (value: unknown) => unknown;

/** A row as the API shows it: the fields `names` of its columns, in that order, those in `decode` decoded. */
export function rowToJson<J>(row: object, names: readonly string[], decode: Readonly<Record<string, Decode>> = {}): J {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = (row as Record<string, unknown>)[name] ?? null;
    out[name] = decode[name] ? decode[name](value) : value;
  }
  return out as J;
}

/** How a value is stored: arrays and objects as JSON text, booleans as 0/1, undefined as NULL. */
function stored(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "object" && !ArrayBuffer.isView(value)) return JSON.stringify(value);
  return value as SQLInputValue;
}

/** INSERT INTO `table` one row of `values`, a column for each key (the statement is prepared once per set of keys). */
export function insertRow(db: Database, table: string, values: Readonly<Record<string, unknown>>): StatementResultingChanges {
  const names = Object.keys(values);
  return stmt(db, `INSERT INTO ${table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`).run(...names.map((n) => stored(values[n])));
}
