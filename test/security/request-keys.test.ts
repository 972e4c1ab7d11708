// Issue 48 item 8: the provider's create keys (Idempotency-Key) in containers. Two configurations run with the same
// token, in the same directory path and workspace (containers with one fixed WORKDIR), once shared their keys: the
// second one's webhook endpoint was the first one's, replayed by the service, with its signing secret. Now a key is
// made from where the configuration's state lives (a backend) or from a salt of its own `.terraform` (local state),
// so each container gets its own endpoint; the same configuration rerun from a fresh checkout (a CI job's rerun)
// still finds the create whose answer was lost. Real terraform against the emulator, as test/provider/ does.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Terraform, api } from "../provider/harness.js";

let tf: Terraform;
let states: StateServer;
beforeAll(async () => {
  tf = await Terraform.start();
  states = await stateServer();
});
afterAll(async () => {
  await states?.close();
  await tf?.close();
});

/** Terraform's "http" backend: GET a state, POST it; no locking. */
interface StateServer {
  url: string;
  close(): Promise<void>;
}
async function stateServer(): Promise<StateServer> {
  const stored = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = req.url ?? "/";
      if (req.method === "GET") {
        const body = stored.get(key);
        res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" }).end(body ?? "");
      } else if (req.method === "POST") {
        stored.set(key, Buffer.concat(chunks).toString("utf8"));
        res.writeHead(200).end();
      } else if (req.method === "DELETE") {
        stored.delete(key);
        res.writeHead(200).end();
      } else res.writeHead(405).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Another container with the same WORKDIR: the same path, nothing else of the one before. */
function freshContainer(): void {
  for (const entry of readdirSync(tf.work)) rmSync(path.join(tf.work, entry), { recursive: true, force: true });
}

/** The same webhook endpoint in two configurations (the resource named differently), with `backend` if given. */
const config = (name: string, backend = "") =>
  tf.providerBlock().replace("terraform {\n", `terraform {\n${backend}`) +
  `resource "siteops_webhook_endpoint" "${name}" {
  url            = "https://hooks.example.com/deploys"
  enabled_events = ["site.created"]
}
`;
const httpBackend = (state: string) => `  backend "http" {\n    address = "${states.url}/${state}"\n  }\n`;

async function applyIn(name: string, backend = ""): Promise<{ id: string; secret: string }> {
  tf.write(config(name, backend));
  await tf.init();
  await tf.apply();
  const endpoint = (await tf.resource(`siteops_webhook_endpoint.${name}`))!;
  return { id: endpoint.id as string, secret: endpoint.secret as string };
}

const endpointsOnService = async () => ((await api(tf, "GET", "/api/v1/webhook_endpoints?per_page=100")).json as { id: string }[]).map((e) => e.id);

describe("request keys of two configurations in containers with the same WORKDIR and workspace", () => {
  it("local state: the second configuration gets its own webhook endpoint and secret, not the first's", async () => {
    freshContainer();
    const first = await applyIn("deploys");
    freshContainer();
    const second = await applyIn("notify");
    expect(second.id).not.toBe(first.id);
    expect(second.secret).toBeTruthy();
    expect(second.secret).not.toBe(first.secret);
    expect(await endpointsOnService()).toEqual(expect.arrayContaining([first.id, second.id]));
    // The salt is in Terraform's directory of this working copy, and only its owner's.
    expect(statSync(path.join(tf.work, ".terraform", "siteops-request-keys")).mode & 0o777).toBe(0o600);
  });

  it("state in a backend: another configuration's state gets its own endpoint; the same one from a fresh checkout finds its lost create", async () => {
    freshContainer();
    const first = await applyIn("deploys", httpBackend("first"));
    // The answer lost (as a killed apply loses it), then a rerun in a fresh checkout of the same configuration.
    await tf.ok(["state", "rm", "-no-color", "siteops_webhook_endpoint.deploys"]);
    freshContainer();
    const rerun = await applyIn("deploys", httpBackend("first"));
    expect(rerun).toEqual(first);
    // Another configuration, its state elsewhere, in the same path and workspace.
    freshContainer();
    const other = await applyIn("notify", httpBackend("second"));
    expect(other.id).not.toBe(first.id);
    expect(other.secret).not.toBe(first.secret);
  });
});
