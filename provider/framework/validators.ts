// Attribute validators. They run during `terraform validate`/plan, before any API call, and only on known,
// non-null values (unknown values are checked again once they are known, at apply).
import { isObject, type Value } from "../values/cty.js";
import type { AttributePath, Diagnostics } from "./diagnostics.js";

export interface Validator {
  /** Plain-language rule, used in the generated docs. */
  description: string;
  validate(value: Value, at: AttributePath, diags: Diagnostics): void;
}

const invalid = "Invalid Attribute Value";

export function stringLengthBetween(min: number, max: number): Validator {
  return {
    description: `a string of length between ${min} and ${max}`,
    validate(v, at, diags) {
      if (typeof v !== "string") return;
      const n = [...v].length;
      if (n < min || n > max) diags.error(invalid, `Attribute must be a string of length between ${min} and ${max}, got: ${n}.`, at);
    },
  };
}

export function stringMatches(pattern: RegExp, rule: string): Validator {
  return {
    description: rule,
    validate(v, at, diags) {
      if (typeof v === "string" && !pattern.test(v)) diags.error("Invalid Attribute Value Match", `Attribute ${rule}, got: ${JSON.stringify(v)}.`, at);
    },
  };
}

/**
 * URLs that are certainly absolute http(s) URLs with a host (lowercase DNS name, no port, plain path): most
 * configured URLs. Checking them costs a fraction of `new URL()`, which every ValidateResourceConfig of a
 * site would otherwise pay; anything else is parsed.
 */
const PLAIN_HTTP_URL = /^(https?):\/\/[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?:\/[\w.~!$&'()*+,;=:@%/-]*)?$/;

export function httpUrl(options: { httpsOnly?: boolean } = {}): Validator {
  const schemes = options.httpsOnly ? ["https:"] : ["http:", "https:"];
  return {
    description: options.httpsOnly ? "an absolute https URL" : "an absolute http or https URL",
    validate(v, at, diags) {
      if (typeof v !== "string") return;
      const plain = PLAIN_HTTP_URL.exec(v);
      let ok = plain !== null && schemes.includes(`${plain[1]}:`);
      if (!plain) {
        try {
          const u = new URL(v);
          ok = schemes.includes(u.protocol) && u.hostname !== "";
        } catch {
          ok = false;
        }
      }
      if (!ok) diags.error(invalid, `Attribute must be ${this.description}, got: ${JSON.stringify(v)}.`, at);
    },
  };
}

export function oneOf(...allowed: string[]): Validator {
  return {
    description: `one of ${allowed.map((a) => `\`${a}\``).join(", ")}`,
    validate(v, at, diags) {
      if (typeof v === "string" && !allowed.includes(v))
        diags.error(invalid, `Attribute value must be one of: ${allowed.map((a) => JSON.stringify(a)).join(", ")}; got: ${JSON.stringify(v)}.`, at);
    },
  };
}

export function intBetween(min: number, max: number): Validator {
  return {
    description: `a whole number between ${min} and ${max}`,
    validate(v, at, diags) {
      if (typeof v !== "number") return;
      if (!Number.isInteger(v) || v < min || v > max) diags.error(invalid, `Attribute must be a whole number between ${min} and ${max}, got: ${v}.`, at);
    },
  };
}

export function sizeAtLeast(min: number): Validator {
  return {
    description: `a collection of at least ${min} element${min === 1 ? "" : "s"}`,
    validate(v, at, diags) {
      if (Array.isArray(v) && v.length < min)
        diags.error("Invalid Attribute Value", `Attribute must contain at least ${min} element${min === 1 ? "" : "s"}, got: ${v.length}.`, at);
    },
  };
}

/** Runs `inner` on each known element of a list or set. */
export function eachElement(inner: Validator): Validator {
  return {
    description: `a collection whose elements are each ${inner.description}`,
    validate(v, at, diags) {
      if (!Array.isArray(v)) return;
      v.forEach((x, i) => {
        if (x !== null && typeof x !== "object") inner.validate(x, [...at, { index: i }], diags);
        else if (isObject(x)) inner.validate(x, [...at, { index: i }], diags);
      });
    },
  };
}
