// The provider block: environment variables, email/password login, unknown values, and the one-line
// errors for rejected credentials, which name where the credential came from but never its value.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBER_TOKEN, OWNER_EMAIL, OWNER_PASSWORD, OWNER_TOKEN, Terraform, faults, recordingProxy } from "./harness.js";

let tf: Terraform;
beforeAll(async () => {
  tf = await Terraform.start();
  tf.write(tf.providerBlock());
  await tf.init();
});
afterAll(async () => {
  await tf?.close();
});

const required = `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}
`;
const meOutput = `
data "siteops_me" "me" {}
output "email" { value = data.siteops_me.me.email }
`;

describe("provider configuration", () => {
  it("reads SITEOPS_BASE_URL and SITEOPS_API_TOKEN from the environment", async () => {
    tf.write(required + `provider "siteops" {}\n` + meOutput);
    const r = await tf.ok(["apply", "-auto-approve", "-no-color"], { env: { SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN } });
    expect(r.stdout).toContain(`email = "${OWNER_EMAIL}"`);
  });

  it("logs in with email and password", async () => {
    tf.write(
      required +
        `provider "siteops" {
  base_url        = "${tf.url}"
  email           = "${OWNER_EMAIL}"
  password        = "${OWNER_PASSWORD}"
  max_retries     = 1
  request_timeout = 30
}
` +
        meOutput,
    );
    const r = await tf.apply();
    expect(r.stdout).toContain(`email = "${OWNER_EMAIL}"`);
  });

  it("a service that accepts no connection: one short retry, warned in Terraform's log, then a diagnostic naming the URL", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    tf.write(required + `provider "siteops" {\n  base_url = "http://127.0.0.1:${port}"\n  api_token = "${OWNER_TOKEN}"\n  max_retries = 2\n}\n` + meOutput);
    const r = await tf.run(["plan", "-no-color"], { env: { TF_LOG_PROVIDER: "WARN" } });
    expect(r.code).toBe(1);
    const waits = r.stderr.split("\n").filter((l) => l.includes("SiteOps API:"));
    expect(waits).toHaveLength(1); // a service that never answered: one short retry, not max_retries
    expect(waits[0]).toMatch(/\[WARN\] .*SiteOps API: GET \/api\/v1\/me: could not connect \(ECONNREFUSED\); retry 1 in /);
    expect(r.stderr.replace(/\s+/g, " ")).toContain(`Cannot reach http://127.0.0.1:${port}: nothing accepted the connection (ECONNREFUSED) in 2 attempts;`);
    expect(r.stderr).not.toContain(OWNER_TOKEN);
  });

  it("a missing base URL points at base_url", async () => {
    tf.write(required + `provider "siteops" {\n  api_token = "${OWNER_TOKEN}"\n}\n` + meOutput);
    const r = await tf.run(["plan", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Missing SiteOps base URL");
    expect(r.stderr).toContain("SITEOPS_BASE_URL");
  });

  it("reads the base URL and token as the client, the CLI and the action do: trimmed, a token with whitespace inside refused by name", async () => {
    tf.write(required + `provider "siteops" {}\n` + meOutput);
    const trimmed = await tf.ok(["apply", "-auto-approve", "-no-color"], { env: { SITEOPS_BASE_URL: ` ${tf.url}/ `, SITEOPS_API_TOKEN: `${OWNER_TOKEN}\n` } });
    expect(trimmed.stdout).toContain(`email = "${OWNER_EMAIL}"`);
    const spaced = await tf.run(["plan", "-no-color"], { env: { SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: `${OWNER_TOKEN} ${OWNER_TOKEN}` } });
    expect(spaced.code).toBe(1);
    expect(spaced.stderr).toContain("Error: Invalid SiteOps API token");
    expect(spaced.stderr).toContain("SITEOPS_API_TOKEN must not contain whitespace.");
    expect(spaced.stderr).not.toContain(OWNER_TOKEN);
    const schemeless = await tf.run(["plan", "-no-color"], { env: { SITEOPS_BASE_URL: "siteops.example.com", SITEOPS_API_TOKEN: OWNER_TOKEN } });
    expect(schemeless.code).toBe(1);
    expect(schemeless.stderr).toContain("SITEOPS_BASE_URL has no scheme: use https://siteops.example.com");
  });

  it("missing credentials point at api_token", async () => {
    tf.write(required + `provider "siteops" {\n  base_url = "${tf.url}"\n}\n` + meOutput);
    const r = await tf.run(["plan", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Missing SiteOps credentials");
  });

  it("invalid values are reported with their attribute before any API call", async () => {
    tf.write(
      required +
        `provider "siteops" {
  base_url    = "not-a-url"
  api_token   = "x"
  email       = "a@b.c"
  max_retries = -1
}
` +
        meOutput,
    );
    const r = await tf.run(["validate", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/base_url\s+= "not-a-url"/);
    expect(r.stderr).toContain("Attribute must be a whole number between 0 and 20, got: -1.");
  });

  it("a rejected token gives one line naming its source, never the token", async () => {
    const bad = "sot_thisTokenDoesNotExist000000";
    tf.write(required + `provider "siteops" {\n  base_url  = "${tf.url}"\n  api_token = "${bad}"\n}\n` + meOutput);
    const r = await tf.run(["plan", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "Error: SiteOps rejected the credentials from api_token in the provider configuration: You need to sign in or sign up before continuing.",
    );
    expect(r.stderr + r.stdout).not.toContain(bad);

    tf.write(required + `provider "siteops" {\n  base_url = "${tf.url}"\n}\n` + meOutput);
    const env = await tf.run(["plan", "-no-color"], { env: { SITEOPS_API_TOKEN: bad } });
    expect(env.stderr).toContain("the SITEOPS_API_TOKEN environment variable");
    expect(env.stderr + env.stdout).not.toContain(bad);
  });

  it("a wrong password names the email/password source", async () => {
    tf.write(required + `provider "siteops" {\n  base_url = "${tf.url}"\n  email    = "${OWNER_EMAIL}"\n  password = "wrong-password"\n}\n` + meOutput);
    const r = await tf.run(["plan", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: SiteOps rejected the credentials from email/password in the provider configuration: Invalid email or password.");
    expect(r.stderr).not.toContain("wrong-password");
  });

  it("a 403 for a member names the credential source", async () => {
    tf.write(
      required +
        `provider "siteops" {\n  base_url  = "${tf.url}"\n  api_token = "${MEMBER_TOKEN}"\n}\n` +
        `
resource "siteops_site" "nope" {
  name = "Nope"
  url  = "https://nope.example.com"
}
`,
    );
    const r = await tf.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "Error: SiteOps did not allow the credentials from api_token in the provider configuration to create the site: You are not authorized to perform this action.",
    );
    expect(r.stderr).not.toContain(MEMBER_TOKEN);
  });
});

describe("max_concurrency", () => {
  const sites = (n: number) => `
resource "siteops_site" "many" {
  count = ${n}
  name  = "bounded \${count.index}"
  url   = "https://bounded-\${count.index}.example.com"

  deletion_protection = false # destroyed below
}
`;

  it("bounds the API requests in flight (provider block, then SITEOPS_MAX_CONCURRENCY), whatever -parallelism says", async () => {
    const proxy = await recordingProxy(tf.url);
    // Slow creates, so that -parallelism=12 would have 12 in flight at once without the bound.
    await faults(tf, [
      { method: "POST", path: "/api/v1/sites", delay_ms: 150 },
      { method: "DELETE", path: "/api/v1/sites/*", delay_ms: 150 },
    ]);
    try {
      tf.write(
        required + `provider "siteops" {\n  base_url        = "${proxy.url}"\n  api_token       = "${OWNER_TOKEN}"\n  max_concurrency = 2\n}\n` + sites(12),
      );
      await tf.apply("-parallelism=12");
      expect(proxy.mostInFlight()).toBe(2);

      tf.write(required + `provider "siteops" {\n  base_url  = "${proxy.url}"\n  api_token = "${OWNER_TOKEN}"\n}\n` + sites(12));
      proxy.reset();
      await tf.ok(["destroy", "-auto-approve", "-no-color", "-parallelism=12"], { env: { SITEOPS_MAX_CONCURRENCY: "3" } });
      expect(proxy.mostInFlight()).toBe(3);

      const bad = await tf.run(["plan", "-no-color"], { env: { SITEOPS_MAX_CONCURRENCY: "lots" } });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/SITEOPS_MAX_CONCURRENCY must be a whole number between 1 and 256, got:\s+"lots"\./);
    } finally {
      await faults(tf, []);
      await proxy.close();
    }
  });
});
