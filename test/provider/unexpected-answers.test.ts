// Answers whose fields the provider does not find where it reads them, with the real terraform: a proxy in front
// of the emulator renames or re-types fields of its JSON answers (a fault the emulator cannot produce). A field
// the user configured stands in with one warning naming the endpoint and the field; where nothing can stand in
// (an import) it is an error naming them; never a TypeError or "a bug in the provider". Versions written 6.5.0
// for a configured 6.5 keep the configuration's spelling (semantic equality).
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER_TOKEN, Terraform, api } from "./harness.js";

type Rewrite = (record: Record<string, unknown>, request: string) => void;

/** Passes every request to `target`; JSON answers go through `rewrite`, record by record (lists too). */
async function rewritingProxy(target: string) {
  let rewrite: Rewrite = () => {};
  const server = http.createServer((req, res) => {
    const upstream = http.request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on("data", (c: Buffer) => chunks.push(c));
      up.on("end", () => {
        let body = Buffer.concat(chunks);
        const headers = { ...up.headers };
        if (String(headers["content-type"]).includes("json") && body.length) {
          const json = JSON.parse(body.toString("utf8")) as unknown;
          for (const r of Array.isArray(json) ? json : [json])
            if (r && typeof r === "object") rewrite(r as Record<string, unknown>, `${req.method} ${req.url}`);
          body = Buffer.from(JSON.stringify(json));
          headers["content-length"] = String(body.length);
        }
        res.writeHead(up.statusCode!, headers);
        res.end(body);
      });
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(r: Rewrite) {
      rewrite = r;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let tf: Terraform;
let proxy: Awaited<ReturnType<typeof rewritingProxy>>;
beforeAll(async () => {
  tf = await Terraform.start();
  proxy = await rewritingProxy(tf.url);
  tf.write(provider());
  await tf.init();
});
afterAll(async () => {
  await proxy?.close();
  await tf?.close();
});

function provider(): string {
  return `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}

provider "siteops" {
  base_url  = "${proxy.url}"
  api_token = "${OWNER_TOKEN}"
}
`;
}

const endpoint = `
resource "siteops_webhook_endpoint" "hook" {
  url            = "https://hooks.example.com/siteops"
  enabled_events = ["site.created", "site.deleted"]
}
`;
/** Terraform's output on one line: it wraps diagnostics at 78 columns. */
const flat = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).replace(/\s+/g, " ");
const renameEvents: Rewrite = (r) => {
  if ("enabled_events" in r) {
    r.events = r.enabled_events;
    delete r.enabled_events;
  }
};

describe("a webhook endpoint whose answers carry the event list under another name", () => {
  it("applies with the configured events and one warning naming the endpoint and the field", async () => {
    proxy.set(renameEvents);
    tf.write(provider() + endpoint);
    const r = await tf.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = flat(r);
    expect(out).toContain('Warning: Kept the configured value of enabled_events: SiteOps\'s answer has no usable "enabled_events"');
    expect(out).toContain('POST /api/v1/webhook_endpoints: the webhook endpoint has no "enabled_events" (expected an array of strings).');
    expect(out.match(/Warning: Kept the configured value of enabled_events/g)).toHaveLength(1);
    expect(out).not.toMatch(/not iterable|bug in the provider|TypeError/);
    expect(await tf.resource("siteops_webhook_endpoint.hook")).toMatchObject({ enabled_events: ["site.created", "site.deleted"] });
    // A refresh keeps the events in state, with the warning again; nothing to change.
    const p = await tf.plan();
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(flat(p)).toContain("Kept the value in state of enabled_events");
  });

  it("cannot import one: an error naming the endpoint and the field", async () => {
    const other = (await api(tf, "POST", "/api/v1/webhook_endpoints", { url: "https://hooks.example.com/other", enabled_events: ["site.created"] })).json as {
      id: string;
    };
    tf.write(`${provider() + endpoint}
resource "siteops_webhook_endpoint" "other" {
  url = "https://hooks.example.com/other"
}
`);
    const r = await tf.run(["import", "-no-color", "siteops_webhook_endpoint.other", other.id]);
    expect(r.code).toBe(1);
    const out = flat(r);
    expect(out).toContain('Error: SiteOps\'s answer has no usable "enabled_events"');
    expect(out).toContain(`GET /api/v1/webhook_endpoints/${other.id}: the webhook endpoint has no "enabled_events" (expected an array of strings).`);
    expect(out).not.toMatch(/not iterable|bug in the provider/);
    tf.write(provider() + endpoint);
  });

  it("applies a change of the events, keeping the configured ones", async () => {
    tf.write(provider() + endpoint.replace('"site.deleted"', '"snapshot.completed"'));
    const r = await tf.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(flat(r)).toContain("PATCH /api/v1/webhook_endpoints/");
    proxy.set(() => {});
    expect(await tf.resource("siteops_webhook_endpoint.hook")).toMatchObject({ enabled_events: ["site.created", "snapshot.completed"] });
    expect((await tf.plan()).code).toBe(0); // the service has what was configured
  });
});

describe("a service that writes versions with a patch number", () => {
  it("keeps the configured 6.5 where the answer says 6.5.0, and plans nothing after", async () => {
    proxy.set((r) => {
      for (const f of ["wp_version", "php_version"]) if (typeof r[f] === "string" && /^\d+\.\d+$/.test(r[f] as string)) r[f] = `${r[f] as string}.0`;
    });
    tf.write(`${provider()}
resource "siteops_site" "versions" {
  name        = "Versions"
  url         = "https://versions.example.com"
  wp_version  = "6.5"
  php_version = "8.2"

  deletion_protection = false
}
`);
    const r = await tf.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await tf.resource("siteops_site.versions")).toMatchObject({ wp_version: "6.5", php_version: "8.2" });
    expect((await tf.plan()).code).toBe(0);
    // A real change still shows (and runs an upgrade pipeline: planned here, not applied).
    tf.write(readFileSync(path.join(tf.work, "main.tf"), "utf8").replace('"8.2"', '"8.3"'));
    const p = await tf.plan();
    expect(p.code).toBe(2);
    expect(p.stdout).toMatch(/~ php_version\s+= "8\.2" -> "8\.3"/);
    proxy.set(() => {});
    await tf.ok(["state", "rm", "-no-color", "siteops_site.versions"]);
  });
});

describe("other fields the provider reads", () => {
  it("a site answer without its url is an error naming the endpoint and the field", async () => {
    tf.write(`${provider()}
resource "siteops_site" "blog" {
  name = "Blog"
  url  = "https://blog.example.com"

  deletion_protection = false
}
`);
    await tf.apply();
    const id = (await tf.resource("siteops_site.blog"))!.id as string;
    proxy.set((r) => {
      if (typeof r.id === "string" && r.id.startsWith("site_")) delete r.url;
    });
    const p = await tf.plan();
    expect(p.code).toBe(1);
    const out = flat(p);
    expect(out).toContain(`Error: Could not read site ${id}: unexpected answer from SiteOps`);
    expect(out).toContain(`GET /api/v1/sites/${id}: the site has no "url" (expected a string) [request req_`);
    expect(out).not.toMatch(/bug in the provider|TypeError/);
    proxy.set(() => {});
    await tf.ok(["state", "rm", "-no-color", "siteops_site.blog"]);
  });

  it("data sources: a re-typed time is null with a warning; a user without an email is an error", async () => {
    proxy.set((r, request) => {
      if (typeof r.id === "string" && r.id.startsWith("site_")) r.created_at = 1767225600;
      if (request.startsWith("GET /api/v1/me")) delete r.email;
    });
    tf.write(`${provider()}
data "siteops_sites" "all" {}
output "created" { value = [for s in data.siteops_sites.all.sites : s.created_at] }
`);
    const sites = await tf.run(["apply", "-auto-approve", "-no-color"]);
    expect(sites.code, sites.stdout + sites.stderr).toBe(0);
    expect(flat(sites)).toContain('Warning: created_at is null: SiteOps\'s answer has no usable "created_at"');
    expect(flat(sites)).toContain('GET /api/v1/sites: the site has "created_at" as a number (expected a string).');
    expect(sites.stdout).toMatch(/created = \[\s+(tostring\(null\),\s+)+\]/);

    tf.write(`${provider()}
data "siteops_me" "me" {}
`);
    const me = await tf.run(["plan", "-no-color"]);
    expect(me.code).toBe(1);
    expect(flat(me)).toContain('Error: SiteOps\'s answer has no usable "email"');
    expect(flat(me)).toContain('GET /api/v1/me: the user has no "email" (expected a string).');
    proxy.set(() => {});
  });
});
