// The core's import graph has no cycles, counting type-only imports too: every module stands above what it
// imports (resources, pagination, uploads, auth and operations take the request types and a client
// interface from below, never the client module); and endpoint paths are built one way. What the other parts
// import of it: scripts/check-boundaries.mjs.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "../../src");

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(file);
    return entry.name.endsWith(".ts") ? [file] : [];
  });
}

function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => path.resolve(path.dirname(file), name.replace(/\.js$/, ".ts")));
}

/** Every cycle's members, found with Tarjan's strongly connected components. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const members: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        members.push(path.relative(SRC, w));
      } while (w !== v);
      if (members.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(members.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

describe("the core's structure", () => {
  it("has no import cycles, type-only imports included", () => {
    const graph = new Map(modules(SRC).map((file) => [file, importsOf(file)]));
    expect(graph.size).toBeGreaterThan(20);
    expect(cycles(graph)).toEqual([]);
  });

  it("writes the version prefix in one place: every path is built by apiPath (internal/api-path.ts)", () => {
    const outside = modules(SRC)
      .filter((file) => !file.endsWith(path.join("internal", "api-path.ts")) && !file.includes(`${path.sep}generated${path.sep}`))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ line, at: `${path.relative(SRC, file)}:${i + 1}` }))
          // Comments may name endpoints; code may not spell the prefix.
          .filter(({ line }) => /["'`]\/api\/v1/.test(line) && !/^\s*(\/\/|\*|\/\*\*)/.test(line))
          .map(({ at }) => at),
      );
    expect(outside).toEqual([]);
  });
});
