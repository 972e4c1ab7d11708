// Strings from the service are data: a site named to forge log lines or GitHub workflow commands
// ("x\n::warning::y"), or carrying terminal escapes, NULs or bidi overrides, is printed inert (escaped), in
// tables, tab-separated lines, log lines and error messages; JSON output stays exact and valid. The hostile
// names are put in the service's answers by a proxy in front of the emulator, as a service with such data
// stored would send them (the emulator itself refuses control characters in names).
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runInTerminal, useTestBed } from "./helpers.js";

const HOSTILE = "evil\n::warning title=injected::INJECTED\n::add-mask::Acme ##[warning]legacy\u001b[31mRED\u001b]0;title\u0007\u0000\u202eNAME\r";
const DESCRIPTION = "done\n2026-01-01T00:00:00.000Z Shop: snapshot snap_fake completed";

const bed = useTestBed({}, { SITEOPS_POLL_INTERVAL_MS: "20" });
let proxy: Server;
let blogId: string;

beforeAll(async () => {
  blogId = (await bed.emu.so.sites.list()).data.find((s) => s.name === "Blog")!.id;
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on(
      "end",
      () =>
        void (async () => {
          const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length")) as Record<string, string>;
          const upstream = await fetch(`${bed.emu.url}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
          let body = await upstream.text();
          if (upstream.headers.get("content-type")?.includes("json") && body) {
            const rewrite = (value: unknown): unknown => {
              if (Array.isArray(value)) return value.map(rewrite);
              if (value && typeof value === "object") {
                const o = value as Record<string, unknown>;
                if (o.id === blogId) o.name = HOSTILE;
                if (typeof o.id === "string" && o.id.startsWith("snap_")) o.description = DESCRIPTION;
                if (typeof o.error === "string") o.error = `${o.error}\n::error::forged`;
              }
              return value;
            };
            body = JSON.stringify(rewrite(JSON.parse(body)));
          }
          const out: Record<string, string> = {};
          upstream.headers.forEach((v, k) => {
            if (k !== "content-length" && k !== "content-encoding" && k !== "transfer-encoding" && k !== "connection" && k !== "keep-alive") out[k] = v;
          });
          res.writeHead(upstream.status, out).end(body);
        })().catch((err: Error) => res.destroy(err)),
    );
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  const { port } = proxy.address() as { port: number };
  bed.env.SITEOPS_BASE_URL = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await new Promise((r) => proxy.close(r));
});

/** No line can be a workflow command or a forged log line, and nothing acts on a terminal. */
function expectInert(output: string, terminal = false): void {
  const lines = output.split(/\r?\n/);
  for (const line of lines) {
    expect(line).not.toMatch(/^::/);
    expect(line).not.toMatch(/^\s*2026-01-01T00:00:00\.000Z Shop/);
  }
  expect(output).not.toContain("##[");
  expect(output).not.toContain("\u0000");
  expect(output).not.toContain("\u202e");
  expect(output).not.toContain("\u0007");
  expect(output).not.toContain("\u001b]");
  if (!terminal) expect(output).not.toContain("\u001b");
  else expect(output.replace(/\u001b\[(\d+(;\d+)*)?[mFJAK]|\u001b\[\?25[lh]/g, "")).not.toContain("\u001b");
}

describe("hostile strings from the service", () => {
  it("are escaped in tab-separated lists and key/value output", async () => {
    const list = await runCli(["sites", "list"], { env: bed.env });
    expect(list.code).toBe(0);
    expectInert(list.stdout);
    expect(list.stdout).toContain(
      String.raw`evil\n::warning title=injected::INJECTED\n::add-mask::Acme ##\x5bwarning]legacy\x1b[31mRED\x1b]0;title\x07\x00\u202eNAME\r`,
    );
    expect(list.stdout.trim().split("\n")).toHaveLength(2);
    const get = await runCli(["sites", "get", blogId], { env: bed.env });
    expectInert(get.stdout);
    expect(get.stdout.split("\n").find((l) => l.startsWith("name\t"))).toContain(String.raw`evil\n::warning`);
  });

  it("are escaped in log lines, error lines and the summary of a snapshot run", async () => {
    await bed.emu.control("POST", "faults", { rules: [{ method: "POST", path: `/api/v1/sites/${blogId}/snapshots`, status: 422 }] });
    const r = await runCli(["snapshot", "create", "--all"], { env: bed.env });
    await bed.emu.control("DELETE", "faults");
    expect(r.code).toBe(1);
    expectInert(r.stdout);
    expectInert(r.stderr);
    expect(r.stderr).toMatch(/error: evil\\n::warning title=injected::INJECTED\\n::add-mask::Acme.* \(site_\w+\): Injected fault\\n::error::forged \[HTTP 422/);
    const snaps = await runCli(["snapshots", "list", "--site", "Shop"], { env: bed.env });
    expectInert(snaps.stdout);
    expect(snaps.stdout).toContain(String.raw`done\n2026-01-01T00:00:00.000Z Shop: snapshot snap_fake completed`);
  });

  it("are escaped on a terminal too", async () => {
    const r = await runInTerminal(["sites", "list"], bed.env);
    expectInert(r.stdout, true);
    expect(r.stdout).toContain(String.raw`evil\n::warning`);
  });

  it("stay exact in JSON, with every control character escaped", async () => {
    const r = await runCli(["sites", "list", "--json=id,name"], { env: bed.env });
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(r.stdout).toContain("\\u202e");
    const sites = JSON.parse(r.stdout) as { id: string; name: string }[];
    expect(sites.find((s) => s.id === blogId)!.name).toBe(HOSTILE);
    const jsonl = await runCli(["sites", "list", "--jsonl"], { env: bed.env });
    expect(jsonl.stdout.trim().split("\n")).toHaveLength(2);
  });
});
