// provider/framework/wire/from-proto.ts alone: a tfplugin6 DynamicValue (msgpack or JSON) as the cty value of its
// type, and private state bytes as an object, whatever another writer left there.
import { describe, expect, it } from "vitest";
import { dynamicValue, privateState } from "../../provider/framework/wire/from-proto.js";
import type { CtyType } from "../../provider/values/cty.js";
import { encodeMsgpack } from "../../provider/values/cty-msgpack.js";

const type: CtyType = ["object", { name: "string", tags: ["set", "string"], on: "bool" }];
const value = { name: "Blog", tags: ["a", "b"], on: true };

describe("from-proto dynamicValue", () => {
  it("decodes msgpack by the type", () => {
    expect(dynamicValue(type, { msgpack: encodeMsgpack(type, value) })).toEqual(value);
  });

  it("decodes JSON, which the protocol allows too", () => {
    expect(dynamicValue(type, { json: Buffer.from(JSON.stringify(value)) })).toEqual(value);
  });

  it("prefers msgpack when both are set", () => {
    const other = { ...value, name: "Shop" };
    expect(dynamicValue(type, { msgpack: encodeMsgpack(type, other), json: Buffer.from(JSON.stringify(value)) })).toEqual(other);
  });

  it("reads an absent value, or empty bytes in both fields, as null", () => {
    expect(dynamicValue(type, null)).toBeNull();
    expect(dynamicValue(type, undefined)).toBeNull();
    expect(dynamicValue(type, { msgpack: new Uint8Array(0), json: null })).toBeNull();
  });
});

describe("from-proto privateState", () => {
  it("reads the JSON object the provider wrote", () => {
    expect(privateState(Buffer.from('{"updated_at":"2026-01-01T00:00:00Z","deletion_protection":true}'))).toEqual({
      updated_at: "2026-01-01T00:00:00Z",
      deletion_protection: true,
    });
  });

  it("starts afresh on nothing, or on bytes another writer left (not JSON, not an object)", () => {
    for (const bytes of [null, undefined, new Uint8Array(0), Buffer.from("not json"), Buffer.from("[1,2]"), Buffer.from("null"), Buffer.from("42")]) {
      expect(privateState(bytes)).toEqual({});
    }
  });
});
