// The framework's semantic equality and destroy plans without terraform: where a value means the same as the one
// Terraform has, the one it has stays (plan: the prior state's; create and update: the plan's; read: the prior
// state's; data source: the configuration's), a real change still goes through, and planDestroy sees destroys
// and the private state of a replacement's create half.
import { describe, expect, it } from "vitest";
import { path } from "../../provider/framework/diagnostics.js";
import { ProviderServer } from "../../provider/framework/provider-server.js";
import type { DataSource, ProviderDefinition, Resource } from "../../provider/framework/resource.js";
import { blockType, type Schema } from "../../provider/framework/schema.js";
import { keepEquivalent } from "../../provider/framework/semantic-equality.js";
import type { ObjectValue, Value } from "../../provider/values/cty.js";
import { decodeMsgpack, encodeMsgpack } from "../../provider/values/cty-msgpack.js";

/** Case-insensitive, a trailing slash ignored: a stand-in for the core's sameUrl. */
const sameish = async (a: Value, b: Value) => String(a).toLowerCase().replace(/\/$/, "") === String(b).toLowerCase().replace(/\/$/, "");

const schema: Schema = {
  description: "thing",
  attributes: {
    id: { type: "string", computed: true, description: "" },
    url: { type: "string", required: true, description: "", semanticEquals: sameish },
    note: { type: "string", optional: true, description: "" },
    status: { type: "string", computed: true, description: "" },
  },
  blocks: { hook: { nesting: "list", block: { attributes: { target: { type: "string", required: true, description: "", semanticEquals: sameish } } } } },
};
const type = blockType(schema);
const wire = (v: ObjectValue | null) => ({ msgpack: encodeMsgpack(type, v) });
const read = (dv: { msgpack?: Uint8Array | null } | undefined) => decodeMsgpack(type, dv!.msgpack!) as ObjectValue | null;

/** What the service stores: URLs lower-cased with a trailing slash. */
const stored = (u: string) => `${u.toLowerCase().replace(/\/$/, "")}/`;
const seen: string[] = [];

const thing: Resource<null> = {
  typeName: "test_thing",
  schema,
  async create({ plan }) {
    return { state: { ...plan, id: "t_1", url: stored(plan.url as string), status: "ok" } };
  },
  async read({ state }) {
    return { state: { ...state, url: stored(state.url as string) } };
  },
  async update({ plan }) {
    seen.push(`update ${String(plan.url)}`);
    return { state: { ...plan, url: stored(plan.url as string), status: "ok" } };
  },
  async delete() {},
  modifyPlan({ prior, private: priv }, diags) {
    if (prior === null && Object.keys(priv).length) diags.error("Replacement refused", undefined, path("url"));
  },
  planDestroy({ prior }, diags) {
    if (prior.note === "keep") diags.error("Destroy refused", undefined, path("note"));
  },
};

const lookup: DataSource<null> = {
  typeName: "test_lookup",
  schema: { description: "", attributes: { url: { type: "string", optional: true, computed: true, description: "", semanticEquals: sameish } } },
  async read(config) {
    return { url: stored(config.url as string) };
  },
};

const def: ProviderDefinition<null> = {
  typeName: "test",
  schema: { description: "p", attributes: {} },
  async configure() {
    return null;
  },
  resources: [thing],
  dataSources: [lookup],
};

async function server() {
  const s = new ProviderServer(def);
  await s.configureProvider({});
  return s;
}

const config = (url: string, note: string | null = null, hook: string[] = []): ObjectValue => ({
  id: null,
  url,
  note,
  status: null,
  hook: hook.map((target) => ({ target })),
});

describe("keepEquivalent", () => {
  it("keeps the values Terraform has where they mean the same, in nested blocks too, and nothing else", async () => {
    const kept = { ...config("https://A.example", null, ["https://X.example"]), id: "t_1" };
    const next = { ...config("https://a.example/", "n", ["https://x.example/", "https://y.example"]), id: "t_1" };
    expect(await keepEquivalent(schema, next, kept)).toEqual({
      ...next,
      url: "https://A.example",
      hook: [{ target: "https://X.example" }, { target: "https://y.example" }],
    });
    const changed = config("https://b.example/");
    expect(await keepEquivalent(schema, changed, kept)).toBe(changed);
    expect(await keepEquivalent(schema, changed, null)).toBe(changed);
  });

  it("answers at once, without a promise, when no value needs its semantic equality asked (nearly every plan and apply)", () => {
    const kept = { ...config("https://a.example", "n", ["https://x.example"]), id: "t_1" };
    const next = { ...kept, hook: [{ target: "https://x.example" }] };
    expect(keepEquivalent(schema, next, kept)).toBe(next);
    expect(keepEquivalent(schema, { ...next, url: "https://A.example" }, kept)).toBeInstanceOf(Promise);
  });
});

describe("semantic equality through the RPCs", () => {
  it("create keeps the planned spelling; read keeps the state's; a plan spelled otherwise plans the state's", async () => {
    const s = await server();
    const c = config("https://TF-One.Example.org");
    const planned = await s.planResourceChange({ type_name: "test_thing", prior_state: wire(null), proposed_new_state: wire(c), config: wire(c) });
    const applied = await s.applyResourceChange({ type_name: "test_thing", prior_state: wire(null), planned_state: planned.planned_state, config: wire(c) });
    expect(applied.diagnostics).toEqual([]);
    expect(read(applied.new_state)).toMatchObject({ url: "https://TF-One.Example.org", status: "ok" });
    const refreshed = await s.readResource({ type_name: "test_thing", current_state: applied.new_state });
    expect(read(refreshed.new_state)).toMatchObject({ url: "https://TF-One.Example.org" });

    // State in the service's spelling (after an import): a configuration spelled otherwise plans no change.
    const imported = { ...read(refreshed.new_state)!, url: "https://tf-one.example.org/" };
    const p = await s.planResourceChange({
      type_name: "test_thing",
      prior_state: wire(imported),
      proposed_new_state: wire({ ...c, id: "t_1", status: "ok" }),
      config: wire(c),
    });
    expect(read(p.planned_state)).toEqual(imported);
  });

  it("a real change is planned and sent", async () => {
    const s = await server();
    const prior = { ...config("https://a.example"), id: "t_1", status: "ok" };
    const proposed = { ...prior, url: "https://b.example" };
    const p = await s.planResourceChange({
      type_name: "test_thing",
      prior_state: wire(prior),
      proposed_new_state: wire(proposed),
      config: wire(config("https://b.example")),
    });
    expect(read(p.planned_state)).toMatchObject({ url: "https://b.example", status: expect.anything() });
    const applied = await s.applyResourceChange({
      type_name: "test_thing",
      prior_state: wire(prior),
      planned_state: p.planned_state,
      config: wire(config("https://b.example")),
    });
    expect(seen).toContain("update https://b.example");
    expect(read(applied.new_state)).toMatchObject({ url: "https://b.example" });
  });

  it("a data source keeps the configuration's spelling", async () => {
    const s = await server();
    const lt = blockType(lookup.schema);
    const res = await s.readDataSource({ type_name: "test_lookup", config: { msgpack: encodeMsgpack(lt, { url: "https://Blog.Example.org" }) } });
    expect(decodeMsgpack(lt, res.state!.msgpack!)).toEqual({ url: "https://Blog.Example.org" });
  });
});

describe("destroy plans", () => {
  it("planDestroy sees a destroy (proposed null) and refuses it with an error", async () => {
    const s = await server();
    const prior = { ...config("https://a.example", "keep"), id: "t_1", status: "ok" };
    const refused = await s.planResourceChange({ type_name: "test_thing", prior_state: wire(prior), proposed_new_state: wire(null), config: wire(null) });
    expect(refused.diagnostics).toMatchObject([{ summary: "Destroy refused", attribute: { steps: [{ attribute_name: "note" }] } }]);
    expect(refused.planned_state).toBeUndefined();
    const allowed = await s.planResourceChange({
      type_name: "test_thing",
      prior_state: wire({ ...prior, note: null }),
      proposed_new_state: wire(null),
      config: wire(null),
    });
    expect(allowed.diagnostics).toEqual([]);
    expect(read(allowed.planned_state)).toBeNull();
    expect(s.getMetadata().server_capabilities.plan_destroy).toBe(true);
  });

  it("modifyPlan gets the replaced object's private state on a replacement's create half", async () => {
    const s = await server();
    const c = config("https://a.example");
    const fresh = await s.planResourceChange({ type_name: "test_thing", prior_state: wire(null), proposed_new_state: wire(c), config: wire(c) });
    expect(fresh.diagnostics).toEqual([]);
    const replacing = await s.planResourceChange({
      type_name: "test_thing",
      prior_state: wire(null),
      proposed_new_state: wire(c),
      config: wire(c),
      prior_private: Buffer.from(JSON.stringify({ etag: "v1" })),
    });
    expect(replacing.diagnostics).toMatchObject([{ summary: "Replacement refused" }]);
  });
});
