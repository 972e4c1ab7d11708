// A table's wire columns, read from the field tables (wire/generated/fields.ts): a field's column bears the field's
// name, so what a row shows in the API, what a create inserts and what an update may set come from the wire, not
// from lists kept in each store. A column named otherwise is mapped by its store, beside these.
import type { FieldTable } from "../../wire/generated/fields.js";

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
