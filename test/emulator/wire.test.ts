// The client's wire types come from the emulator's schemas: src/generated/wire.ts is what the generator
// makes of emulator/schemas/wire.ts, imports nothing, and CI (scripts/check-wire.mjs) fails, listing the
// differences, when a schema changes without a regeneration.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Snapshot, Site } from "../../src/index.js";
import type { SnapshotJson } from "../../wire/snapshots.js";
import type { SiteJson } from "../../wire/sites.js";
import { ROOT } from "../support/paths.js";
import { run, type RunResult } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";

const WIRE = path.join(ROOT, "src/generated/wire.ts");

function check(...args: string[]): Promise<RunResult> {
  return run(process.execPath, [path.join(ROOT, "scripts/check-wire.mjs"), ...args], { cwd: ROOT });
}

// Compile-time: the client's types and the emulator's are the same shapes, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const siteSame: Same<Site, SiteJson> = true;
const snapshotSame: Same<Snapshot, SnapshotJson> = true;

describe("src/generated/wire.ts", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = tempDir("wire-check");
  });
  afterAll(() => removeDir(tmp));

  it("is generated, imports nothing, and has the types the resources publish", () => {
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

  it("is up to date with the emulator's schemas", async () => {
    const r = await check();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("src/generated/ is up to date");
  });

  it("fails CI when a schema changed without a regeneration, listing the differences", async () => {
    const registry = path.join(tmp, "wire.ts");
    const schemas = path.join(ROOT, "emulator/schemas");
    writeFileSync(
      registry,
      `import { WIRE_TYPES } from ${JSON.stringify(path.join(schemas, "wire.ts"))};
import { SiteSchema } from ${JSON.stringify(path.join(schemas, "sites.ts"))};
// What Type.Object({ ...SiteSchema.properties, notes: Type.String() }) gives.
const Site = { ...SiteSchema, properties: { ...SiteSchema.properties, notes: { type: "string" } }, required: [...SiteSchema.required, "notes"] };
export const WIRE_TYPES_CHANGED = WIRE_TYPES.map((w) => (w.name === "Site" ? { ...w, schema: Site } : w));
export { WIRE_TYPES_CHANGED as WIRE_TYPES };
`,
    );
    const r = await check("--registry", registry);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("src/generated/ is stale");
    expect(r.stderr).toContain("src/generated/wire.ts differs:");
    expect(r.stderr).toContain("@ export interface Site {");
    expect(r.stderr).toContain("+   notes: string;");
    expect(r.stderr).toContain("Run `npm run generate:wire`");
  });
});
