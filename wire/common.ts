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
 * Free text a person types (names, descriptions, comments): no control characters (C0 including NUL, tab and
 * newline, DEL, C1) and no Unicode line or paragraph separator. Service data ends up in logs, terminals and
 * CI output; a newline in a site name could forge a line there (`::warning::` in a GitHub workflow).
 * validation.ts turns a miss into "must not contain control characters".
 */
export const TEXT_PATTERN = "^[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029]*$";
const TEXT_RE = new RegExp(TEXT_PATTERN, "u");
/** What TEXT_PATTERN refuses, plus the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069), which make a URL read differently from what it is. */
const URL_REFUSED = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
export const CONTROL_CHARACTERS = "must not contain control characters";

/**
 * The one check of free text and URLs wherever they come from (API schemas use TEXT_PATTERN, the same rule;
 * services call this for what the console and seeds pass them): true when `value` holds a character the
 * service refuses.
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
