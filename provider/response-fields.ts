// Fields of an API answer that the provider maps into state and the core does not check (the core checks a site's
// id, name, url, status and versions, a webhook endpoint's id and url: src/response-shapes.ts). Each is checked
// where it is read, by the core's own rule (checkRecord), so that a field left out or sent with another type is a
// diagnostic naming the endpoint and the field, never a TypeError. Where a value Terraform already has can stand
// in (the configured one at create and update, the prior state's at a refresh) it is kept, with one warning per
// field; where none can, the field is an error, or null with a warning for a field that only informs (a time).
import type * as Core from "../src/index.js";
import type { FieldKind, RecordShape } from "../src/index.js";
import { path, type Diagnostics } from "./framework/diagnostics.js";

type KindValue<K extends FieldKind> = K extends "string"
  ? string
  : K extends "boolean"
    ? boolean
    : K extends "number"
      ? number
      : K extends "string[]"
        ? string[]
        : K extends "array"
          ? unknown[]
          : Record<string, unknown>;

/** One answer: the record, the request it answered (`GET /api/v1/sites/site_x`) and what it is ("site"). */
export interface Answer {
  record: object;
  endpoint: string;
  noun: string;
}

export interface FieldRule<T> {
  /** The attribute the field fills, for the diagnostic's path; default: the field's name. */
  attribute?: string;
  /** JSON null is one of the field's values (a description never set). */
  nullable?: boolean;
  /** What Terraform already has for the attribute; undefined when nothing (null too, unless nullable). */
  standIn?: T | null;
  /** Without a stand-in: null in state with a warning, not an error (a field that only informs). */
  orNull?: boolean;
}

/** The one-field shapes take() checks with, made once each: the core keeps what it derives from a shape per shape
 * object (src/response-shapes.ts), so a new object per field and answer would redo that at every answer. */
const SHAPES = new Map<string, RecordShape>();
function shapeOf(noun: string, field: string, kind: FieldKind): RecordShape {
  const key = `${noun}\n${field}\n${kind}`;
  let shape = SHAPES.get(key);
  if (!shape) SHAPES.set(key, (shape = { noun, fields: { [field]: kind } }));
  return shape;
}

export class ResponseFields {
  /** Fields already warned about: one warning per field and operation, however many answers lack it. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly core: Pick<typeof Core, "checkRecord" | "UnexpectedResponseError">,
    private readonly diags: Diagnostics,
    /** What a stand-in is, in messages: "the configured value", "the value in state". */
    private readonly standInIs = "the value Terraform has",
  ) {}

  /**
   * `answer.record[field]` when it is of `kind` (or null when nullable). Otherwise the rule's stand-in, with a
   * warning; or null with a warning (`orNull`); or undefined after an error diagnostic.
   */
  take<K extends FieldKind>(answer: Answer, field: string, kind: K, rule: FieldRule<KindValue<K>> = {}): KindValue<K> | null | undefined {
    const value = (answer.record as Record<string, unknown>)[field];
    if (rule.nullable && value === null) return null;
    let problem: string;
    try {
      this.core.checkRecord(shapeOf(answer.noun, field, kind), answer.record, { endpoint: answer.endpoint });
      return value as KindValue<K>;
    } catch (err) {
      if (!(err instanceof this.core.UnexpectedResponseError)) throw err;
      problem = err.message.replace(/\.?$/, ".");
    }
    const attribute = rule.attribute ?? field;
    const at = path(attribute);
    const standIn = rule.standIn === undefined || (rule.standIn === null && !rule.nullable) ? undefined : { value: rule.standIn };
    if (standIn) {
      this.warnOnce(
        field,
        `Kept ${this.standInIs} of ${attribute}: SiteOps's answer has no usable "${field}"`,
        `${problem} The state keeps ${this.standInIs}; a change made to ${attribute} outside Terraform cannot show while the service answers this way.`,
        at,
      );
      return standIn.value;
    }
    if (rule.orNull) {
      this.warnOnce(field, `${attribute} is null: SiteOps's answer has no usable "${field}"`, problem, at);
      return null;
    }
    this.diags.error(
      `SiteOps's answer has no usable "${field}"`,
      `${problem} The provider needs it for ${attribute}, and has no configured value or state to keep in its place.`,
      at,
    );
    return undefined;
  }

  /** A field that only informs (a time, a display name): its value, or null (absent, null or of another type;
   * the last two with a warning). */
  informs<K extends FieldKind>(answer: Answer, field: string, kind: K): KindValue<K> | null {
    return this.take(answer, field, kind, { nullable: true, orNull: true }) ?? null;
  }

  private warnOnce(field: string, summary: string, detail: string, at: ReturnType<typeof path>): void {
    if (this.warned.has(field)) return;
    this.warned.add(field);
    this.diags.warning(summary, detail, at);
  }
}
