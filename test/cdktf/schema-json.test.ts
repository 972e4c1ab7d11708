// provider/schema-json.ts on schema features the siteops provider does not use yet (nested blocks, deprecation,
// object types), in the shape of Terraform's jsonprovider package: omitempty fields, sorted map keys. The
// provider's own document is compared byte for byte with `terraform providers schema -json` in deploy.test.ts.
import { describe, expect, it } from "vitest";
import { PROVIDER_ADDRESS, providerSchemasJson, providerSchemasJsonText, type SchemaSource } from "../../provider/schema-json.js";

const source: SchemaSource = {
  schema: { description: "", attributes: {} },
  resources: [
    {
      typeName: "demo_thing",
      schema: {
        description: "A thing.",
        version: 2,
        attributes: {
          zeta: { type: "string", optional: true, description: "Last.", deprecationMessage: "Use alpha." },
          alpha: { type: ["object", { b: "number", a: ["list", "string"] }], required: true, description: "First." },
        },
        blocks: {
          rule: { nesting: "list", minItems: 1, maxItems: 3, block: { attributes: { name: { type: "string", required: true, description: "Rule name." } } } },
        },
      },
    },
  ],
  dataSources: [],
};

describe("providerSchemasJson", () => {
  it("writes what Terraform writes: sorted keys, only true flags, nested blocks, the schema version", () => {
    expect(providerSchemasJson(source)).toEqual({
      format_version: "1.0",
      provider_schemas: {
        [PROVIDER_ADDRESS]: {
          provider: { version: 0, block: { description_kind: "markdown" } },
          resource_schemas: {
            demo_thing: {
              version: 2,
              block: {
                attributes: {
                  alpha: { type: ["object", { a: ["list", "string"], b: "number" }], description: "First.", description_kind: "markdown", required: true },
                  zeta: { type: "string", description: "Last.", description_kind: "markdown", deprecated: true, optional: true },
                },
                block_types: {
                  rule: {
                    nesting_mode: "list",
                    block: {
                      attributes: { name: { type: "string", description: "Rule name.", description_kind: "markdown", required: true } },
                      description_kind: "markdown",
                    },
                    min_items: 1,
                    max_items: 3,
                  },
                },
                description: "A thing.",
                description_kind: "markdown",
              },
            },
          },
        },
      },
    });
  });

  it("orders the keys of the text as Go's encoder does", () => {
    const text = providerSchemasJsonText(source);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.indexOf('"alpha"')).toBeLessThan(text.indexOf('"zeta"'));
    expect(text.indexOf('"attributes"')).toBeLessThan(text.indexOf('"block_types"'));
    expect(text).toContain('"type":["object",{"a":["list","string"],"b":"number"}]');
    expect(text).not.toContain("data_source_schemas");
  });
});
