// What the toolkit needs of each response, checked where the response arrives: a record without a field the
// toolkit uses, or with it of another type, fails there with an UnexpectedResponseError naming the endpoint and
// the field, never as a TypeError somewhere later. Only the fields the toolkit reads are listed (a site's, all
// that the spec shows; of the records whose fields the spec leaves unshown, the id and the state that waiters
// follow); everything else a server sends passes through untouched.

import { UnexpectedResponseError } from "./errors.js";

/** The JSON type a needed field must have. */
export type FieldKind = "string" | "number" | "boolean" | "object" | "array" | "string[]";

/** A record the toolkit reads: its name in messages and the fields it needs. */
export interface RecordShape {
  /** `site`, `snapshot`, ...: how messages name one record. */
  readonly noun: string;
  readonly fields: Readonly<Record<string, FieldKind>>;
}

const idAndStatus = { id: "string", status: "string" } as const;

/** The shapes of the records the resources return. */
export const SHAPES = {
  site: { noun: "site", fields: { id: "string", name: "string", url: "string", status: "string", wp_version: "string", php_version: "string" } },
  snapshot: { noun: "snapshot", fields: idAndStatus },
  upgradePipeline: { noun: "upgrade pipeline", fields: idAndStatus },
  vulnerabilityRecord: { noun: "vulnerability record", fields: idAndStatus },
  healthCheck: { noun: "health check", fields: idAndStatus },
  activityLog: { noun: "activity log entry", fields: { id: "string" } },
  webhookEndpoint: { noun: "webhook endpoint", fields: { id: "string", url: "string" } },
  account: { noun: "account", fields: { id: "string" } },
  user: { noun: "user", fields: { id: "string" } },
  jwtTokens: { noun: "token pair", fields: { access_token: "string", refresh_token: "string" } },
  apiToken: { noun: "API token login", fields: { token: "string" } },
} as const satisfies Record<string, RecordShape>;

/** Where a response came from, for messages: `GET /api/v1/sites`, and its request id. */
export interface ResponseOrigin {
  endpoint: string;
  requestId?: string | undefined;
}

/** Throws UnexpectedResponseError unless `value` is an object with every field of `shape`, each of its kind. */
export function checkRecord(shape: RecordShape, value: unknown, origin: ResponseOrigin, index?: number): void {
  const at = index === undefined ? `the ${shape.noun}` : `${shape.noun} [${index}] of the page`;
  const prefix = index === undefined ? "" : `[${index}].`;
  if (!isObject(value)) {
    throw new UnexpectedResponseError(
      origin.endpoint,
      index === undefined ? undefined : `[${index}]`,
      `${at} is ${describe(value)}, not an object`,
      origin.requestId,
    );
  }
  for (const [name, kind] of fieldsOf(shape)) {
    const field = value[name];
    if (isKind(field, kind)) continue;
    const problem =
      field === undefined ? `${at} has no "${name}" (expected ${KIND_TEXT[kind]})` : `${at} has "${name}" as ${describe(field)} (expected ${KIND_TEXT[kind]})`;
    throw new UnexpectedResponseError(origin.endpoint, prefix + name, problem, origin.requestId);
  }
}

/** Throws UnexpectedResponseError unless `value` is a JSON array whose items all have `shape`. */
export function checkList(shape: RecordShape | undefined, value: unknown, origin: ResponseOrigin): asserts value is unknown[] {
  if (!Array.isArray(value)) {
    throw new UnexpectedResponseError(
      origin.endpoint,
      undefined,
      `expected a JSON array of ${shape?.noun ?? "record"}s, got ${describe(value)}`,
      origin.requestId,
    );
  }
  if (shape) for (let i = 0; i < value.length; i++) checkRecord(shape, value[i], origin, i);
}

/** Each shape's fields as entries, made once: a listing checks every item. */
const ENTRIES = new WeakMap<RecordShape, readonly (readonly [string, FieldKind])[]>();
function fieldsOf(shape: RecordShape): readonly (readonly [string, FieldKind])[] {
  let entries = ENTRIES.get(shape);
  if (!entries) ENTRIES.set(shape, (entries = Object.entries(shape.fields)));
  return entries;
}

const KIND_TEXT: Record<FieldKind, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  "string[]": "an array of strings",
};

function isKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case "string":
    case "number":
    case "boolean":
      return typeof value === kind;
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "string[]":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a value is, in a few words that never quote it whole (it may be long, or hold what should not be logged). */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing (an empty body)";
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : `an array of ${value.length}`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 5).map((k) => JSON.stringify(k.slice(0, 40)));
    return keys.length ? `an object with ${shown.join(", ")}${keys.length > 5 ? ", ..." : ""}` : "an empty object";
  }
  if (typeof value === "string") return "a string";
  return `${typeof value === "number" ? "a number" : typeof value === "boolean" ? "a boolean" : typeof value}`;
}
