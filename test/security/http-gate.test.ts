// Issue 48 items 2 and 3: where a rollout's HTTP gate may go. A site's URL is set by any member and its server
// answers with redirects of its choosing, so the gate never reaches a link-local address or a cloud metadata
// service (169.254.0.0/16, fe80::/10, fd00:ec2::254, the names that resolve to them; the webhooks' rule,
// common/addresses.ts): each hop's host is checked, and each address a name resolves to as the connection is made,
// so the refusal comes before any connection. Nothing here leaves the machine: a resolver stub maps names to such
// addresses. Loopback stays allowed (the tests' WordPress stand-ins are on 127.0.0.1). A check path
// (`--check-path`, the action's `check-paths`) with a backslash or a dot segment, percent-encoded or not, is refused
// at once naming the flag or input, and the gate asks only URLs of the site's origin under its path. The emulator
// refuses such addresses as site URLs, as it does for webhooks, on both profiles. And what held in the audit: no
// credential reaches a site, redirect loops and `file:` redirects fail cleanly.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkHttp, checkPathProblem } from "../../src/fleet.js";
import { SiteOps } from "../../src/index.js";
import { runAction } from "../action/run-action.js";
import { runCli, sandbox } from "../cli/helpers.js";
import { PROFILES, startSeededEmulator, ownerSeed } from "../support/emulator.js";
import { resolverStub as stub } from "./helpers.js";

/** A loopback server that answers each path as `routes` says, and records every request it gets. */
interface Recorder {
  url: string;
  port: number;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}
async function recorder(host: string, routes: Record<string, { status: number; location?: string }> = {}): Promise<Recorder> {
  const requests: Recorder["requests"] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", headers: req.headers });
    const route = routes[req.url ?? ""];
    res.writeHead(route?.status ?? 200, route?.location ? { location: route.location } : { "content-type": "text/html" });
    res.end(route ? "" : "<html>Just another WordPress site</html>");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

let site: Recorder;
let other: Recorder;
beforeAll(async () => {
  other = await recorder("127.0.0.2");
  site = await recorder("127.0.0.1", {
    "/to-metadata": { status: 302, location: "http://169.254.169.254/latest/meta-data/" },
    "/to-named": { status: 301, location: "/hop" },
    "/hop": { status: 307, location: "http://meta.test/latest/meta-data/" },
    "/to-v6": { status: 302, location: "http://[fd00:ec2::254]/latest/meta-data/" },
    "/to-mapped": { status: 302, location: "http://[::ffff:169.254.169.254]/" },
    "/to-gce": { status: 302, location: "http://metadata.google.internal/computeMetadata/v1/" },
    "/loop": { status: 302, location: "/loop" },
    "/to-file": { status: 302, location: "file:///etc/passwd" },
  });
});
afterAll(async () => {
  await site?.close();
  await other?.close();
});

describe("the HTTP gate never reaches a link-local address or a metadata service", () => {
  it.each([
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local, metadata, unspecified or reserved address"],
    ["http://[fe80::1]/", "fe80::1 is a link-local, metadata, unspecified or reserved address"],
    ["http://[fd00:ec2::254]/", "fd00:ec2::254 is a link-local, metadata, unspecified or reserved address"],
    ["http://[::ffff:a9fe:a9fe]/", "::ffff:a9fe:a9fe is a link-local, metadata, unspecified or reserved address"],
    ["http://metadata.google.internal/", "metadata.google.internal is a metadata service"],
  ])("a site at %s is refused before any request", async (url, why) => {
    const lookup = stub({});
    expect(await checkHttp(url, "/", { lookup })).toMatchObject({ ok: false, status: null, detail: `GET /: refused: ${why}` });
    expect(lookup.asked).toEqual([]);
  });

  it("a name that resolves to one is refused as the connection is made: nothing is asked of any address", async () => {
    for (const [name, addresses] of [
      ["meta.test", ["169.254.169.254"]],
      ["v6.test", ["fe80::a9fe:a9fe"]],
      ["aws6.test", ["fd00:ec2::254"]],
      // One refused address refuses the name: the loopback one it also has is not asked either.
      ["mixed.test", ["127.0.0.1", "169.254.170.2"]],
    ] as const) {
      const lookup = stub({ [name]: [...addresses] });
      const before = site.requests.length;
      const check = await checkHttp(`http://${name}:${site.port}/`, "/", { lookup });
      expect(check).toMatchObject({ ok: false, status: null });
      expect(check.detail).toMatch(new RegExp(`^GET /: refused: ${name} resolves to .+, a link-local, metadata, unspecified or reserved address$`));
      expect(lookup.asked).toEqual([name]);
      expect(site.requests.length).toBe(before);
    }
  });

  it("every redirect hop is checked: to a metadata address, literal or by name, the gate stops before it", async () => {
    const lookup = stub({ "meta.test": ["169.254.169.254"] });
    for (const [path, why] of [
      ["/to-metadata", "refused (redirected to http://169.254.169.254): 169.254.169.254 is a link-local"],
      ["/to-v6", "refused (redirected to http://[fd00:ec2::254]): fd00:ec2::254 is a link-local"],
      ["/to-mapped", "refused (redirected to http://[::ffff:a9fe:a9fe]): ::ffff:a9fe:a9fe is a link-local"],
      ["/to-gce", "refused (redirected to http://metadata.google.internal): metadata.google.internal is a metadata service"],
      ["/to-named", "refused: meta.test resolves to 169.254.169.254, a link-local"],
    ] as const) {
      const check = await checkHttp(site.url, path, { lookup });
      expect(check.ok).toBe(false);
      expect(check.detail).toContain(`GET ${path}: ${why}`);
    }
    expect(site.requests.map((r) => r.path)).toEqual(expect.arrayContaining(["/to-named", "/hop"]));
  });

  it("loopback stays allowed, by address and by name; no credential reaches the site", async () => {
    expect(await checkHttp(site.url, "/", { lookup: stub({}) })).toMatchObject({ ok: true, status: 200 });
    expect(await checkHttp(`http://wp.test:${site.port}/`, "/", { lookup: stub({ "wp.test": ["127.0.0.1"] }) })).toMatchObject({ ok: true, status: 200 });
    expect(await checkHttp(`http://localhost:${site.port}`, "/")).toMatchObject({ ok: true, status: 200 });
    for (const { headers } of site.requests) {
      expect(headers.authorization).toBeUndefined();
      expect(headers.cookie).toBeUndefined();
    }
  });

  it("keeps failing redirect loops and file: redirects cleanly", async () => {
    expect(await checkHttp(site.url, "/loop")).toMatchObject({ ok: false, status: 302, detail: "GET /loop: more than 20 redirects" });
    expect(await checkHttp(site.url, "/to-file")).toMatchObject({ ok: false, detail: "GET /to-file: redirected to a file: URL, not followed" });
  });
});

describe("check paths stay on the site", () => {
  const HOSTILE = [`/\\/127.0.0.2:PORT/x`, "/\\\\evil.example/", "/%2e%2e/", "/%2E./admin", "/a/../../b", "/./x", "/%5c%5cevil.example/"];

  it("refuses backslashes and dot segments, percent-encoded or not; ordinary paths pass", () => {
    for (const path of HOSTILE) expect(checkPathProblem(path), path).toMatch(/^must not contain (a backslash|\. or \.\. segments)$/);
    for (const path of ["/", "/shop", "/wp-json/wp/v2/posts?per_page=1", "/a.b/c..d/", "/?p=..", "/blog/#.."])
      expect(checkPathProblem(path), path).toBeUndefined();
  });

  it("the gate asks nothing outside the site's origin and path", async () => {
    for (const path of HOSTILE.map((p) => p.replace("PORT", String(other.port)))) {
      const check = await checkHttp(`${site.url}/blog/`, path);
      expect(check, path).toMatchObject({ ok: false, status: null });
      expect(check.detail).toMatch(/the check path must not contain/);
    }
    expect(other.requests).toEqual([]);
  });

  it("--check-path and 'check-paths' refuse them at once, naming the flag and the input", async () => {
    const box = sandbox({ SITEOPS_BASE_URL: "http://127.0.0.1:9", SITEOPS_API_TOKEN: "sot_unused" });
    try {
      for (const path of ["/\\/127.0.0.2:39991/x", "/%2e%2e/"]) {
        const r = await runCli(["upgrade", "rollout", "--all", "--to-wp", "6.8", "--check-path", path], { env: box.env });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/^error: --check-path must not contain (a backslash|\. or \.\. segments) \(got /);
      }
    } finally {
      box.cleanup();
    }
    const a = await runAction({
      "api-token": "sot_unused",
      "base-url": "http://127.0.0.1:9",
      command: "rollout",
      site: "all",
      "wp-version": "6.9",
      "check-paths": "/\n/\\\\evil.example/\n/a/../b",
    });
    expect(a.code).toBe(1);
    expect(a.errors[0]).toContain(`'check-paths' must not contain a backslash (got "/\\\\\\\\evil.example/")`);
    expect(a.errors[0]).toContain(`'check-paths' must not contain . or .. segments (got "/a/../b")`);
  });
});

describe.each(PROFILES)("the emulator (%s profile): no site at a link-local or metadata address", (profile) => {
  it("refuses them as a site's URL on create and update (422 on url), as for webhooks", async () => {
    const emu = await startSeededEmulator(ownerSeed("Acme", "sot_gateOwnerToken000001", 1), { profile });
    const client = new SiteOps({ baseUrl: emu.url, apiToken: "sot_gateOwnerToken000001", maxRetries: 0 });
    try {
      for (const url of [
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/",
        "https://[fd00:ec2::254]/",
        "http://metadata.google.internal/",
        "http://0.0.0.0/",
      ]) {
        await expect(client.sites.create({ name: "Meta", url }), url).rejects.toMatchObject({
          status: 422,
          message: expect.stringContaining("must not be a link-local, metadata or unspecified address"),
        });
      }
      const [first] = await client.sites.list().toArray();
      await expect(client.sites.update(first!.id, { url: "http://169.254.169.254/" })).rejects.toMatchObject({ status: 422 });
      // Loopback and private addresses stay allowed: a site may live on them.
      await expect(client.sites.create({ name: "Local", url: "http://127.0.0.1:8080/" })).resolves.toMatchObject({ name: "Local" });
    } finally {
      await client.close();
      await emu.close();
    }
  });
});
