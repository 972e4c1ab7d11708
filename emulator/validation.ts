// Turns Ajv's schema errors into Rails-style field messages ("can't be blank", "is invalid"), so
// schema validation and hand-written rules produce the same 422 shape.
import type { FieldErrors } from "./errors.js";
import { TEXT_PATTERN } from "../wire/common.js";

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function fieldOf(e: AjvError): string {
  const path = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (e.keyword === "required") return [path, String(e.params.missingProperty)].filter(Boolean).join(".");
  return path || "base";
}

function messageOf(e: AjvError): string {
  switch (e.keyword) {
    case "required":
      return "can't be blank";
    case "minLength":
      return e.params.limit === 1 ? "can't be blank" : `is too short (minimum is ${String(e.params.limit)} characters)`;
    case "maxLength":
      return `is too long (maximum is ${String(e.params.limit)} characters)`;
    case "minItems":
      return e.params.limit === 1 ? "can't be blank" : `is too short (minimum is ${String(e.params.limit)} items)`;
    case "maxItems":
      return `is too long (maximum is ${String(e.params.limit)} items)`;
    case "enum":
      return "is not included in the list";
    case "type":
      return `must be ${/^[aeiou]/.test(String(e.params.type)) ? "an" : "a"} ${String(e.params.type)}`;
    case "minimum":
    case "maximum":
      return `must be ${e.keyword === "minimum" ? "greater than or equal to" : "less than or equal to"} ${String(e.params.limit)}`;
    case "pattern":
      return e.params.pattern === TEXT_PATTERN ? "must not contain control characters" : "is invalid";
    case "uniqueItems":
      return "must not contain duplicates";
    case "anyOf":
    case "oneOf":
      return "is invalid";
    default:
      return "is invalid";
  }
}

export function fieldErrorsFromAjv(errors: AjvError[]): FieldErrors {
  const out: FieldErrors = {};
  // anyOf reports every branch's failure too; keep the branch errors only when nothing else matched.
  const specific = errors.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf");
  let useful = specific.length ? specific : errors;
  // A value of the right type for one branch of a union (a string for `string | null`) that broke that
  // branch's rule: its rule is the news, not that it is not the other branch's type.
  const ruled = new Set(useful.filter((e) => e.keyword !== "type").map((e) => e.instancePath));
  useful = useful.filter((e) => e.keyword !== "type" || !ruled.has(e.instancePath));
  for (const e of useful) {
    const field = fieldOf(e);
    const msg = messageOf(e);
    const list = (out[field] ??= []);
    if (!list.includes(msg)) list.push(msg);
  }
  return out;
}
