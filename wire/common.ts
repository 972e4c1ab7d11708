// Schema pieces every resource shares: nullable values, path and page parameters, and the error
// bodies of docs/design.md section 2 (declared in /openapi.json and generated into src/generated/wire.ts).
import { Type, type TSchema } from "typebox";

/** `T | null`. */
export const Nullable = <T extends TSchema>(t: T, options: { description?: string } = {}) => Type.Union([t, Type.Null()], options);

/** Path ids are plain strings in the schema: a wrong shape is a 404 from the handler, not a 400. */
export const IdParams = Type.Object({ id: Type.String() });
export const SiteParams = Type.Object({ site_id: Type.String() });
export const SiteItemParams = Type.Object({ site_id: Type.String(), id: Type.String() });

export const PageQuery = {
  page: Type.Optional(Type.String({ description: "1-based page number" })),
  per_page: Type.Optional(Type.String({ description: "Items per page (default 20, max 100)" })),
};

/**
 * Free text a person types (names, descriptions, comments, token names): no control characters (C0 including NUL,
 * tab and newline, DEL, C1), no line or paragraph separator, and nothing that changes how text reads without
 * showing itself: the bidirectional controls (U+061C, U+200E-F, U+202A-E, U+2066-9: "Trojan Source"), invisible
 * format characters (U+180E, U+200B, U+2060-4, U+206A-F, U+FEFF, U+FFF9-B), tag characters (U+E0000-E007F) and
 * lone surrogates (with the `u` flag only an unpaired half matches U+D800-U+DFFF). ZWNJ and ZWJ are allowed: some
 * scripts and emoji sequences need them. The policy and its reasons: docs/design.md, "Input: control and invisible
 * characters"; common/sanitize.ts escapes the same set on output, and a test holds the two equal. Service data
 * ends up in logs, terminals, CI output and generated code, where a newline forges a line (`::warning::` in a
 * GitHub workflow) and an RLO makes a name read backwards. validation.ts turns a miss into "must not contain
 * control characters". An ECMA-262 pattern with the `u` flag, as Ajv and /openapi.json read it.
 */
export const TEXT_PATTERN =
  "^[^\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u180E\\u200B\\u200E\\u200F\\u2028-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uD800-\\uDFFF\\uFEFF\\uFFF9-\\uFFFB\\u{E0000}-\\u{E007F}]*$";
const TEXT_RE = new RegExp(TEXT_PATTERN, "u");
/** What TEXT_PATTERN refuses, plus ZWNJ and ZWJ (U+200C, U+200D): nothing invisible belongs in a URL. */
const URL_REFUSED =
  /[\u0000-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uD800-\uDFFF\uFEFF\uFFF9-\uFFFB\u{E0000}-\u{E007F}]/u;
export const CONTROL_CHARACTERS = "must not contain control characters";

/**
 * The one check of free text and URLs wherever they come from (API schemas use TEXT_PATTERN, the same rule;
 * services call this for what the console and seeds pass them): true when `value` holds a character the
 * service refuses (for a URL, the characters of TEXT_PATTERN and ZWNJ and ZWJ).
 */
export function hasControlCharacters(value: string, kind: "text" | "url" = "text"): boolean {
  return kind === "url" ? URL_REFUSED.test(value) : !TEXT_RE.test(value);
}

export const Text = (options: { minLength?: number; maxLength?: number; description?: string } = {}) => Type.String({ ...options, pattern: TEXT_PATTERN });

export const NoContent = Type.Null({ description: "No content" });

/** Every error response: 400, 401, 403, 404, 409, 413, 415, 429, 5xx. */
export const ErrorSchema = Type.Object({
  error: Type.String({ description: "What went wrong, one sentence" }),
});

/** 422: `Validation failed: Name can't be blank` with the messages per field (or only `error`, for a rule). */
export const ValidationErrorSchema = Type.Object({
  error: Type.String({ description: "`Validation failed: ...` (field errors), or the rule that was broken" }),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Messages per field, e.g. `{"name": ["can\'t be blank"]}`' })),
});

/** 409 of the resumable upload: where the upload continues. */
export const UploadConflictSchema = Type.Object({
  error: Type.String(),
  received_bytes: Type.Optional(Type.Integer({ description: "Bytes the service holds; resume from this offset" })),
});
