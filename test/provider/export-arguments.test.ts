// `siteops export` writes every argument of each resource's schema or says why not (provider/export/arguments.ts):
// the resource types it writes are the provider's resources, with their schemas; every argument a user sets has
// a value from the API record or a reason to be left out; and an argument added to a schema without either is
// caught (tsc fails on the declaration too; this is the check at run time).
import { describe, expect, it } from "vitest";
import { coverageProblems, EXPORTS } from "../../provider/export/arguments.js";
import type { Schema } from "../../provider/framework/schema.js";
import { siteopsProvider } from "../../provider/provider.js";

const withAttribute = (schema: Schema, name: string, attribute: Schema["attributes"][string]): Schema => ({
  ...schema,
  attributes: { ...schema.attributes, [name]: attribute },
});

describe("what siteops export writes", () => {
  it("covers each resource of the provider, by its type name and with its schema", () => {
    const resources = siteopsProvider().resources.map((r) => [r.typeName, r.schema]);
    expect(Object.entries(EXPORTS).map(([type, e]) => [type, e.schema])).toEqual(resources);
  });

  for (const [type, e] of Object.entries(EXPORTS)) {
    it(`${type}: every argument of the schema is exported or left out with a reason`, () => {
      expect(coverageProblems(e.schema, e.values, e.leftOut)).toEqual([]);
      for (const [name, reason] of Object.entries(e.leftOut)) expect(reason.length, name).toBeGreaterThan(20);
      expect(e.names.length).toBeGreaterThan(0);
    });
  }

  it("fails on a configurable attribute or block added to a schema and named nowhere", () => {
    const { schema, values, leftOut } = EXPORTS.siteops_site;
    // (a name that is no field of the wire: one that is gets its value from the record's field of that name)
    const added = withAttribute(schema, "x_added", { type: "string", optional: true, description: "Added." });
    expect(coverageProblems(added, values, leftOut)).toEqual(["x_added is an argument but neither exported nor left out"]);
    const owner = withAttribute(schema, "owner", { type: "string", required: true, description: "Owner." });
    expect(coverageProblems(owner, values, leftOut)).toEqual(["owner is an argument but neither exported nor left out"]);
    const block = { ...schema, blocks: { ...schema.blocks, backup: { nesting: "single" as const, block: { attributes: {} } } } };
    expect(coverageProblems(block, values, leftOut)).toEqual(["backup is an argument but neither exported nor left out"]);
  });

  it("passes over a computed-only attribute (the service's to set), and fails on one exported or left out that is none", () => {
    const { schema, values, leftOut } = EXPORTS.siteops_webhook_endpoint;
    const computed = withAttribute(schema, "last_delivery_at", { type: "string", computed: true, description: "When." });
    expect(coverageProblems(computed, values, leftOut)).toEqual([]);
    const nowComputed = withAttribute(schema, "description", { type: "string", computed: true, description: "Text." });
    expect(coverageProblems(nowComputed, values, leftOut)).toEqual(["description has a value but is not an argument of the schema"]);
    expect(coverageProblems(schema, values, { ...leftOut, gone: "a reason that no longer applies" })).toEqual([
      "gone is left out but the schema has no such attribute or block",
    ]);
    expect(coverageProblems(schema, values, { ...leftOut, url: "both" })).toEqual(["url is both exported and left out"]);
  });
});
