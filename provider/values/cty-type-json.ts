// A cty type in its JSON form (go-cty's Type.MarshalJSON), as a dynamic value carries it on the wire:
// read with every part checked, written as Go writes it (object attributes sorted by their UTF-8 bytes,
// Go's encoding/json escapes), so a dynamic value goes back to Terraform in the bytes it came in.
import { ValueError, byUtf8, type CtyType } from "./cty.js";

const PRIMITIVES = new Set(["string", "number", "bool", "dynamic"]);

/** Parses a type's JSON; a ValueError names what is wrong. */
export function typeFromJSON(text: string): CtyType {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ValueError(`dynamic value's type is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
  return check(json);
}

function check(json: unknown): CtyType {
  if (typeof json === "string" && PRIMITIVES.has(json)) return json as CtyType;
  if (Array.isArray(json)) {
    const [kind, inner] = json as unknown[];
    if ((kind === "list" || kind === "set" || kind === "map") && json.length === 2) return [kind, check(inner)];
    if (kind === "tuple" && json.length === 2 && Array.isArray(inner)) return ["tuple", inner.map(check)];
    if (kind === "object" && json.length === 2 && inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
      const attrs: Record<string, CtyType> = {};
      for (const [name, t] of Object.entries(inner))
        Object.defineProperty(attrs, name, { value: check(t), enumerable: true, writable: true, configurable: true });
      return ["object", attrs];
    }
  }
  // Optional attributes (a third element of "object") belong to type constraints, never to a value's type.
  throw new ValueError(`dynamic value's type ${JSON.stringify(json)} is not a cty type`);
}

/** The type's JSON as go-cty writes it. */
export function typeToJSON(type: CtyType): string {
  if (typeof type === "string") return `"${type}"`;
  switch (type[0]) {
    case "list":
    case "set":
    case "map":
      return `["${type[0]}",${typeToJSON(type[1])}]`;
    case "tuple":
      return `["tuple",[${type[1].map(typeToJSON).join(",")}]]`;
    case "object": {
      const attrs = type[1];
      const names = Object.keys(attrs).sort(byUtf8);
      return `["object",{${names.map((n) => `${goString(n)}:${typeToJSON(attrs[n]!)}`).join(",")}}]`;
    }
  }
}

/** A JSON string as Go's encoding/json writes it: <, > and & escaped for HTML, U+2028 and U+2029 for
 * JavaScript, and a lone surrogate (invalid UTF-8 to Go) as U+FFFD. */
function goString(s: string): string {
  return JSON.stringify(s)
    .replace(/\\u(d[89a-f][0-9a-f]{2})/g, "\\ufffd")
    .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
