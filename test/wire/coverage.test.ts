// Every field of the wire reaches every part that shows or takes the resource: for each field of the site's and the
// webhook endpoint's tables (wire/generated/fields.ts), each consumer either uses it or leaves it out by name with a
// reason. The consumers: the CLI (--json fields, a record's rows, create/update flags and the body they send), the
// provider's resource (an attribute; an argument where create or update takes it; filled from an answer), its data
// sources, `siteops export` (an argument written) and the emulator (stored, shown and changed, over HTTP). A field
// the wire gains that a consumer drops fails here, naming the consumer and the field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as core from "../../src/index.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { SITE } from "../../cli/commands/sites/index.js";
import { WEBHOOK_ENDPOINT } from "../../cli/commands/webhooks/index.js";
import type { Parsed } from "../../cli/args.js";
import type { ResourceFields } from "../../cli/wire-fields.js";
import { siteDataSourceSchema } from "../../provider/data-sources/site-data-source.js";
import { sitesDataSourceSchema } from "../../provider/data-sources/sites-data-source.js";
import { EXPORTS } from "../../provider/export/arguments.js";
import { Diagnostics } from "../../provider/framework/diagnostics.js";
import type { Schema } from "../../provider/framework/schema.js";
import { ResponseFields } from "../../provider/response-fields.js";
import { siteAttributes } from "../../provider/resources/site-resource.js";
import { SITE_LAYERS, siteSchema } from "../../provider/resources/site-schema.js";
import { WEBHOOK_ENDPOINT_LAYERS, webhookEndpointSchema } from "../../provider/resources/webhook-endpoint-schema.js";
import { leftOutOf, type Layers } from "../../provider/wire-attributes.js";
import { siteFields, webhookEndpointFields, type FieldTable, type WireField } from "../../wire/generated/fields.js";
import { api } from "../emulator/helpers.js";
import { ownerSeed, startSeededEmulator } from "../support/emulator.js";
import { SAMPLES, sampleValue } from "./samples.js";

/** A consumer's verdict on one field: "used", or why it leaves the field out; undefined: neither (the failure). */
type Verdict = "used" | { leftOut: string } | undefined;
type Consumer = (name: string, field: WireField) => Verdict;

/** One line per field a consumer neither uses nor leaves out with a reason. */
function coverageProblems(table: FieldTable, consumers: Record<string, Consumer>): string[] {
  const problems: string[] = [];
  for (const [who, consumer] of Object.entries(consumers)) {
    for (const [name, field] of Object.entries(table)) {
      const verdict = consumer(name, field);
      if (verdict === undefined) problems.push(`${who}: ${name} is neither used nor left out`);
      else if (verdict !== "used" && verdict.leftOut.length < 20) problems.push(`${who}: ${name} is left out without a reason`);
    }
  }
  return problems;
}

const reason = (text: string | undefined): Verdict => (text === undefined ? undefined : { leftOut: text });

/** The CLI: --json selects it, a record's rows show it, and create (and update) set it from their flags. */
function cli(fields: ResourceFields, table: FieldTable, requests: readonly ("create" | "update")[]): Consumer {
  const record = Object.fromEntries(Object.keys(table).map((n) => [n, sampleValue(table, n)]));
  const shows = (name: string) => fields.rows({ ...record, [name]: `«${name}»` }).some(([, value]) => value === `«${name}»`);
  const bodies = Object.fromEntries(requests.map((r) => [r, fields.body(everyFlag(fields, r), r)]));
  return (name, field) => {
    if (fields.leftOut[name]) return reason(fields.leftOut[name]);
    if (field.read !== false && !(fields.jsonFields.includes(name) && shows(name))) return undefined;
    for (const r of requests) if (field[r] !== false && !(name in bodies[r]!)) return undefined;
    return "used";
  };
}

/** Parsed flags that give every flag of the request a value. */
function everyFlag(fields: ResourceFields, request: "create" | "update"): Parsed {
  const flags = Object.fromEntries(fields.flags(request).map((f) => [f.name, f.type === "boolean" ? true : f.multiple ? ["a"] : (f.choices?.[0] ?? "6.5")]));
  return { flags, args: [] };
}

/** The provider's resource: an attribute (an argument where the API takes it), or left out in its layers. */
function resource(schema: Schema, layers: Layers<FieldTable>, filled?: (record: object) => object): Consumer {
  const leftOut = leftOutOf(layers);
  return (name, field) => {
    if (leftOut[name]) return reason(leftOut[name]);
    const a = schema.attributes[name];
    if (!a) return undefined;
    if ((field.create !== false || field.update) && !(a.required || a.optional)) return undefined;
    if (filled && !(name in filled({}))) return undefined;
    return "used";
  };
}

/** A data source: an attribute of it, or left out with its reason. */
function dataSource(schema: Schema, leftOut: Record<string, string>): Consumer {
  return (name) => (leftOut[name] ? reason(leftOut[name]) : name in schema.attributes ? "used" : undefined);
}

/** siteops export: an argument it writes, or not an argument of the resource (computed, or left out by it). */
function exporter(e: (typeof EXPORTS)[keyof typeof EXPORTS], layers: Layers<FieldTable>): Consumer {
  const leftOut = { ...leftOutOf(layers), ...e.leftOut };
  return (name) => {
    if (leftOut[name]) return reason(`the resource leaves it out: ${leftOut[name]}`);
    const a = e.schema.attributes[name];
    if (a && !(a.required || a.optional)) return { leftOut: "computed only: the service's to set, so no argument to write" };
    return e.names.includes(name) ? "used" : undefined;
  };
}

const siteRecord = (): core.Site =>
  Object.fromEntries(Object.keys(siteFields).map((n) => [n, sampleValue(siteFields, n, 0, SAMPLES.site)])) as unknown as core.Site;

describe("every wire field reaches every consumer, or is left out by name with a reason", () => {
  let emu: RunningEmulator;
  const token = "sot_coverageOwner000000000000000001";
  /** The emulator: what create and update take is stored and shown back (the row mapping and its columns). */
  const emulator: Record<string, Consumer> = {};

  beforeAll(async () => {
    emu = await startSeededEmulator(ownerSeed("Coverage", token));
    for (const [resource, table, path] of [
      ["site", siteFields, "/sites"],
      ["webhookEndpoint", webhookEndpointFields, "/webhook_endpoints"],
    ] as const) {
      const body = (request: "create" | "update", n: 0 | 1) =>
        Object.fromEntries(
          Object.entries(table as FieldTable).flatMap(([name, f]) => (f[request] === false ? [] : [[name, sampleValue(table, name, n, SAMPLES[resource])]])),
        );
      const sent = { create: body("create", 0), update: body("update", 1) };
      const created = await api(emu, "POST", path, { token, body: sent.create });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const updated = await api(emu, "PATCH", `${path}/${created.body.id}`, { token, body: sent.update });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      const read = (await api(emu, "GET", `${path}/${created.body.id}`, { token })).body;
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      // Shown where answers show it; what create took, in the create's answer; what update took, read back after it.
      emulator[resource] = (name, field) => {
        if (field.read === true && !(name in read)) return undefined;
        if (field.read === "created" && !(name in created.body)) return undefined;
        if (field.read !== false && field.create !== false && !same(created.body[name], sent.create[name])) return undefined;
        if (field.update && !same(read[name], sent.update[name])) return undefined;
        return "used";
      };
    }
  });
  afterAll(() => emu?.close());

  it("the site: the CLI, siteops_site, data siteops_site and siteops_sites, siteops export, the emulator", () => {
    const diags = new Diagnostics();
    const filled = () => siteAttributes(siteRecord(), "GET /api/v1/sites", new ResponseFields(core, diags));
    const dataLeftOut = { ...leftOutOf(SITE_LAYERS) };
    const element = { attributes: Object.fromEntries(Object.keys(sitesDataSourceSchema.attributes.sites.type[1][1]).map((n) => [n, {}])) } as Schema;
    const problems = coverageProblems(siteFields, {
      CLI: cli(SITE, siteFields, ["create", "update"]),
      "resource siteops_site": resource(siteSchema, SITE_LAYERS, filled),
      'data "siteops_site"': dataSource(siteDataSourceSchema, dataLeftOut),
      'data "siteops_sites"': dataSource(element, dataLeftOut),
      "siteops export": exporter(EXPORTS.siteops_site, SITE_LAYERS),
      emulator: emulator.site!,
    });
    expect(problems).toEqual([]);
    expect(diags.items).toEqual([]);
  });

  it("the webhook endpoint: the CLI, siteops_webhook_endpoint, siteops export, the emulator", () => {
    const noUpdate = "the CLI has no `webhooks update`: an endpoint is changed with Terraform or the console";
    const cliUse = cli(WEBHOOK_ENDPOINT, webhookEndpointFields, ["create"]);
    const problems = coverageProblems(webhookEndpointFields, {
      CLI: (name, field) => cliUse(name, field) ?? (field.update && field.create === false ? { leftOut: noUpdate } : undefined),
      "resource siteops_webhook_endpoint": resource(webhookEndpointSchema, WEBHOOK_ENDPOINT_LAYERS),
      "data sources": () => ({ leftOut: "the provider has no webhook endpoint data source" }),
      "siteops export": exporter(EXPORTS.siteops_webhook_endpoint, WEBHOOK_ENDPOINT_LAYERS),
      emulator: emulator.webhookEndpoint!,
    });
    expect(problems).toEqual([]);
  });

  it("fails, naming the consumer and the field, when a consumer drops a field the wire has", () => {
    const notes = { ...siteFields, notes: { ...siteFields.name, create: "optional", nullable: true } } as FieldTable;
    const handList = ["id", "name", "url", "status", "wp_version", "php_version", "created_at", "updated_at"];
    expect(coverageProblems(notes, { "a hand-kept list": (name) => (handList.includes(name) ? "used" : undefined) })).toEqual([
      "a hand-kept list: notes is neither used nor left out",
    ]);
    expect(coverageProblems(notes, { terse: (name) => (name === "notes" ? { leftOut: "no" } : "used") })).toEqual([
      "terse: notes is left out without a reason",
    ]);
  });
});
