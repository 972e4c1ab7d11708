// scripts/build-action.mjs: the bundle is reproducible (CI compares it with the committed one) and its
// start-up shortcuts keep undici's behaviour.
import { constants } from "node:http2";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = mkdtempSync(path.join(tmpdir(), "siteops-build-action-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface BuildModule {
  default(options: { root: string; outDir: string; quiet: boolean }): Promise<{ outfile: string }>;
  HTTP2_CONSTANTS: Record<string, string | number>;
}
const load = async (): Promise<BuildModule> => (await import(pathToFileURL(path.join(root, "scripts/build-action.mjs")).href)) as BuildModule;

it("builds the same bytes twice, with no absolute path of this machine in them", async () => {
  const build = await load();
  const a = await build.default({ root, outDir: path.join(dir, "a"), quiet: true });
  await build.default({ root, outDir: path.join(dir, "b"), quiet: true });
  const files = readdirSync(path.join(dir, "a")).sort();
  expect(files).toEqual(["index.js", "llhttp.wasm", "llhttp_simd.wasm", "package.json"]);
  for (const file of files) expect([file, readFileSync(path.join(dir, "a", file)).equals(readFileSync(path.join(dir, "b", file)))]).toEqual([file, true]);
  const bundle = readFileSync(a.outfile, "utf8");
  expect(bundle).not.toContain(root);
  // undici's parser is read from the .wasm files beside the bundle, not from base64 inside it.
  expect(bundle).not.toContain("AGFzbQ");
  expect(JSON.parse(readFileSync(path.join(dir, "a", "package.json"), "utf8"))).toEqual({ type: "module", private: true });
});

it("gives undici's HTTP/2 client the same constants node:http2 has", async () => {
  const { HTTP2_CONSTANTS } = await load();
  for (const [name, value] of Object.entries(HTTP2_CONSTANTS)) expect([name, (constants as Record<string, unknown>)[name]]).toEqual([name, value]);
});
