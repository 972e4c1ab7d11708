// Where a create's Idempotency-Key comes from (keyed-create.ts): what stays the same between an apply and its
// rerun, and differs between two configurations run with the same token (issue 48 item 8). Terraform tells a
// provider neither the state, its lineage, the resource's address nor the workspace (a create has no prior state
// and no private state, and a rerun's plan makes new planned private state: a salt kept there would not survive the
// killed run it is for), so the origin is read from the working directory Terraform runs the provider in:
//   - a backend or cloud block: where the state lives, as `terraform init` recorded it in
//     `$TF_DATA_DIR/terraform.tfstate` (its type and the fields that name the place: bucket, key, organization,
//     workspaces, address, ...; never credentials), and the workspace. Two configurations keeping their state apart
//     differ wherever they run; the same one rerun from a fresh checkout (a CI job's rerun) is the same.
//   - local state: a random salt that the first keyed create of the directory writes beside Terraform's own files
//     (`$TF_DATA_DIR/siteops-request-keys`, 0600, exclusively created, never read through a link), and the workspace.
//     Two containers with the same fixed WORKDIR each have their own `.terraform`, so their own salt.
//   - neither (no `.terraform`: dev_overrides without `terraform init`): the working directory and the workspace, as
//     before. The limit that remains is written in docs/design.md section 4.
// test/security/request-keys.test.ts.
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeFileExclusive } from "../../common/private-file.js";
import { log } from "../log.js";

/** Fields of a recorded backend configuration that say where its state is (every standard backend's, and the cloud
 * block's); anything else (credentials, retries, TLS material) is left out, so rotating a credential keeps the keys. */
const LOCATION_FIELDS = new Set([
  "address",
  "bucket",
  "container_name",
  "database",
  "hostname",
  "key",
  "namespace",
  "organization",
  "path",
  "prefix",
  "project",
  "region",
  "resource_group_name",
  "schema_name",
  "secret_suffix",
  "storage_account_name",
  "workspace_dir",
  "workspace_key_prefix",
  "workspaces",
]);

const SALT_FILE = "siteops-request-keys";

/** Terraform's data directory for this working directory. */
const dataDir = () => process.env.TF_DATA_DIR || ".terraform";

/**
 * The Terraform workspace the provider runs for: `TF_WORKSPACE`, else the name `terraform workspace select` recorded
 * in `$TF_DATA_DIR/environment`, else `default`.
 */
function workspace(): string {
  if (process.env.TF_WORKSPACE) return process.env.TF_WORKSPACE;
  try {
    return readFileSync(path.join(dataDir(), "environment"), "utf8").trim() || "default";
  } catch {
    return "default";
  }
}

/** Where the state lives, from the backend `terraform init` recorded; undefined for local state or none recorded. */
function backendPlace(): unknown[] | undefined {
  let recorded: unknown;
  try {
    recorded = JSON.parse(readFileSync(path.join(dataDir(), "terraform.tfstate"), "utf8"));
  } catch {
    return undefined;
  }
  const backend = (recorded as { backend?: { type?: unknown; config?: unknown } } | null)?.backend;
  if (!backend || typeof backend.type !== "string" || backend.type === "local") return undefined;
  const config = backend.config && typeof backend.config === "object" ? (backend.config as Record<string, unknown>) : {};
  const place = Object.keys(config)
    .filter((name) => LOCATION_FIELDS.has(name) && config[name] !== null && config[name] !== undefined)
    .sort()
    .map((name) => [name, config[name]]);
  return place.length ? [backend.type, place] : undefined;
}

/** Terraform's data directory for this working directory when it is one (`terraform init` ran), else undefined. */
export function dataDirectory(): string | undefined {
  const dir = dataDir();
  try {
    return lstatSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text of `file`, read only as a regular file of this user and never through a link; undefined when it is
 * missing, or (with a warning ending in `otherwise`) not such a file or unreadable.
 */
export function readOwnFile(file: string, otherwise: string): string | undefined {
  let fd = -1;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || (process.getuid && stat.uid !== process.getuid())) {
      log.warn(`${file} is not a regular file of this user: ${otherwise}`);
      return undefined;
    }
    return readFileSync(fd, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    log.warn(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}): ${otherwise}`);
    return undefined;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

const FROM_DIRECTORY = "request keys are made from the working directory instead";

/** This directory's salt, made at its first keyed create; undefined without a data directory or when the file there
 * is not a regular file of this user (then the directory's path stands in, as before). */
function directorySalt(): string | undefined {
  const dir = dataDirectory();
  if (!dir) return undefined;
  const file = path.join(dir, SALT_FILE);
  const read = () => readOwnFile(file, FROM_DIRECTORY)?.trim() || undefined;
  const found = read();
  if (found) return found;
  try {
    writeFileExclusive(file, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, replace: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") {
      log.warn(`${file} cannot be written (${(err as NodeJS.ErrnoException).code ?? String(err)}): ${FROM_DIRECTORY}`);
      return undefined;
    }
  }
  return read();
}

let origin: string | undefined;

/** What every create key of this process is made from besides the request: see the header. Read once. */
export function keyOrigin(): string {
  if (origin === undefined) {
    const place = backendPlace();
    const salt = place ? undefined : directorySalt();
    origin = JSON.stringify(place ? ["backend", place, workspace()] : salt ? ["salt", salt, workspace()] : ["directory", process.cwd(), workspace()]);
  }
  return origin;
}
