// siteops_webhook_endpoint end to end: the secret is kept from the create response, sensitive in output.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Terraform, api } from "./harness.js";

let tf: Terraform;
beforeAll(async () => {
  tf = await Terraform.start();
  tf.write(tf.providerBlock() + endpoint(""));
  await tf.init();
});
afterAll(async () => {
  await tf?.close();
});

function endpoint(extra: string, output = true): string {
  return (
    `
resource "siteops_webhook_endpoint" "hook" {
  url = "https://hooks.example.com/siteops"
${extra}}
` +
    (output
      ? `
output "hook_secret_length" {
  value = nonsensitive(length(siteops_webhook_endpoint.hook.secret))
}
`
      : "")
  );
}

describe("siteops_webhook_endpoint validation", () => {
  it("refuses an unknown event type at plan, naming the attribute, before any request", async () => {
    tf.write(tf.providerBlock() + endpoint(`  enabled_events = ["site.created", "site.updatd"]\n`));
    const p = await tf.run(["plan", "-no-color"]);
    expect(p.code).toBe(1);
    expect(p.stderr).toContain("Invalid Attribute Value");
    expect(p.stderr).toContain('got: "site.updatd"');
    expect(p.stderr).toContain("enabled_events");
    expect(p.stdout).not.toContain("will be created");
    tf.write(tf.providerBlock() + endpoint(""));
  });
});

describe("siteops_webhook_endpoint", () => {
  let id = "";
  let secret = "";

  it("creates with defaults, keeps the secret in state and never prints it", async () => {
    const plan = await tf.planSaved();
    expect(plan.stdout).toMatch(/\+ enabled\s+= true/);
    expect(plan.stdout).toMatch(/\+ secret\s+= \(sensitive value\)/);
    const r = await tf.applySaved();
    const values = (await tf.resource("siteops_webhook_endpoint.hook"))!;
    id = values.id as string;
    secret = values.secret as string;
    expect(id).toMatch(/^we_/);
    expect(secret).toMatch(/^whsec_/);
    expect(values).toMatchObject({ enabled: true, enabled_events: ["*"], description: null });
    expect(r.stdout).not.toContain(secret);
    expect(r.stdout).toMatch(/hook_secret_length = \d+/);
    expect((await tf.plan()).code).toBe(0);
  });

  it("updates events, description and enabled in place and keeps the secret", async () => {
    tf.write(
      tf.providerBlock() +
        endpoint(`  description    = "deploy notifications"
  enabled_events = ["site.created", "snapshot.completed"]
  enabled        = false
`),
    );
    const p = await tf.planSaved();
    expect(p.code).toBe(2);
    expect(p.stdout).toContain("~ update in-place");
    expect(p.stdout).not.toContain(secret);
    const r = await tf.applySaved();
    expect(r.stdout).not.toContain(secret);
    const values = (await tf.resource("siteops_webhook_endpoint.hook"))!;
    expect(values).toMatchObject({ id, secret, enabled: false, description: "deploy notifications" });
    expect([...(values.enabled_events as string[])].sort()).toEqual(["site.created", "snapshot.completed"]);
    const remote = (await api(tf, "GET", `/api/v1/webhook_endpoints/${id}`)).json as { status: string };
    expect(remote.status).toBe("disabled");
    expect((await tf.plan()).code).toBe(0);
  });

  it("shows a re-enabled endpoint as drift and clears the description", async () => {
    await api(tf, "PATCH", `/api/v1/webhook_endpoints/${id}`, { status: "enabled" });
    tf.write(
      tf.providerBlock() +
        endpoint(`  enabled_events = ["site.created", "snapshot.completed"]
  enabled        = false
`),
    );
    const p = await tf.planSaved();
    expect(p.stdout).toMatch(/~ enabled\s+= true -> false/);
    expect(p.stdout).toMatch(/- description\s+= "deploy notifications" -> null/);
    await tf.applySaved();
    expect(await tf.resource("siteops_webhook_endpoint.hook")).toMatchObject({ enabled: false, description: null, secret });
    expect((await tf.plan()).code).toBe(0);
  });

  it("maps an API field error to its attribute", async () => {
    // A private address: a well-formed URL (valid at plan) that only the service refuses.
    tf.write(tf.providerBlock() + `resource "siteops_webhook_endpoint" "hook" {\n  url = "https://10.0.0.1/siteops"\n}\n`);
    const r = await tf.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Invalid url");
    expect(r.stderr).toContain("with siteops_webhook_endpoint.hook");
  });

  it("imports without a secret (the API never shows it again)", async () => {
    tf.write(
      tf.providerBlock() +
        endpoint(
          `  enabled_events = ["site.created", "snapshot.completed"]
  enabled        = false
`,
          false,
        ),
    );
    await tf.ok(["state", "rm", "-no-color", "siteops_webhook_endpoint.hook"]);
    await tf.ok(["import", "-no-color", "siteops_webhook_endpoint.hook", id]);
    expect(await tf.resource("siteops_webhook_endpoint.hook")).toMatchObject({ id, secret: null, enabled: false });
    const p = await tf.run(["plan", "-no-color", "-detailed-exitcode", "-target=siteops_webhook_endpoint.hook"]);
    expect(p.stdout).toContain("No changes.");
  });

  it("destroys", async () => {
    await tf.ok(["destroy", "-auto-approve", "-no-color"]);
    expect((await api(tf, "GET", `/api/v1/webhook_endpoints/${id}`)).status).toBe(404);
  });
});
