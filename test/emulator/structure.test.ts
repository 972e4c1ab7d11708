// The emulator's layers as the README describes them: routes/ (HTTP only) -> services/ (rules,
// transitions, activity, events) -> store/ (the only SQL), no import cycle (scripts/check-cycles.mjs,
// which CI runs over the whole tree, type-only imports included), and small files.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { findCycles } from "../../scripts/check-cycles.mjs";
import { removeDir, tempDir } from "../support/temp.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EMULATOR = path.join(ROOT, "emulator");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const full = path.join(dir, n);
    return statSync(full).isDirectory() ? sources(full) : n.endsWith(".ts") ? [full] : [];
  });
}

const rel = (f: string): string => path.relative(EMULATOR, f).split(path.sep).join("/");
const imports = (f: string): string[] =>
  [...readFileSync(f, "utf8").matchAll(/^(?:import|export)\b[^;]*?from\s+"([^"]+)"/gms)].map((m) => path.posix.join(path.posix.dirname(rel(f)), m[1]!));

describe("emulator/", () => {
  const files = sources(EMULATOR);

  it("runs SQL in store/ only", () => {
    const offenders = files.filter((f) => !rel(f).startsWith("store/") && /\b(stmt|prepare)\(|\bdb\.exec\(/.test(readFileSync(f, "utf8")));
    expect(offenders.map(rel)).toEqual([]);
  });

  it("imports downwards only: routes -> services -> store", () => {
    const bad: string[] = [];
    for (const f of files) {
      const from = rel(f);
      for (const to of imports(f)) {
        if (from.startsWith("routes/") && to.startsWith("store/")) bad.push(`${from} -> ${to}`);
        if (from.startsWith("services/") && to.startsWith("routes/")) bad.push(`${from} -> ${to}`);
        if (from.startsWith("store/") && (to.startsWith("services/") || to.startsWith("routes/"))) bad.push(`${from} -> ${to}`);
        if (to === "app.js" && from !== "server.ts") bad.push(`${from} -> ${to}`); // only the server builds the app
      }
    }
    expect(bad).toEqual([]);
  });

  it("has no file above ~200 lines but migrations and the vulnerability catalogue", () => {
    const exempt = (f: string): boolean => f === "store/migrations.ts" || f === "catalogue/vulnerabilities.ts";
    const long = files.filter((f) => !exempt(rel(f)) && readFileSync(f, "utf8").split("\n").length > 210).map(rel);
    expect(long).toEqual([]);
  });

  it("has no import cycle, type-only imports included", async () => {
    expect(await findCycles({ dirs: ["emulator"] })).toEqual([]);
  });
});

describe("scripts/check-cycles.mjs", () => {
  it("finds a cycle, also one made of type-only imports", async () => {
    const dir = tempDir("cycles");
    try {
      writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }));
      writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b.js";\nexport const a = () => b;\n');
      writeFileSync(path.join(dir, "b.ts"), 'import type { C } from "./c.js";\nexport const b = 1;\nexport type B = C;\n');
      // An import type (a TSImportType node): walking it printed a DeprecationWarning ('argument') into npm test.
      writeFileSync(path.join(dir, "c.ts"), 'import type { B } from "./b.js";\nexport type C = { b?: B; d?: typeof import("./d.js").d };\n');
      writeFileSync(path.join(dir, "d.ts"), "export const d = 1;\n");
      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on("warning", onWarning);
      const cycles = (await findCycles({ root: dir, dirs: ["."] })) as string[][];
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      process.off("warning", onWarning);
      expect(cycles.map((c) => [...c].sort().join(" "))).toEqual(["b.ts c.ts"]);
      expect(warnings.map((w) => w.message)).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });
});
