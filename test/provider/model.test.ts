// Typed models: decoding by the schema in each mode, and the types a resource sees (checked by tsc).
import { describe, expect, it } from "vitest";
import { Diagnostics } from "../../provider/framework/diagnostics.js";
import { decodeModel, type Model, type Planned, type Stored } from "../../provider/framework/model.js";
import { defineSchema } from "../../provider/framework/schema.js";
import { BigNumber, UNKNOWN, Unknown, type ObjectValue } from "../../provider/values/cty.js";

const schema = defineSchema({
  description: "a thing",
  attributes: {
    id: { type: "string", computed: true, description: "" },
    name: { type: "string", required: true, description: "" },
    size: { type: "number", optional: true, description: "" },
    tags: { type: ["set", "string"], optional: true, description: "" },
    labels: { type: ["map", "string"], optional: true, description: "" },
  },
  blocks: {
    rule: {
      nesting: "list",
      block: { attributes: { port: { type: "number", required: true, description: "" }, note: { type: "string", computed: true, description: "" } } },
    },
    owner: { nesting: "single", block: { attributes: { email: { type: "string", required: true, description: "" } } } },
  },
});

// Compile-time: the model's types come from the declaration.
type M = Model<typeof schema>;
const typed: M = { id: null, name: "n", size: null, tags: ["a"], labels: { k: "v" }, rule: [{ port: 1, note: null }], owner: null };
const name: string = typed.name;
const size: number | null = typed.size;
const port: number = typed.rule[0]!.port;
const stored: Stored<typeof schema> = { ...typed, name: null };
const planned: Planned<M> = { ...typed, name: UNKNOWN, rule: [{ port: UNKNOWN, note: null }] };
void [name, size, port, stored, planned];

const value = (over: ObjectValue = {}): ObjectValue => ({ id: null, name: "n", size: null, tags: null, labels: null, rule: [], owner: null, ...over });

describe("decodeModel", () => {
  it("known: unknown values become null at every depth, the rest is left as it is (no copy)", () => {
    const diags = new Diagnostics();
    const v = value({ id: UNKNOWN, rule: [{ port: 80, note: UNKNOWN }], tags: ["a", "b"] });
    const m = decodeModel(schema, v, "known", diags)!;
    expect(diags.items).toEqual([]);
    expect(m).toEqual(value({ rule: [{ port: 80, note: null }], tags: ["a", "b"] }));
    expect(m.tags).toBe(v.tags);
    const untouched = value();
    expect(decodeModel(schema, untouched, "known", diags)).toBe(untouched);
  });

  it("known: null in a required attribute, a null element, a number beyond float64: one diagnostic each, at its path", () => {
    const diags = new Diagnostics();
    const m = decodeModel(
      schema,
      value({ name: null, tags: ["a", null], size: new BigNumber("1.00000000000000000000001"), rule: [{ port: null, note: null }] }),
      "known",
      diags,
    );
    expect(m).toBeUndefined();
    expect(diags.items.map((d) => [d.summary, d.path])).toEqual([
      ["Value Conversion Error", [{ attribute: "name" }]],
      ["Value Conversion Error", [{ attribute: "size" }]],
      ["Value Conversion Error", [{ attribute: "tags" }, { index: 1 }]],
      ["Value Conversion Error", [{ attribute: "rule" }, { index: 0 }, { attribute: "port" }]],
    ]);
  });

  it("stored: required attributes may be null (an imported object)", () => {
    const diags = new Diagnostics();
    expect(decodeModel(schema, value({ id: "t_1", name: null }), "stored", diags)).toEqual(value({ id: "t_1", name: null }));
    expect(diags.items).toEqual([]);
  });

  it("planned: unknown values stay, byte for byte", () => {
    const refined = new Unknown(Uint8Array.of(0xc7, 0x03, 0x0c, 0x81, 0x01, 0xc3));
    const diags = new Diagnostics();
    const m = decodeModel(schema, value({ name: refined, labels: { a: UNKNOWN } }), "planned", diags)!;
    expect(m.name).toBe(refined);
    expect((m.labels as ObjectValue).a).toBe(UNKNOWN);
  });

  it("fills attributes and blocks missing from the value", () => {
    const diags = new Diagnostics();
    expect(decodeModel(schema, { name: "n" }, "known", diags)).toEqual(value());
  });
});
