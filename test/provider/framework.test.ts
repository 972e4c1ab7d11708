// The framework layer without terraform: planning rules, plan modifiers, validators with paths, import,
// state upgrades and private state, through ProviderServer's RPC methods with msgpack on the wire.
import { describe, expect, it, vi } from "vitest";
import { Diagnostics, path } from "../../provider/framework/diagnostics.js";
import { requiresReplace, requiresReplaceIf, useStateForUnknown } from "../../provider/framework/plan-modifiers.js";
import { planObject } from "../../provider/framework/planning.js";
import { ProviderServer } from "../../provider/framework/provider-server.js";
import type { ProviderDefinition, Resource } from "../../provider/framework/resource.js";
import { blockType, type Schema } from "../../provider/framework/schema.js";
import { httpUrl, intBetween, oneOf, sizeAtLeast, stringLengthBetween, stringMatches } from "../../provider/framework/validators.js";
import { UNKNOWN, Unknown, type ObjectValue } from "../../provider/values/cty.js";
import { decodeMsgpack, encodeMsgpack } from "../../provider/values/cty-msgpack.js";

const schema: Schema = {
  description: "thing",
  version: 2,
  attributes: {
    id: { type: "string", computed: true, description: "", planModifiers: [useStateForUnknown()] },
    name: { type: "string", required: true, description: "", validators: [stringLengthBetween(1, 5)] },
    zone: { type: "string", optional: true, description: "", planModifiers: [requiresReplace()] },
    size: { type: "number", optional: true, computed: true, description: "", validators: [intBetween(1, 10)] },
    tags: { type: ["set", "string"], optional: true, computed: true, default: ["all"], description: "" },
    status: { type: "string", computed: true, description: "" },
  },
  blocks: {
    rule: { nesting: "list", block: { attributes: { port: { type: "number", required: true, description: "", validators: [intBetween(1, 65535)] } } } },
  },
};
const type = blockType(schema);
const wire = (v: ObjectValue | null) => ({ msgpack: encodeMsgpack(type, v) });
const read = (dv: { msgpack?: Uint8Array } | undefined) => decodeMsgpack(type, dv!.msgpack!) as ObjectValue;

const calls: string[] = [];
const thing: Resource<{ tag: string }> = {
  typeName: "test_thing",
  schema,
  validateConfig(config, diags) {
    if (config.name === "bad") diags.error("Bad name", "no", path("name"));
  },
  async create({ plan }, _d, ctx) {
    calls.push(`create ${ctx.data.tag}`);
    // "known after apply" arrives as null in the model: the resource decides.
    return { state: { ...plan, id: "t_1", size: plan.size ?? 3, status: "ok" }, private: { etag: "v1" } };
  },
  async read({ state, private: priv }) {
    calls.push(`read ${JSON.stringify(priv)}`);
    return state.id === "gone" ? { state: null } : { state, private: { ...priv, seen: true } };
  },
  async update({ plan }) {
    return { state: { ...plan, status: "ok" } };
  },
  async delete() {
    calls.push("delete");
  },
  importState(id) {
    return { id };
  },
  stateUpgraders: {
    0: (s) => ({ ...s, name: s.title, title: undefined }),
    1: (s) => ({ ...s, size: Number(s.size) }),
  },
};

const def: ProviderDefinition<{ tag: string }> = {
  typeName: "test",
  schema: { description: "p", attributes: { endpoint: { type: "string", optional: true, description: "", validators: [httpUrl()] } } },
  async configure(config, diags) {
    if (config.endpoint === "http://fail.example") diags.error("nope", undefined, path("endpoint"));
    return { tag: "configured" };
  },
  resources: [thing],
  dataSources: [],
};

const base = { id: null, name: "a", zone: null, size: null, tags: null, status: null, rule: null };

describe("planning", () => {
  it("create: computed attributes without config become unknown, defaults are planned", () => {
    const { plan, requiresReplace: rr } = planObject(schema, null, base, base);
    expect(plan.id).toBeInstanceOf(Unknown);
    expect(plan.size).toBeInstanceOf(Unknown);
    expect(plan.status).toBeInstanceOf(Unknown);
    expect(plan.tags).toEqual(["all"]);
    expect(rr).toEqual([]);
  });

  it("no change: the plan equals the prior state (an empty plan)", () => {
    const prior = { ...base, id: "t_1", size: 3, tags: ["all"], status: "ok" };
    const { plan } = planObject(schema, prior, prior, base);
    expect(plan).toEqual(prior);
  });

  it("update: UseStateForUnknown keeps id, other computed values become unknown", () => {
    const prior = { ...base, id: "t_1", size: 3, tags: ["all"], status: "ok" };
    const { plan, requiresReplace: rr } = planObject(schema, prior, { ...prior, name: "b" }, { ...base, name: "b" });
    expect(plan.id).toBe("t_1");
    expect(plan.status).toBeInstanceOf(Unknown);
    expect(plan.name).toBe("b");
    expect(rr).toEqual([]);
  });

  it("RequiresReplace asks for replacement only when the value changes on an existing object", () => {
    const prior = { ...base, id: "t_1", size: 3, tags: ["all"], status: "ok", zone: "eu" };
    const { requiresReplace: rr } = planObject(schema, prior, { ...prior, zone: "us" }, { ...base, zone: "us" });
    expect(rr).toEqual([path("zone")]);
    const cond = requiresReplaceIf((r) => r.plan === "us", "only to us");
    expect(cond.modify({ path: path("zone"), config: "eu", state: "us", plan: "eu", priorState: prior })).toEqual({});
    expect(cond.modify({ path: path("zone"), config: "us", state: "eu", plan: "us", priorState: prior })).toEqual({ requiresReplace: true });
    expect(requiresReplace().modify({ path: path("zone"), config: "us", state: null, plan: "us", priorState: null })).toEqual({});
  });

  it("UseStateForUnknown leaves an unknown config value unknown", () => {
    const m = useStateForUnknown();
    expect(m.modify({ path: path("id"), config: UNKNOWN, state: "x", plan: UNKNOWN, priorState: { id: "x" } })).toEqual({});
    expect(m.modify({ path: path("id"), config: null, state: "x", plan: UNKNOWN, priorState: { id: "x" } })).toEqual({ plan: "x" });
  });
});

describe("validators", () => {
  it("report the rule and the attribute path", () => {
    const d = new Diagnostics();
    stringLengthBetween(1, 3).validate("abcd", path("name"), d);
    stringMatches(/^\d+\.\d+$/, "must be major.minor").validate("6", path("v"), d);
    httpUrl().validate("ftp://x", path("url"), d);
    oneOf("a", "b").validate("c", path("o"), d);
    intBetween(1, 5).validate(2.5, path("n"), d);
    sizeAtLeast(1).validate([], path("s"), d);
    expect(d.items.map((x) => x.path)).toEqual([path("name"), path("v"), path("url"), path("o"), path("n"), path("s")]);
    const fine = new Diagnostics();
    httpUrl().validate("https://example.com/x", path("url"), fine);
    stringMatches(/^\d+\.\d+$/, "must be major.minor").validate("6.4", path("v"), fine);
    expect(fine.items).toEqual([]);
  });
});

describe("ProviderServer RPCs", () => {
  const server = new ProviderServer(def);

  it("schema: attributes, blocks and version on the wire", () => {
    const s = server.getProviderSchema() as unknown as {
      resource_schemas: Record<
        string,
        { version: number; block: { attributes: { name: string; type: Buffer }[]; block_types: { type_name: string; nesting: number }[] } }
      >;
    };
    const t = s.resource_schemas.test_thing!;
    expect(t.version).toBe(2);
    expect(t.block.attributes.map((a) => a.name)).toEqual(["id", "name", "size", "status", "tags", "zone"]);
    expect(JSON.parse(t.block.attributes.find((a) => a.name === "tags")!.type.toString())).toEqual(["set", "string"]);
    expect(t.block.block_types).toMatchObject([{ type_name: "rule", nesting: 2 }]);
  });

  it("validation: attribute validators (also inside blocks) and cross-attribute checks, with paths", async () => {
    const res = await server.validateResourceConfig({ type_name: "test_thing", config: wire({ ...base, name: "toolong", size: 11, rule: [{ port: 0 }] }) });
    expect(res.diagnostics.map((d) => d.attribute?.steps)).toEqual([
      [{ attribute_name: "name" }],
      [{ attribute_name: "size" }],
      [{ attribute_name: "rule" }, { element_key_int: 0 }, { attribute_name: "port" }],
    ]);
    const bad = await server.validateResourceConfig({ type_name: "test_thing", config: wire({ ...base, name: "bad" }) });
    expect(bad.diagnostics).toMatchObject([{ severity: 1, summary: "Bad name", attribute: { steps: [{ attribute_name: "name" }] } }]);
    const unknown = await server.validateResourceConfig({ type_name: "test_thing", config: wire({ ...base, name: UNKNOWN }) });
    expect(unknown.diagnostics).toEqual([]);
  });

  it("calls before ConfigureProvider are a diagnostic, not a crash", async () => {
    const fresh = new ProviderServer(def);
    const res = await fresh.readResource({ type_name: "test_thing", current_state: wire({ ...base, id: "t_1" }) });
    expect(res.diagnostics[0]!.summary).toBe("Provider not configured");
  });

  it("configure errors point at the provider attribute", async () => {
    const fresh = new ProviderServer(def);
    const pt = blockType(def.schema);
    const res = await fresh.configureProvider({ config: { msgpack: encodeMsgpack(pt, { endpoint: "http://fail.example" }) } });
    expect(res.diagnostics).toMatchObject([{ summary: "nope", attribute: { steps: [{ attribute_name: "endpoint" }] } }]);
  });

  it("plan, apply, read, destroy, with private state carried through", async () => {
    await server.configureProvider({ config: { msgpack: encodeMsgpack(blockType(def.schema), { endpoint: null }) } });
    const planned = await server.planResourceChange({ type_name: "test_thing", prior_state: wire(null), proposed_new_state: wire(base), config: wire(base) });
    expect(planned.diagnostics).toEqual([]);
    const applied = await server.applyResourceChange({
      type_name: "test_thing",
      prior_state: wire(null),
      planned_state: planned.planned_state,
      config: wire(base),
    });
    expect(read(applied.new_state)).toMatchObject({ id: "t_1", size: 3, status: "ok", tags: ["all"] });
    expect(JSON.parse(Buffer.from(applied.private!).toString())).toEqual({ etag: "v1" });
    const refreshed = await server.readResource({ type_name: "test_thing", current_state: applied.new_state, private: applied.private });
    expect(JSON.parse(Buffer.from(refreshed.private!).toString())).toEqual({ etag: "v1", seen: true });
    expect(calls).toContain('read {"etag":"v1"}');
    const gone = await server.readResource({ type_name: "test_thing", current_state: wire({ ...base, id: "gone" }) });
    expect(decodeMsgpack(type, gone.new_state!.msgpack!)).toBeNull();
    const destroyed = await server.applyResourceChange({
      type_name: "test_thing",
      prior_state: applied.new_state,
      planned_state: wire(null),
      config: wire(null),
    });
    expect(decodeMsgpack(type, destroyed.new_state!.msgpack!)).toBeNull();
    expect(calls).toContain("delete");
  });

  it("a refresh and a plan of an unchanged object answer with the request's own bytes; a change is encoded", async () => {
    await server.configureProvider({ config: { msgpack: encodeMsgpack(blockType(def.schema), { endpoint: null }) } });
    const stored = wire({ ...base, id: "t_1", size: 3, tags: ["all"], status: "ok", rule: [] });
    const refreshed = await server.readResource({ type_name: "test_thing", current_state: stored });
    expect(refreshed.new_state!.msgpack).toBe(stored.msgpack);
    const noop = await server.planResourceChange({ type_name: "test_thing", prior_state: stored, proposed_new_state: stored, config: wire(base) });
    expect(noop.diagnostics).toEqual([]);
    expect(noop.planned_state!.msgpack).toBe(stored.msgpack);
    const renamed = { ...read(stored), name: "b" };
    const changed = await server.planResourceChange({
      type_name: "test_thing",
      prior_state: stored,
      proposed_new_state: wire(renamed),
      config: wire({ ...base, name: "b" }),
    });
    expect(changed.planned_state!.msgpack).not.toBe(stored.msgpack);
    expect(read(changed.planned_state)).toMatchObject({ id: "t_1", name: "b" });
    expect(read(changed.planned_state).status).toBeInstanceOf(Unknown);
  });

  it("import fills the other attributes with null", async () => {
    const res = await server.importResourceState({ type_name: "test_thing", id: "t_9" });
    expect(res.imported_resources![0]!.type_name).toBe("test_thing");
    expect(read(res.imported_resources![0]!.state)).toEqual({ ...base, name: null, id: "t_9" });
  });

  it("state upgrades chain from the stored version to the schema's", async () => {
    const res = await server.upgradeResourceState({
      type_name: "test_thing",
      version: 0,
      raw_state: { json: Buffer.from(JSON.stringify({ id: "t_1", title: "old", size: "4", tags: ["x"] })) },
    });
    expect(res.diagnostics).toEqual([]);
    expect(read(res.upgraded_state)).toEqual({ ...base, id: "t_1", name: "old", size: 4, tags: ["x"] });
    const newer = await server.upgradeResourceState({ type_name: "test_thing", version: 3, raw_state: { json: Buffer.from("{}") } });
    expect(newer.diagnostics[0]!.summary).toBe("Resource state from a newer provider");
  });

  it("a throwing resource becomes an error diagnostic", async () => {
    const broken = new ProviderServer({
      ...def,
      resources: [
        {
          ...thing,
          read: async () => {
            throw new Error("boom");
          },
        },
      ],
    });
    await broken.configureProvider({});
    const res = await broken.readResource({ type_name: "test_thing", current_state: wire({ ...base, id: "t_1" }) });
    expect(res.diagnostics[0]).toMatchObject({ severity: 1, summary: "Unexpected provider error" });
    expect(res.diagnostics[0]!.detail).toContain("boom");
  });

  it("StopProvider aborts the signal resources use", async () => {
    const s = new ProviderServer(def);
    expect(s.signal.aborted).toBe(false);
    // Shared by every in-flight API call: no MaxListenersExceededWarning at -parallelism=50.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    for (let i = 0; i < 50; i++) s.signal.addEventListener("abort", () => {});
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off("warning", onWarning);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
    s.stopProvider();
    expect(s.signal.aborted).toBe(true);
  });

  it("StopProvider aborts the writes' signal only after the grace, so a write already sent is answered", () => {
    vi.useFakeTimers();
    try {
      const s = new ProviderServer(def);
      s.stopProvider();
      expect([s.signal.aborted, s.writeSignal.aborted]).toEqual([true, false]);
      vi.advanceTimersByTime(9_999);
      expect(s.writeSignal.aborted).toBe(false);
      vi.advanceTimersByTime(1);
      expect(s.writeSignal.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
