// Semantic equality (framework/semantic-equality.ts) of the values the service may store in another spelling,
// by the core's one rule (src/equivalence.ts), loaded with the API client only when two spellings differ.
import { loadClient } from "../load-core.js";
import type { Value } from "../values/cty.js";

/** `https://Blog.Example.org` and `https://blog.example.org/` (the core's sameUrl). */
export const sameUrl = async (a: Value, b: Value): Promise<boolean> => typeof a === "string" && typeof b === "string" && (await loadClient()).sameUrl(a, b);

/** `6.5` and `6.5.0` (the core's sameVersion). */
export const sameVersion = async (a: Value, b: Value): Promise<boolean> =>
  typeof a === "string" && typeof b === "string" && (await loadClient()).sameVersion(a, b);
