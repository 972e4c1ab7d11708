// provider/framework/wire/to-proto.ts alone: framework values as tfplugin6 messages, each checked as the
// protocol's codec (protocol/protobuf.ts with tfplugin6.proto) encodes and decodes it.
import { describe, expect, it } from "vitest";
import { path } from "../../provider/framework/diagnostics.js";
import { defineSchema } from "../../provider/framework/schema.js";
import { attributePath, diagnostics, dynamicValue, functionSignature, privateBytes, schema } from "../../provider/framework/wire/to-proto.js";
import { loadProtocol } from "../../provider/protocol/descriptor.js";
import { decodeMsgpack } from "../../provider/values/cty-msgpack.js";

const proto = loadProtocol();
/** The message as the wire carries it: encoded, then decoded again. */
const wire = (type: string, msg: object) => proto.decode(type, proto.encode(type, msg as Record<string, unknown>));

describe("to-proto", () => {
  it("dynamicValue: msgpack of the value by its type", () => {
    const dv = dynamicValue(["list", "string"], ["a", "b"]);
    expect(decodeMsgpack(["list", "string"], dv.msgpack!)).toEqual(["a", "b"]);
    expect(dv.json).toBeUndefined();
  });

  it("attributePath: one step per attribute, map key or list index", () => {
    expect(attributePath(path("rules", 2, { key: "k" }, "port"))).toEqual({
      steps: [{ attribute_name: "rules" }, { element_key_int: 2 }, { element_key_string: "k" }, { attribute_name: "port" }],
    });
  });

  it("diagnostics: severity by number, detail never missing, an attribute only with a path", () => {
    const out = diagnostics([
      { severity: "error", summary: "bad", detail: "why", path: path("name") },
      { severity: "warning", summary: "careful" },
      { severity: "error", summary: "empty path", path: [] },
    ]);
    expect(out).toEqual([
      { severity: 1, summary: "bad", detail: "why", attribute: { steps: [{ attribute_name: "name" }] } },
      { severity: 2, summary: "careful", detail: "" },
      { severity: 1, summary: "empty path", detail: "" },
    ]);
    expect(wire("tfplugin6.Diagnostic", out[0]!)).toMatchObject({ severity: 1, summary: "bad", attribute: { steps: [{ attribute_name: "name" }] } });
  });

  it("schema: attributes by code point, their flags, nested blocks with their nesting, the version throughout", () => {
    const s = schema(
      defineSchema({
        description: "a thing",
        version: 2,
        attributes: {
          name: { type: "string", required: true, description: "Name." },
          Zed: { type: "bool", optional: true, computed: true, description: "Z.", sensitive: true },
          id: { type: "string", computed: true, description: "Id.", deprecationMessage: "gone" },
        },
        blocks: { rule: { nesting: "list", maxItems: 3, block: { attributes: { port: { type: "number", required: true, description: "Port." } } } } },
      }),
    );
    const block = s.block as { version: number; description_kind: number; attributes: Record<string, unknown>[]; block_types: Record<string, unknown>[] };
    expect(s.version).toBe(2);
    expect(block.description_kind).toBe(1);
    expect(block.attributes.map((a) => a.name)).toEqual(["Zed", "id", "name"]);
    expect(block.attributes[0]).toMatchObject({ type: Buffer.from('"bool"'), optional: true, computed: true, required: false, sensitive: true });
    expect(block.attributes[1]).toMatchObject({ computed: true, deprecated: true });
    expect(block.block_types).toMatchObject([{ type_name: "rule", nesting: 2, min_items: 0, max_items: 3, block: { version: 2 } }]);
    expect(wire("tfplugin6.Schema", s)).toMatchObject({ version: 2, block: { attributes: [{ name: "Zed" }, { name: "id" }, { name: "name" }] } });
  });

  it("privateBytes: JSON of the object, no bytes for nothing to keep", () => {
    expect(privateBytes(undefined)).toHaveLength(0);
    expect(privateBytes({})).toHaveLength(0);
    expect(Buffer.from(privateBytes({ updated_at: "t" })).toString()).toBe('{"updated_at":"t"}');
  });

  it("functionSignature: typed parameters that take neither null nor unknown, the return type, markdown text", () => {
    const sig = functionSignature({
      name: "shard",
      summary: "S.",
      description: "D.",
      parameters: [{ name: "id", type: "string", description: "The id." }],
      returns: "number",
      run: () => 1,
    });
    expect(sig).toEqual({
      parameters: [
        { name: "id", type: Buffer.from('"string"'), allow_null_value: false, allow_unknown_values: false, description: "The id.", description_kind: 1 },
      ],
      return: { type: Buffer.from('"number"') },
      summary: "S.",
      description: "D.",
      description_kind: 1,
    });
    expect(wire("tfplugin6.Function", sig)).toMatchObject({ summary: "S.", parameters: [{ name: "id" }] });
  });
});
