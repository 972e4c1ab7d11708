// The protobuf codec against protobufjs (a devDependency) as the reference implementation.
import protobufjs from "protobufjs";
import { describe, expect, it } from "vitest";
import { ProviderServer } from "../../provider/framework/provider-server.js";
import { descriptorJSON, loadProtocol } from "../../provider/protocol/descriptor.js";
import { Protobuf, type DescriptorJSON } from "../../provider/protocol/protobuf.js";
import { ProtobufError } from "../../provider/protocol/protobuf-wire.js";
import { siteopsProvider } from "../../provider/provider.js";

const proto = loadProtocol();
const reference = protobufjs.Root.fromJSON(descriptorJSON() as protobufjs.INamespace);
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("protobuf codec", () => {
  it("encodes like protobufjs: nested messages, repeated fields, maps, enums, bytes", () => {
    const msg = {
      provider: {
        version: 1,
        block: { version: 1, attributes: [{ name: "a", type: Buffer.from('"string"'), required: true, description_kind: 1 }], description: "p" },
      },
      resource_schemas: { x_y: { version: 3, block: { attributes: [{ name: "id", type: Buffer.from('"string"'), computed: true }] } } },
      diagnostics: [
        { severity: 1, summary: "s", detail: "d", attribute: { steps: [{ attribute_name: "a" }, { element_key_int: 0 }, { element_key_string: "" }] } },
      ],
    };
    const T = reference.lookupType("tfplugin6.GetProviderSchema.Response");
    expect(hex(proto.encode("tfplugin6.GetProviderSchema.Response", msg))).toBe(hex(T.encode(T.fromObject(msg)).finish()));
  });

  it("encodes like protobufjs when nested lengths need several bytes (the provider's schema, a 100 KiB value)", () => {
    // protobufjs also writes fields set to their default (version: 0), so compare what each decodes to.
    const same = (type: string, msg: Record<string, unknown>) => {
      const T = reference.lookupType(type);
      const view = (bytes: Uint8Array) => T.toObject(T.decode(bytes), { defaults: true, bytes: String, longs: Number, enums: Number });
      const ours = proto.encode(type, msg);
      expect(view(ours)).toEqual(view(T.encode(T.fromObject(msg)).finish()));
      return ours.length;
    };
    expect(same("tfplugin6.GetProviderSchema.Response", new ProviderServer(siteopsProvider()).getProviderSchema())).toBeGreaterThan(1024);
    same("tfplugin6.ReadDataSource.Response", {
      state: { msgpack: Buffer.alloc(100 * 1024, 7) },
      diagnostics: [{ severity: 2, summary: "é".repeat(200), detail: "" }],
    });
  });

  it("keeps oneof members set to default values (list index 0, empty map key)", () => {
    const bytes = proto.encode("tfplugin6.AttributePath", { steps: [{ element_key_int: 0 }, { element_key_string: "" }] });
    const back = reference.lookupType("tfplugin6.AttributePath").decode(bytes) as unknown as { steps: { selector: string }[] };
    expect(back.steps.map((s) => s.selector)).toEqual(["element_key_int", "element_key_string"]);
  });

  it("decodes what protobufjs encodes, with proto3 defaults and negative int64", () => {
    const T = reference.lookupType("tfplugin6.UpgradeResourceState.Request");
    const bytes = T.encode(T.fromObject({ type_name: "siteops_site", version: -1, raw_state: { json: Buffer.from("{}"), flatmap: { a: "b" } } })).finish();
    const out = proto.decode("tfplugin6.UpgradeResourceState.Request", bytes) as {
      type_name: string;
      version: number;
      raw_state: { json: Uint8Array; flatmap: Record<string, string> };
    };
    expect(out.type_name).toBe("siteops_site");
    expect(out.version).toBe(-1);
    expect(Buffer.from(out.raw_state.json).toString()).toBe("{}");
    expect(out.raw_state.flatmap).toEqual({ a: "b" });
    const empty = proto.decode("tfplugin6.ReadResource.Request", new Uint8Array(0));
    expect(empty).toMatchObject({ type_name: "", current_state: null, private: new Uint8Array(0) });
  });

  it("skips fields it does not know (newer Terraform versions send more)", () => {
    // field 99, varint 5; field 98, length-delimited "xx"; then type_name = "t"
    const bytes = Buffer.from([0x98, 0x06, 0x05, 0x92, 0x06, 0x02, 0x78, 0x78, 0x0a, 0x01, 0x74]);
    expect(proto.decode("tfplugin6.ReadDataSource.Request", bytes)).toMatchObject({ type_name: "t" });
  });

  it("lists the Provider service's methods with resolved message names", () => {
    const methods = proto.services.get("tfplugin6.Provider")!;
    expect(methods.find((m) => m.name === "PlanResourceChange")).toEqual({
      name: "PlanResourceChange",
      requestType: "tfplugin6.PlanResourceChange.Request",
      responseType: "tfplugin6.PlanResourceChange.Response",
    });
  });
});

// Issue 53: inputs where the codec and the references (protobufjs 8, protobuf-go) disagreed.
describe("protobuf codec: what the references read, and what they refuse", () => {
  const decode = (type: string, hexBytes: string) => proto.decode(`tfplugin6.${type}`, Buffer.from(hexBytes.replace(/ /g, ""), "hex"));

  it("reads int64 exactly from 2^49 up, a bigint beyond 2^53", () => {
    // version = 2^49: the eighth varint byte carries the top bit
    expect(decode("UpgradeResourceState.Request", "10 80 80 80 80 80 80 80 01").version).toBe(562949953421312);
    expect(decode("UpgradeResourceState.Request", "10 ff ff ff ff ff ff ff 0f").version).toBe(2 ** 53 - 1);
    expect(decode("UpgradeResourceState.Request", "10 81 80 80 80 80 80 80 10").version).toBe(2n ** 53n + 1n);
    expect(decode("UpgradeResourceState.Request", "10 ff ff ff ff ff ff ff ff 7f").version).toBe(2n ** 63n - 1n);
    expect(decode("UpgradeResourceState.Request", "10 ff ff ff ff ff ff ff ff ff 01").version).toBe(-1);
    expect(decode("UpgradeResourceState.Request", "10 80 80 80 80 80 80 80 80 80 01").version).toBe(-(2n ** 63n));
    // and back, the same bytes
    for (const version of [2 ** 49, 2n ** 53n + 1n, -1, -(2n ** 63n)]) {
      const bytes = proto.encode("tfplugin6.UpgradeResourceState.Request", { version });
      expect(proto.decode("tfplugin6.UpgradeResourceState.Request", bytes).version).toBe(version);
    }
  });

  it("keeps __proto__, constructor and toString as map keys, own properties of the map", () => {
    const T = reference.lookupType("tfplugin6.RawState");
    // RawState.flatmap (2) entries {1: key, 2: value}
    const entry = (k: string, v: string) =>
      Buffer.concat([Buffer.from([0x12, k.length + v.length + 4, 0x0a, k.length]), Buffer.from(k), Buffer.from([0x12, v.length]), Buffer.from(v)]);
    const bytes = Buffer.concat([entry("__proto__", "a"), entry("constructor", "b"), entry("toString", "c")]);
    const out = proto.decode("tfplugin6.RawState", bytes).flatmap as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual(["__proto__", "constructor", "toString"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("a");
    // the encoder writes the own key back
    const back = T.decode(proto.encode("tfplugin6.RawState", { flatmap: out })) as unknown as { flatmap: Record<string, string> };
    expect(Object.getOwnPropertyDescriptor(back.flatmap, "__proto__")?.value).toBe("a");
  });

  it("skips a known field sent with another wire type, as an unknown field (protobufjs and Go do)", () => {
    // type_name (1, string) sent as varint 5, then as the string "t"
    expect(decode("ReadDataSource.Request", "08 05").type_name).toBe("");
    expect(decode("ReadDataSource.Request", "08 05 0a 01 74").type_name).toBe("t");
    // version (2, int64) sent length-delimited
    expect(decode("UpgradeResourceState.Request", "12 01 07").version).toBe(0);
  });

  it("refuses truncated unknown fields, lengths past the end, field number 0 and invalid UTF-8", () => {
    const refused = (type: string, hexBytes: string, message: RegExp) => {
      expect(() => decode(type, hexBytes)).toThrow(ProtobufError);
      expect(() => decode(type, hexBytes)).toThrow(message);
    };
    refused("ReadDataSource.Request", "99 06 01 02 03", /truncated/); // field 99, fixed64 with 3 bytes
    refused("ReadDataSource.Request", "9d 06 01", /truncated/); // fixed32 with 1 byte
    refused("ReadDataSource.Request", "92 06 05 78", /past the end/); // unknown bytes of 5 with 1 there
    refused("ReadDataSource.Request", "12 05 0a 01 61", /past the end/); // config (DynamicValue) of 5 bytes with 3 there
    refused("ReadDataSource.Request", "12 02 0a 05 61 61 61 61 61", /past the end/); // its msgpack field runs past the DynamicValue's end
    refused("ReadDataSource.Request", "00 01", /field number 0/);
    refused("ReadDataSource.Request", "0a 02 c3 28", /not valid UTF-8/);
    refused("ReadDataSource.Request", "0a 01 ff", /not valid UTF-8/);
    refused("ReadDataSource.Request", "98 06 ff ff ff ff ff ff ff ff ff ff 01", /longer than 10 bytes/);
    refused("ReadDataSource.Request", "9f 06", /invalid wire type 7/);
    // groups in unknown fields are skipped, as protobufjs and Go do; a group closed by another field is refused
    expect(decode("ReadDataSource.Request", "9b 06 08 01 9c 06 0a 01 74").type_name).toBe("t");
    refused("ReadDataSource.Request", "9b 06 08 01 a4 06", /another field/);
    // valid multi-byte UTF-8 and a byte-order mark are kept as they are
    expect(decode("ReadDataSource.Request", "0a 06 ef bb bf c3 a9 61").type_name).toBe("\ufeffé" + "a");
  });

  it("merges a message field that appears twice, and leaves unset oneof members out", () => {
    // config twice: msgpack from the first, json from the second
    const out = decode("ReadDataSource.Request", "12 03 0a 01 c0 12 03 12 01 7b") as { config: { msgpack: Uint8Array; json: Uint8Array } };
    expect(Buffer.from(out.config.msgpack).toString("hex")).toBe("c0");
    expect(Buffer.from(out.config.json).toString()).toBe("{");
    const step = proto.decode("tfplugin6.AttributePath.Step", proto.encode("tfplugin6.AttributePath.Step", { element_key_int: 0 }));
    expect(step).toEqual({ element_key_int: 0 });
    // the last member on the wire wins, as in Go
    expect(decode("AttributePath.Step", "0a 01 61 18 02")).toEqual({ element_key_int: 2 });
    expect(proto.decode("tfplugin6.FunctionError", new Uint8Array(0))).toEqual({ text: "" });
  });

  it("refuses messages and groups nested past 100 levels with a ProtobufError, as protobufjs does", () => {
    const descriptor = { nested: { t: { nested: { M: { fields: { child: { type: "M", id: 1 }, n: { type: "int64", id: 2 } } } } } } };
    const ours = new Protobuf(descriptor as DescriptorJSON);
    const M = protobufjs.Root.fromJSON({ ...descriptor, edition: "proto3" } as protobufjs.INamespace).lookupType("t.M");
    const varint = (n: number) => {
      const out: number[] = [];
      for (; n >= 128; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
      return Buffer.from([...out, n]);
    };
    /** `levels` messages each in the field `child` of the one around it, the innermost holding `inner`. */
    const nested = (levels: number, inner = Buffer.from("1001", "hex")) => {
      const prefixes: Buffer[] = [];
      let length = inner.length;
      for (let i = 1; i < levels; i++) {
        const prefix = Buffer.concat([Buffer.from([0x0a]), varint(length)]);
        prefixes.push(prefix);
        length += prefix.length;
      }
      return Buffer.concat([...prefixes.reverse(), inner]);
    };
    const accepted = nested(101);
    expect(() => M.decode(accepted)).not.toThrow();
    expect(() => ours.decode("t.M", accepted)).not.toThrow();
    expect(() => M.decode(nested(102))).toThrow(/max depth/);
    expect(() => ours.decode("t.M", nested(102))).toThrow(ProtobufError);
    // deep enough to overflow the stack: a ProtobufError, not a RangeError
    expect(() => ours.decode("t.M", nested(20_000))).toThrow(/nested too deeply/);
    // groups in an unknown field (number 3), 101 deep and more
    const groups = (levels: number) => Buffer.concat([Buffer.alloc(levels, 0x1b), Buffer.alloc(levels, 0x1c)]);
    expect(() => ours.decode("t.M", groups(100))).not.toThrow();
    expect(() => ours.decode("t.M", groups(20_000))).toThrow(/nested too deeply/);
    // an unknown group inside 101 messages counts their depth too
    const inner = nested(101, Buffer.concat([Buffer.from("1001", "hex"), groups(2)]));
    expect(() => M.decode(inner)).toThrow(/max depth/);
    expect(() => ours.decode("t.M", inner)).toThrow(/nested too deeply/);
  });

  it("reads repeated scalars packed or not, and writes them packed like protobufjs", () => {
    const descriptor = {
      nested: {
        t: {
          nested: {
            E: { values: { A: 0, B: 1 } },
            M: {
              fields: {
                ints: { rule: "repeated", type: "int64", id: 1 },
                flags: { rule: "repeated", type: "bool", id: 2 },
                kinds: { rule: "repeated", type: "E", id: 3 },
                names: { rule: "repeated", type: "string", id: 4 },
              },
            },
          },
        },
      },
    };
    const ours = new Protobuf(descriptor as DescriptorJSON);
    const M = protobufjs.Root.fromJSON({ ...descriptor, edition: "proto3" } as protobufjs.INamespace).lookupType("t.M");
    const value = { ints: [1, -1, 300, 2 ** 40], flags: [true, false, true], kinds: [1, 0, 1], names: ["a", ""] };
    const packed = M.encode(M.fromObject(value)).finish();
    expect(hex(ours.encode("t.M", value))).toBe(hex(packed));
    expect(ours.decode("t.M", packed)).toEqual(value);
    // the same values unpacked, one field per value
    const unpacked = Buffer.from("0801 08ffffffffffffffffff01 08ac02 08808080808020 1001 1000 1001 1801 1800 1801 220161 2200".replace(/ /g, ""), "hex");
    expect(ours.decode("t.M", unpacked)).toEqual(value);
    expect(() => ours.decode("t.M", Buffer.from("0a0301", "hex"))).toThrow(/past the end/);
  });
});
