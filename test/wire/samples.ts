// Values for test/wire/coverage.test.ts: what it sends for each field a request takes. A field's value comes from
// its wire type (a string, a number, one of its values, a list of one string), or, where the service checks more
// than the type (a URL, a version), from SAMPLES by name: the first request's and the second, different one.
import type { FieldTable } from "../../wire/generated/fields.js";

type Samples = Readonly<Record<string, readonly [unknown, unknown]>>;

export const SAMPLES: Readonly<Record<"site" | "webhookEndpoint", Samples>> = {
  site: {
    url: ["https://coverage.example.com", "https://coverage-2.example.com"],
    wp_version: ["6.4", "6.5"],
    php_version: ["8.1", "8.2"],
  },
  webhookEndpoint: {
    url: ["https://hooks.example.com/coverage", "https://hooks.example.com/coverage-2"],
    enabled_events: [["site.created"], ["site.deleted"]],
  },
};

/** A value of field `name` of `table` for request `n` (0 or 1): from `samples`, else from its wire type. */
export function sampleValue(table: FieldTable, name: string, n: 0 | 1 = 0, samples: Samples = {}): unknown {
  if (name in samples) return samples[name]![n];
  const field = table[name]!;
  if (field.values) return field.values[n % field.values.length];
  switch (field.type) {
    case "integer":
    case "number":
      return n + 1;
    case "boolean":
      return n === 1;
    case "array":
      return [`sample ${n + 1}`];
    case "object":
      return { sample: n + 1 };
    default:
      return `sample ${n + 1}`;
  }
}
