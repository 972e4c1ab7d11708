// Runs the container of a Kubernetes manifest in examples/cron/ as its pod would, under the constraints the
// manifest declares: the image of examples/cron/Dockerfile (siteops installed under /usr/local, HOME the image's
// user's), the declared user (runAsUser, as a real non-root user; useradd makes it when the uid has none), the
// declared env only (a Secret's keys given by the test), and a read-only root filesystem: nothing is writable
// but each declared volume, an empty directory owned by the pod's user. HOME is root-owned and 0555, so a file
// the job writes outside its volumes fails the run as it fails the pod.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { parse } from "yaml";
import { removeDir, tempDir } from "../support/temp.js";
import { ROOT } from "./helpers.js";

const CRON = path.join(ROOT, "examples/cron");

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef: { name: string; key: string } };
}
interface Container {
  image: string;
  command?: string[];
  args?: string[];
  env: EnvVar[];
  volumeMounts: { name: string; mountPath: string }[];
  securityContext: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
export interface PodSpec {
  restartPolicy: string;
  securityContext: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
  volumes: { name: string; emptyDir?: object }[];
}
export interface CronJob {
  kind: string;
  spec: {
    schedule: string;
    concurrencyPolicy: string;
    jobTemplate: {
      spec: { completionMode?: string; completions?: number; parallelism?: number; backoffLimitPerIndex?: number; template: { spec: PodSpec } };
    };
  };
}

/** What the Dockerfile's base image (node:24-slim) declares: its user `node` (uid 1000), that user's home, PATH. */
const BASE_IMAGE = { from: "node:24-slim", user: "node", uid: 1000, home: "/home/node", path: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" };

export function readCronJob(file: string): CronJob {
  return parse(readFileSync(path.join(CRON, file), "utf8")) as CronJob;
}

/** The Dockerfile's FROM, USER and ENTRYPOINT, checked against what this harness builds. */
function dockerfile(): { entrypoint: string[] } {
  const lines = readFileSync(path.join(CRON, "Dockerfile"), "utf8").split("\n");
  const value = (word: string) =>
    lines
      .find((l) => l.startsWith(`${word} `))
      ?.slice(word.length + 1)
      .trim();
  expect(value("FROM")).toBe(BASE_IMAGE.from);
  expect(value("USER")).toBe(BASE_IMAGE.user);
  expect(lines).toContain("COPY examples/cron/siteops-nightly.sh /usr/local/bin/siteops-nightly");
  return { entrypoint: JSON.parse(value("ENTRYPOINT")!) as string[] };
}

/** The uid and gid to run the pod as: as root, a real user with the declared uid (made with useradd when none
 * has it); as anyone else, this user (non-root too, and a 0555 HOME is as unwritable to it). */
function podUser(uid: number): { uid: number; gid: number } {
  const self = process.getuid!();
  if (self !== 0) return { uid: self, gid: process.getgid!() };
  const lookup = () =>
    readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .map((l) => l.split(":"))
      .find((f) => f[2] === String(uid)) ?? [];
  let entry = lookup();
  if (entry.length < 4) {
    // Another test file may make it at the same time: whoever loses finds it made.
    spawnSync("useradd", [
      "--uid",
      String(uid),
      "--user-group",
      "--no-create-home",
      "--home-dir",
      "/nonexistent",
      "--shell",
      "/usr/sbin/nologin",
      "siteops-pod",
    ]);
    entry = lookup();
  }
  expect(entry.length, `no user with uid ${uid}, and useradd could not make one`).toBeGreaterThanOrEqual(4);
  return { uid, gid: Number(entry[3]) };
}

export interface PodResult {
  code: number | null;
  output: string;
  /** Each volume's directory on this machine, by volume name. */
  volumes: Map<string, string>;
}

/** A machine to run pods on: the image built once (read-only to the pod), a fresh set of volumes per pod. */
export class PodHost {
  readonly #root = tempDir("k8s-pod");
  readonly #entrypoint: string[];
  #pods = 0;

  constructor() {
    this.#entrypoint = dockerfile().entrypoint;
    chmodSync(this.#root, 0o755); // root-owned: the pod's user can read the image, write nothing
    // The image: node and siteops as `npm install --global` lays them out, the nightly script, the user's home.
    const lib = this.#image("/usr/local/lib/node_modules/siteops");
    const bin = this.#image("/usr/local/bin");
    for (const dir of [lib, bin, path.join(lib, "bin"), path.join(lib, "dist/cli")]) mkdirSync(dir, { recursive: true, mode: 0o755 });
    try {
      linkSync(process.execPath, path.join(bin, "node")); // this Node may be in a home the pod's user cannot enter
    } catch {
      copyFileSync(process.execPath, path.join(bin, "node"));
    }
    for (const file of ["bin/siteops.js", "bin/package.json", "package.json"]) copyFileSync(path.join(ROOT, file), path.join(lib, file));
    for (const file of readdirSync(path.join(ROOT, "dist/cli")).filter((f) => f === "siteops.cjs" || f.endsWith(".wasm")))
      copyFileSync(path.join(ROOT, "dist/cli", file), path.join(lib, "dist/cli", file));
    symlinkSync("../lib/node_modules/siteops/bin/siteops.js", path.join(bin, "siteops"));
    copyFileSync(path.join(CRON, "siteops-nightly.sh"), path.join(bin, "siteops-nightly"));
    execFileSync("chmod", ["-R", "a+rX,go-w", this.#image("/usr")]);
    chmodSync(path.join(bin, "siteops-nightly"), 0o755);
    mkdirSync(this.#image(BASE_IMAGE.home), { recursive: true, mode: 0o555 });
    chmodSync(this.#image(BASE_IMAGE.home), 0o555);
  }

  /** A path of the image on this machine. */
  #image(file: string): string {
    return path.join(this.#root, "image", file);
  }

  /**
   * Runs the pod's (only) container to its end: its command (else the image's entrypoint) and args, the env it
   * declares with `secret`'s keys for secretKeyRef, `extraEnv` (the Downward API's, such as
   * JOB_COMPLETION_INDEX), as its declared user, each volume a fresh empty directory.
   */
  run(pod: PodSpec, secret: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<PodResult> {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBe(BASE_IMAGE.uid); // else HOME would not be the image user's
    expect(pod.containers).toHaveLength(1);
    const container = pod.containers[0]!;
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const user = podUser(pod.securityContext.runAsUser!);

    const podDir = path.join(this.#root, `pod-${++this.#pods}`);
    mkdirSync(podDir, { mode: 0o755 });
    const volumes = new Map<string, string>();
    for (const volume of pod.volumes) {
      expect(volume.emptyDir, `volume ${volume.name}: only emptyDir volumes are run here`).toBeDefined();
      const dir = path.join(podDir, volume.name);
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, user.uid, user.gid);
      volumes.set(volume.name, dir);
    }
    const mounts = container.volumeMounts.map((m) => ({ at: m.mountPath, dir: volumes.get(m.name)! }));
    // A path in the pod, on this machine: under a mount, in its volume; under /usr/local, in the image; else
    // as it is (the rest of this machine, read-only to the pod's user but for /tmp, mapped below).
    const hostPath = (value: string) => {
      for (const m of mounts) if (value === m.at || value.startsWith(`${m.at}/`)) return m.dir + value.slice(m.at.length);
      return value.startsWith("/usr/local/") || value === BASE_IMAGE.home ? this.#image(value) : value;
    };
    const env: NodeJS.ProcessEnv = {
      PATH: BASE_IMAGE.path.replace("/usr/local/bin", `${this.#image("/usr/local/bin")}:/usr/local/bin`),
      HOME: this.#image(BASE_IMAGE.home),
      // The pod's /tmp is its volume when it mounts one, else part of the read-only root.
      TMPDIR: mounts.find((m) => m.at === "/tmp")?.dir ?? this.#image(BASE_IMAGE.home),
      // The only variable the manifest does not give: the CLI's poll interval, so that the emulator's
      // snapshots are seen done sooner. It writes nothing.
      SITEOPS_POLL_INTERVAL_MS: "20",
      ...extraEnv,
    };
    for (const v of container.env) env[v.name] = hostPath(v.valueFrom ? secret[v.valueFrom.secretKeyRef.key]! : v.value!);
    const argv = [...(container.command ?? this.#entrypoint), ...(container.args ?? [])].map((a, i) => (i === 0 ? hostPath(a) : a));

    return new Promise((resolve) => {
      const as = process.getuid!() === 0 ? { uid: user.uid, gid: user.gid } : {};
      const child = spawn(argv[0]!, argv.slice(1), { env, ...as, cwd: "/", stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      child.on("error", (e) => resolve({ code: null, output: `${output}${e.message}`, volumes }));
      child.on("close", (code) => {
        // Nothing written outside the volumes: the home is as the image left it.
        expect(readdirSync(this.#image(BASE_IMAGE.home))).toEqual([]);
        resolve({ code, output, volumes });
      });
    });
  }

  cleanup(): void {
    removeDir(this.#root);
  }
}
