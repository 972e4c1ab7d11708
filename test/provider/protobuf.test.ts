// The protobuf codec against protobufjs (a devDependency) as the reference implementation.
import protobufjs from "protobufjs";
import { describe, expect, it } from "vitest";
import { ProviderServer } from "../../provider/framework/provider-server.js";
import { descriptorJSON, loadProtocol } from "../../provider/protocol/descriptor.js";
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
