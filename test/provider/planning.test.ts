// Planning in nested blocks, the resource-level modifyPlan hook, and the identity attribute (state checks and
// import passthrough), through ProviderServer's RPCs with msgpack on the wire.
import { describe, expect, it } from "vitest";
import { path } from "../../provider/framework/diagnostics.js";
import { requiresReplace, useStateForUnknown } from "../../provider/framework/plan-modifiers.js";
import { planObject } from "../../provider/framework/planning.js";
import { ProviderServer } from "../../provider/framework/provider-server.js";
import type { ProviderDefinition, Resource } from "../../provider/framework/resource.js";
import { blockType, defineSchema } from "../../provider/framework/schema.js";
import { Unknown, isUnknown, type ObjectValue } from "../../provider/values/cty.js";
import { decodeMsgpack, encodeMsgpack } from "../../provider/values/cty-msgpack.js";

const schema = defineSchema({
  description: "a server with firewall rules",
  attributes: {
    id: { type: "string", computed: true, description: "", planModifiers: [useStateForUnknown()] },
    name: { type: "string", required: true, description: "" },
    size: { type: "string", optional: true, computed: true, description: "" },
  },
  blocks: {
    rule: {
      nesting: "list",
      block: {
        attributes: {
          port: { type: "number", required: true, description: "" },
          protocol: { type: "string", optional: true, computed: true, default: "tcp", description: "" },
          rule_id: { type: "string", computed: true, description: "", planModifiers: [useStateForUnknown()] },
          zone: { type: "string", optional: true, description: "", planModifiers: [requiresReplace()] },
        },
      },
    },
    disk: {
      nesting: "map",
      block: { attributes: { gb: { type: "number", required: true, description: "" }, disk_id: { type: "string", computed: true, description: "" } } },
    },
  },
});
const type = blockType(schema);
const wire = (v: ObjectValue | null) => ({ msgpack: encodeMsgpack(type, v) });
const read = (dv: { msgpack?: Uint8Array } | undefined) => decodeMsgpack(type, dv!.msgpack!) as ObjectValue;

const rule = (over: ObjectValue = {}): ObjectValue => ({ port: 80, protocol: null, rule_id: null, zone: null, ...over });
const config = (over: ObjectValue = {}): ObjectValue => ({ id: null, name: "web", size: null, rule: [rule()], disk: {}, ...over });

describe("planning recurses into nested blocks", () => {
  it("create: nested defaults are planned and nested computed attributes become unknown", () => {
    const { plan } = planObject(schema, null, config(), config());
    const [r] = plan.rule as ObjectValue[];
    expect(r!.protocol).toBe("tcp");
    expect(r!.rule_id).toBeInstanceOf(Unknown);
    expect(plan.size).toBeInstanceOf(Unknown);
  });

  it("update: nested plan modifiers see the prior element at the same path", () => {
    const prior = config({
      id: "s_1",
      size: "m",
      rule: [rule({ protocol: "tcp", rule_id: "r_1", zone: "eu" }), rule({ port: 443, protocol: "tcp", rule_id: "r_2" })],
    });
    const proposed = {
      ...prior,
      name: "web2",
      rule: [rule({ protocol: "tcp", rule_id: "r_1", zone: "us" }), rule({ port: 443, protocol: "tcp", rule_id: "r_2" })],
    };
    const cfg = config({ name: "web2", rule: [rule({ zone: "us" }), rule({ port: 443 })] });
    const { plan, requiresReplace: rr } = planObject(schema, prior, proposed, cfg);
    const rules = plan.rule as ObjectValue[];
    expect(rules.map((r) => r.rule_id)).toEqual(["r_1", "r_2"]); // UseStateForUnknown, per element
    expect(plan.id).toBe("s_1");
    expect(rr).toEqual([path("rule", 0, "zone")]);
  });

  it("map blocks: elements matched by key; a new element keeps its computed attributes unknown", () => {
    const prior = config({ id: "s_1", size: "m", disk: { data: { gb: 10, disk_id: "d_1" } } });
    const proposed = { ...prior, disk: { data: { gb: 10, disk_id: "d_1" }, logs: { gb: 5, disk_id: null } } };
    const { plan } = planObject(schema, prior, proposed, config({ disk: { data: { gb: 10, disk_id: null }, logs: { gb: 5, disk_id: null } } }));
    const disks = plan.disk as Record<string, ObjectValue>;
    expect(disks.data!.disk_id).toBeInstanceOf(Unknown); // the resource changed: computed without a modifier is unknown
    expect(disks.logs!.disk_id).toBeInstanceOf(Unknown);
  });

  it("does not change the values it is given", () => {
    const cfg = config();
    const before = JSON.stringify(cfg);
    planObject(schema, null, cfg, cfg);
    expect(JSON.stringify(cfg)).toBe(before);
  });
});

const calls: string[] = [];
const server: Resource<{ zones: string[] }, typeof schema, "id"> = {
  typeName: "test_server",
  schema,
  identity: "id",
  async modifyPlan({ plan, prior, requiresReplace: rr }, diags, ctx) {
    calls.push(`modifyPlan data=${ctx.data ? "yes" : "no"}`);
    // A remote default the API decides from the configuration, known at plan time.
    if (isUnknown(plan.size)) plan.size = plan.name === "big" ? "xl" : "m";
    if (prior && plan.name !== prior.name && typeof plan.name === "string" && plan.name.startsWith("new-")) rr.push(path("name"));
    if (plan.name === "forbidden") diags.error("Name not allowed", "pick another", path("name"));
  },
  async create({ plan }) {
    return { state: { ...plan, id: "s_1", size: plan.size ?? "m", rule: plan.rule.map((r, i) => ({ ...r, rule_id: `r_${i}` })) } };
  },
  async read({ state }) {
    calls.push(`read ${state.id}`);
    return { state: null };
  },
  async update({ plan }) {
    return { state: plan };
  },
  async delete({ prior }) {
    calls.push(`delete ${prior.id}`);
  },
};
const def: ProviderDefinition<{ zones: string[] }> = {
  typeName: "test",
  schema: { description: "p", attributes: {} },
  async configure() {
    return { zones: ["eu"] };
  },
  resources: [server],
  dataSources: [],
};

describe("modifyPlan and identity, through the RPCs", () => {
  const rpc = new ProviderServer(def);

  it("modifyPlan runs after the framework's rules, may set values, ask for replacement, or refuse", async () => {
    const created = await rpc.planResourceChange({
      type_name: "test_server",
      prior_state: wire(null),
      proposed_new_state: wire(config({ name: "big" })),
      config: wire(config({ name: "big" })),
    });
    expect(created.diagnostics).toEqual([]);
    const plan = read(created.planned_state);
    expect(plan.size).toBe("xl");
    expect(isUnknown(plan.id)).toBe(true);
    expect(calls).toContain("modifyPlan data=no"); // planned before ConfigureProvider: no provider data

    await rpc.configureProvider({});
    const prior = config({ id: "s_1", size: "m", name: "web", rule: [rule({ protocol: "tcp", rule_id: "r_0" })] });
    const renamed = { ...prior, name: "new-web" };
    const replaced = await rpc.planResourceChange({
      type_name: "test_server",
      prior_state: wire(prior),
      proposed_new_state: wire(renamed),
      config: wire(config({ name: "new-web" })),
    });
    expect(replaced.requires_replace).toEqual([{ steps: [{ attribute_name: "name" }] }]);
    expect(calls).toContain("modifyPlan data=yes");

    const refused = await rpc.planResourceChange({
      type_name: "test_server",
      prior_state: wire(null),
      proposed_new_state: wire(config({ name: "forbidden" })),
      config: wire(config({ name: "forbidden" })),
    });
    expect(refused.diagnostics).toMatchObject([{ summary: "Name not allowed", attribute: { steps: [{ attribute_name: "name" }] } }]);
    expect(refused.planned_state).toBeUndefined();
  });

  it("import passes the id through to the identity attribute, and refuses an empty one", async () => {
    const res = await rpc.importResourceState({ type_name: "test_server", id: " s_9 " });
    expect(read(res.imported_resources![0]!.state)).toMatchObject({ id: "s_9", name: null });
    const empty = await rpc.importResourceState({ type_name: "test_server", id: "  " });
    expect(empty.diagnostics).toMatchObject([{ summary: "Invalid import ID", attribute: { steps: [{ attribute_name: "id" }] } }]);
  });

  it("a stored state without its identity is reported, not handed to the resource", async () => {
    calls.length = 0;
    const res = await rpc.readResource({ type_name: "test_server", current_state: wire(config()) });
    expect(res.diagnostics).toMatchObject([{ summary: "test_server without id" }]);
    expect(read(res.new_state)).toMatchObject({ name: "web" }); // kept as it was
    const destroy = await rpc.applyResourceChange({ type_name: "test_server", prior_state: wire(config()), planned_state: wire(null), config: wire(null) });
    expect(destroy.diagnostics).toMatchObject([{ summary: "test_server without id" }]);
    expect(calls).toEqual([]);
  });

  it("apply: the resource gets typed models and its state goes back as msgpack", async () => {
    const planned = await rpc.planResourceChange({
      type_name: "test_server",
      prior_state: wire(null),
      proposed_new_state: wire(config()),
      config: wire(config()),
    });
    const applied = await rpc.applyResourceChange({
      type_name: "test_server",
      prior_state: wire(null),
      planned_state: planned.planned_state,
      config: wire(config()),
    });
    expect(applied.diagnostics).toEqual([]);
    expect(read(applied.new_state)).toEqual({ id: "s_1", name: "web", size: "m", rule: [{ port: 80, protocol: "tcp", rule_id: "r_0", zone: null }], disk: {} });
  });
});
