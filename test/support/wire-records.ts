// Records as the service answers them, for tests that build their own: the fields given, and every other field
// of the resource's table (wire/generated/fields.ts) null where the wire allows it, else a value of its type. A
// field the wire gains is then in every such record without an edit to the tests that make them.
import type { FieldTable } from "../../wire/generated/fields.js";

/** The fields of `table` every answer shows, in its order: what a record of it has, no more. */
export function shownNames(table: FieldTable): string[] {
  return Object.keys(table).filter((name) => table[name]!.read === true);
}

/** A record of `table` with the values `given`. */
export function recordOf<R>(table: FieldTable, given: Partial<R>): R {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(table)) {
    if (field.read !== true) continue;
    if (name in given) out[name] = (given as Record<string, unknown>)[name];
    else if (field.nullable) out[name] = null;
    else out[name] = field.values?.[0] ?? { string: "", integer: 0, number: 0, boolean: false, array: [], object: {} }[field.type];
  }
  return out as R;
}
