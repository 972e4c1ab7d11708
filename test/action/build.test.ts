// scripts/build-action.mjs: the bundle is reproducible (CI compares it with the committed one) and its
// start-up shortcuts (scripts/esbuild-undici-pool.mjs and the action's own plugins) keep behaviour while
// loading less before the first request.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ACTION, GITHUB_CONTEXT } from "./run-action.js";
import { removeDir, tempDir } from "../support/temp.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = tempDir("build-action");
afterAll(() => removeDir(dir));

interface BuildModule {
  default(options: { root: string; outDir: string; quiet: boolean }): Promise<{ outfile: string }>;
}
const load = async (): Promise<BuildModule> => (await import(pathToFileURL(path.join(root, "scripts/build-action.mjs")).href)) as BuildModule;

it("builds the same bytes twice, with no absolute path of this machine in them", async () => {
  const build = await load();
  const a = await build.default({ root, outDir: path.join(dir, "a"), quiet: true });
  await build.default({ root, outDir: path.join(dir, "b"), quiet: true });
  const files = (readdirSync(path.join(dir, "a"), { recursive: true }) as string[]).filter((f) => !f.endsWith("lib") && f !== "playwright-core").sort();
  expect(files).toEqual([
    "index.js",
    "llhttp.wasm",
    "llhttp_simd.wasm",
    "package.json",
    // The visual gate's engine and playwright-core, imported only by a rollout with the visual gate.
    "playwright-core/LICENSE",
    "playwright-core/NOTICE",
    "playwright-core/browsers.json",
    "playwright-core/lib/index.mjs",
    "playwright-core/package.json",
    "visual.js",
  ]);
  for (const file of files) expect([file, readFileSync(path.join(dir, "a", file)).equals(readFileSync(path.join(dir, "b", file)))]).toEqual([file, true]);
  const bundle = readFileSync(a.outfile, "utf8");
  expect(bundle).not.toContain(root);
  for (const file of ["visual.js", "playwright-core/lib/index.mjs"])
    expect([file, readFileSync(path.join(dir, "a", file), "utf8").includes(root)]).toEqual([file, false]);
  // undici's parser is read from the .wasm files beside the bundle, not from base64 inside it.
  expect(bundle).not.toContain("AGFzbQ");
  expect(JSON.parse(readFileSync(path.join(dir, "a", "package.json"), "utf8"))).toEqual({ type: "module", private: true });
});

// A server that answers every request with a small JSON body and remembers what it was asked.
let server: Server;
let baseUrl = "";
const seen: { method: string; url: string; headers: Record<string, unknown> }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on("end", () => res.writeHead(401, { "content-type": "application/json", "x-request-id": "req_build" }).end('{"error":"Unauthorized"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Preloaded into the bundle's process: at the first request's write, which Node built-ins had loaded.
const PRELOAD = `
const net = require("node:net");
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function (...args) {
  if (!globalThis.__siteopsSeen && this.remotePort) {
    globalThis.__siteopsSeen = true;
    require("node:fs").writeSync(2, "LOADED " + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13))) + "\\n");
  }
  return write.apply(this, args);
};
`;

it("loads no more of Node than its first request needs, and makes that request as before", async () => {
  const preload = path.join(dir, "preload.cjs");
  writeFileSync(preload, PRELOAD);
  const env = {
    PATH: process.env.PATH ?? "",
    ...GITHUB_CONTEXT,
    INPUT_COMMAND: "snapshot",
    "INPUT_API-TOKEN": "sot_buildTestToken0000000000000001",
    "INPUT_BASE-URL": baseUrl,
    INPUT_SITE: "site_00000000000000000000000001",
    INPUT_WAIT: "false",
  };
  seen.length = 0;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ["-r", preload, ACTION], { env }).catch(
    (err: { stdout: string; stderr: string }) => err,
  );
  const loaded = JSON.parse(/^LOADED (.*)$/m.exec(stderr)?.[1] ?? "null") as string[] | null;
  expect(loaded).not.toBeNull();
  // What undici or the core would otherwise load at start-up, for features the first request does not use.
  for (const name of ["http", "http2", "tls", "assert", "crypto", "worker_threads", "perf_hooks", "zlib"]) {
    expect([name, loaded!.includes(name)]).toEqual([name, false]);
  }
  expect(seen[0]).toMatchObject({ method: "GET", url: "/api/v1/sites/site_00000000000000000000000001" });
  expect(seen[0]!.headers.authorization).toBe("token sot_buildTestToken0000000000000001");
  expect(stdout).toContain("::error::");
  expect(stdout).toContain("401");
});

it("keeps undici's behaviour where the bundle's HTTP client leaves features out", async () => {
  // The shared plugin, on a small entry: a FormData body is refused with a clear error, a JSON request works.
  const { undiciPoolOnly } = (await import(pathToFileURL(path.join(root, "scripts/esbuild-undici-pool.mjs")).href)) as {
    undiciPoolOnly(namespace: string): unknown;
  };
  const esbuild = await import("esbuild");
  const outfile = path.join(dir, "pool-probe.cjs");
  await esbuild.build({
    absWorkingDir: root,
    stdin: {
      contents: [
        'import { Pool } from "undici";',
        "const pool = new Pool(process.env.PROBE_URL, { maxHeaderSize: 16384 });",
        "(async () => {",
        '  const res = await pool.request({ path: "/probe", method: "POST", body: JSON.stringify({ a: 1 }), headers: { "content-type": "application/json" } });',
        "  const body = await res.body.text();",
        "  const http = process.moduleLoadList.includes('NativeModule http');",
        '  const form = new FormData(); form.append("a", "b");',
        '  const formError = await pool.request({ path: "/form", method: "POST", body: form }).then(() => "sent", (err) => `${err.code}: ${err.message}`);',
        "  await pool.close();",
        "  console.log(JSON.stringify({ status: res.statusCode, body, formError, http }));",
        "})();",
      ].join("\n"),
      resolveDir: root,
      loader: "js",
    },
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "error",
    plugins: [undiciPoolOnly("siteops-test") as never],
  });
  seen.length = 0;
  const { stdout } = await promisify(execFile)(process.execPath, [outfile], { env: { PATH: process.env.PATH ?? "", PROBE_URL: baseUrl } });
  expect(JSON.parse(stdout)).toEqual({
    status: 401,
    body: '{"error":"Unauthorized"}',
    formError: "UND_ERR_NOT_SUPPORTED: a FormData request body is not supported by the siteops bundle's HTTP client",
    http: false,
  });
  expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /probe"]);
});
