// The wire's generated outputs come from wire/: src/generated/wire.ts (the client's types) and
// wire/generated/fields.ts (the field tables) are what the generator makes of wire/registry.ts, import nothing,
// and CI (scripts/check-wire.mjs) fails, listing the differences, when a schema changes without a regeneration;
// a field marked neither spec nor assumed is refused.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Snapshot, Site } from "../../src/index.js";
import type { SnapshotJson } from "../../wire/snapshots.js";
import type { SiteJson } from "../../wire/sites.js";
import { siteFields } from "../../wire/generated/fields.js";
import { ROOT } from "../support/paths.js";
import { run, type RunResult } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";

const WIRE = path.join(ROOT, "src/generated/wire.ts");
const FIELDS = path.join(ROOT, "wire/generated/fields.ts");

function check(...args: string[]): Promise<RunResult> {
  return run(process.execPath, [path.join(ROOT, "scripts/check-wire.mjs"), ...args], { cwd: ROOT });
}

// Compile-time: the client's types and the emulator's are the same shapes, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const siteSame: Same<Site, SiteJson> = true;
const snapshotSame: Same<Snapshot, SnapshotJson> = true;

/** A registry module that is wire/registry.ts with the site's schema changed by `site` (JavaScript over SiteSchema). */
function registryWith(dir: string, site: string): string {
  const file = path.join(dir, `registry-${Math.random().toString(36).slice(2)}.ts`);
  const wire = path.join(ROOT, "wire");
  writeFileSync(
    file,
    `import { RESOURCES as R, WIRE_TYPES as W } from ${JSON.stringify(path.join(wire, "registry.ts"))};
import { SiteSchema } from ${JSON.stringify(path.join(wire, "sites.ts"))};
const Site = ${site};
export const WIRE_TYPES = W.map((w) => (w.name === "Site" ? { ...w, schema: Site } : w));
export const RESOURCES = R.map((r) => (r.name === "site" ? { ...r, read: Site } : r));
`,
  );
  return file;
}

describe("the generated wire", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = tempDir("wire-check");
  });
  afterAll(() => removeDir(tmp));

  it("src/generated/wire.ts is generated, imports nothing, and has the types the resources publish", () => {
    expect(siteSame && snapshotSame).toBe(true);
    const text = readFileSync(WIRE, "utf8");
    expect(text).toMatch(/^\/\/ GENERATED FILE - DO NOT EDIT\. Regenerate with `npm run generate:wire`/);
    expect(text).not.toMatch(/^\s*import\b/m);
    for (const name of ["Site", "Snapshot", "UpgradePipeline", "VulnerabilityRecord", "WebhookEndpoint", "ErrorBody", "ValidationErrorBody"]) {
      expect(text).toMatch(new RegExp(`^export (interface|type) ${name}\\b`, "m"));
    }
    // The field the hand-written type had missed.
    expect(text).toMatch(/export interface Snapshot \{[^}]*\n {2}error: string \| null;/);
  });

  it("wire/generated/fields.ts is generated plain data: it imports nothing, and marks the site's seven spec fields", () => {
    const text = readFileSync(FIELDS, "utf8");
    expect(text).toMatch(/^\/\/ GENERATED FILE - DO NOT EDIT\. Regenerate with `npm run generate:wire`/);
    expect(text).not.toMatch(/^\s*import\b/m);
    const spec = Object.entries(siteFields).filter(([, f]) => f.origin === "spec");
    expect(spec.map(([name]) => name)).toEqual(["id", "name", "url", "status", "wp_version", "php_version", "created_at"]);
    expect(siteFields.updated_at.origin).toBe("assumed");
    expect(siteFields.name).toMatchObject({ type: "string", nullable: false, read: true, create: "required", update: true });
  });

  it("is up to date with wire/", async () => {
    const r = await check();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("src/generated/ and wire/generated/ are up to date with wire/");
  });

  it("fails CI when a schema changed without a regeneration, listing the differences of both outputs", async () => {
    const registry = registryWith(
      tmp,
      `{ ...SiteSchema, properties: { ...SiteSchema.properties, x_added: { type: "string", "x-origin": "assumed" } }, required: [...SiteSchema.required, "x_added"] }`,
    );
    const r = await check("--registry", registry);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("src/generated/ and wire/generated/ are stale");
    expect(r.stderr).toContain("src/generated/wire.ts differs:");
    expect(r.stderr).toContain("@ export interface Site {");
    expect(r.stderr).toContain("+   x_added: string;");
    expect(r.stderr).toContain("wire/generated/fields.ts differs:");
    expect(r.stderr).toMatch(/\+ {3}x_added: \{ type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" \},/);
    expect(r.stderr).toContain("Run `npm run generate:wire`");
  });

  it("refuses a field marked neither spec nor assumed", async () => {
    const registry = registryWith(tmp, `{ ...SiteSchema, properties: { ...SiteSchema.properties, x_added: { type: "string" } } }`);
    const r = await check("--registry", registry);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("site.x_added is not marked: wrap its schema in spec() or assumed() (wire/field.ts)");
  });
});
