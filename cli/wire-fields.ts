// A resource's fields as the commands show and take them, derived from its field table (wire/generated/fields.ts):
// the names `--json=FIELDS` takes, the `key: value` rows of one record, the flags of create and update and the
// request body they make. A command names only where it differs from the table (a flag's own name, a label, a
// check of the value) and what it leaves out, with why: a field the wire gains is shown, selectable and settable
// without an edit here (test/wire/coverage.test.ts fails on a field neither used nor left out).
import type { FieldTable, WireField } from "../wire/generated/fields.js";
import { flagBool, flagList, flagString, type FlagSpec, type Parsed } from "./args.js";
import { UsageError } from "./exit-codes.js";
import type { Column } from "./output/table.js";

/** How a command differs from the table for one field. */
interface FieldUse {
  /** Its label in one record's rows; default: the name less `_at` and `_version`, `_` as a space. */
  label?: string;
  /** Its header as a table column; default: the label in capitals. */
  column?: string;
  /** Shows the value in rows and columns; default: arrays comma-separated, objects as JSON. */
  show?: (value: unknown) => string | number | boolean | null | undefined;
  /** The flag that sets it; default: its name, `_` as `-`. */
  flag?: string;
  /** The flag's one-letter form. */
  short?: string;
  /** The flag's value placeholder; default: the flag's name in capitals. */
  value?: string;
  /** The flag's help; default: the field's description as a phrase. */
  description?: string;
  /** Checks a flag's value (a UsageError names the flag) and returns what is sent. */
  check?: (flag: string, value: string) => string;
  /** A flag of another kind than the field's (`--disabled` for `status`), and the value it sends (undefined: none). */
  set?: { flag: FlagSpec; value: (parsed: Parsed) => unknown };
}

/** A field a command does not use, and why. */
interface LeftOut {
  leftOut: string;
}

export type FieldUses<T extends FieldTable> = { readonly [K in keyof T]?: FieldUse | LeftOut };

type Row = [string, string | number | boolean | null | undefined];

/** What commands derive from one resource's table. */
export interface ResourceFields {
  /** What `--json=FIELDS` may select: every field answers show (also those only a create's answer shows), in the table's order. */
  readonly jsonFields: readonly string[];
  /** The fields a command leaves out, with why. */
  readonly leftOut: Readonly<Record<string, string>>;
  /** One record as `key: value` rows (human output). */
  rows(record: object): Row[];
  /** Table columns of these fields, in this order (a listing shows those that fit a terminal). */
  columns<R extends object>(names: readonly string[]): Column<R>[];
  /** The flags of create (the fields it takes) or update. */
  flags(request: "create" | "update"): FlagSpec[];
  /** The request body from the parsed flags: the fields given; create's required ones refused when missing. */
  body(parsed: Parsed, request: "create" | "update"): Record<string, unknown>;
}

/** What `--json=FIELDS` takes of a resource: every field answers show (those only a create's answer shows too), in
 * the table's order. */
export function jsonFieldsOf(table: FieldTable): string[] {
  return Object.keys(table).filter((name) => table[name]!.read !== false);
}

const phrase = (text: string): string => {
  const plain = text.replace(/`/g, "").replace(/\.$/, "");
  const first = plain.split(/[\s,;]/, 1)[0]!;
  return first.slice(1) === first.slice(1).toLowerCase() ? plain.charAt(0).toLowerCase() + plain.slice(1) : plain;
};

const labelOf = (name: string): string => name.replace(/_(at|version)$/, "").replace(/_/g, " ");

function showValue(value: unknown): string | number | boolean | null | undefined {
  if (Array.isArray(value)) return value.join(", ");
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return value as string | number | boolean | null | undefined;
}

function flagOf(name: string, field: WireField, use: FieldUse): FlagSpec {
  if (use.set) return use.set.flag;
  const flag = use.flag ?? name.replace(/_/g, "-");
  const description = use.description ?? phrase(field.description ?? name);
  const short = use.short ? { short: use.short } : {};
  if (field.type === "boolean") return { name: flag, ...short, type: "boolean", negatable: true, description };
  const spec: FlagSpec = { name: flag, ...short, type: "string", value: use.value ?? flag.toUpperCase(), description };
  if (field.type === "array") return { ...spec, multiple: true, description: use.description ?? `${description} (comma-separated)` };
  return field.values ? { ...spec, choices: field.values } : spec;
}

/** The fields of `table` as a command shows and takes them, with `uses` where it differs. */
export function resourceFields<T extends FieldTable>(table: T, uses: FieldUses<T> = {}): ResourceFields {
  const used = (name: string): FieldUse | undefined => {
    const use = uses[name as keyof T];
    return use && "leftOut" in use ? undefined : (use ?? {});
  };
  const names = Object.keys(table).filter((name) => used(name));
  const leftOut = Object.fromEntries(Object.entries(uses).flatMap(([name, use]) => (use && "leftOut" in use ? [[name, use.leftOut]] : [])));
  const takes = (request: "create" | "update") => names.filter((name) => (request === "create" ? table[name]!.create !== false : table[name]!.update));
  return {
    jsonFields: jsonFieldsOf(table),
    leftOut,
    rows: (record) =>
      names.flatMap((name): Row[] => {
        const use = used(name)!;
        const value = (record as Record<string, unknown>)[name];
        const shown = table[name]!.read === true || (table[name]!.read === "created" && value !== undefined);
        return shown ? [[use.label ?? labelOf(name), (use.show ?? showValue)(value)]] : [];
      }),
    columns: (names) =>
      names.map((name) => {
        const use = used(name) ?? {};
        return {
          header: use.column ?? (use.label ?? labelOf(name)).toUpperCase(),
          value: (r) => (use.show ?? showValue)((r as Record<string, unknown>)[name]),
        };
      }),
    flags: (request) => takes(request).map((name) => flagOf(name, table[name]!, used(name)!)),
    body(parsed, request) {
      const body: Record<string, unknown> = {};
      for (const name of takes(request)) {
        const field = table[name]!;
        const use = used(name)!;
        const flag = flagOf(name, field, use);
        let value: unknown;
        if (use.set) value = use.set.value(parsed);
        else if (flag.type === "boolean") value = flagBool(parsed, flag.name);
        else if (flag.multiple) {
          const list = flagList(parsed, flag.name).flatMap((v) =>
            v
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean),
          );
          value = list.length ? list : undefined;
        } else {
          const text = flagString(parsed, flag.name);
          value = text === undefined ? undefined : use.check ? use.check(flag.name, text) : field.type === "integer" ? integer(flag.name, text) : text;
        }
        if (value !== undefined) body[name] = value;
        else if (request === "create" && field.create === "required") throw new UsageError(`--${flag.name} is required`);
      }
      return body;
    },
  };
}

function integer(flag: string, text: string): number {
  if (!/^-?\d+$/.test(text.trim())) throw new UsageError(`--${flag} must be a whole number (got ${JSON.stringify(text)})`);
  return Number(text);
}
