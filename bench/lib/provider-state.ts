// Terraform states of many resources for the scale benchmark, written in the exact form Terraform writes:
// each is cloned from the state of a real one-resource apply (then destroyed), with the attributes of every
// instance given. Creating 10,000 resources through Terraform takes it ~25 minutes on this machine; the
// benchmark measures plans of such a state, and checks that each plan finds nothing to change.
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Workspace } from "./provider-helpers.js";

interface StateFile {
  lineage: string;
  serial: number;
  resources: { type: string; instances: Instance[] }[];
}
interface Instance {
  index_key?: number;
  attributes: Record<string, unknown>;
  private?: string;
}

export interface InstanceData {
  /** Attributes over the template's (an `id` is generated when not given). */
  attributes: Record<string, unknown>;
  /** The provider's private state, as JSON. */
  private?: Record<string, unknown>;
}

/**
 * Writes `dir`/terraform.tfstate with `count` instances of `type` (a `count` resource named as in the
 * one-resource configuration `oneHcl`, which is applied in a scratch directory for the template).
 */
export async function writeCountState(
  ws: Workspace,
  dir: string,
  oneHcl: string,
  type: string,
  count: number,
  instance: (i: number) => InstanceData,
): Promise<void> {
  const scratch = ws.dir(`${path.basename(dir)}-template`, { "main.tf": oneHcl });
  await ws.terraform(scratch, ["init", "-input=false"]);
  await ws.terraform(scratch, ["apply", "-auto-approve", "-input=false"]);
  const template = JSON.parse(readFileSync(path.join(scratch, "terraform.tfstate"), "utf8")) as StateFile;
  await ws.terraform(scratch, ["destroy", "-auto-approve", "-input=false"]);
  const resource = template.resources.find((r) => r.type === type);
  const one = resource?.instances[0];
  if (!resource || !one) throw new Error(`no ${type} in the template state`);
  resource.instances = Array.from({ length: count }, (_, i) => {
    const data = instance(i);
    const clone: Instance = { ...one, index_key: i, attributes: { ...one.attributes, id: randomUUID(), ...data.attributes } };
    if (data.private) clone.private = Buffer.from(JSON.stringify(data.private)).toString("base64");
    return clone;
  });
  template.lineage = randomUUID();
  template.serial = 1;
  writeFileSync(path.join(dir, "terraform.tfstate"), JSON.stringify(template));
}
