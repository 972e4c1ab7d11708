// `mysqldump ... | siteops snapshot create --site X --upload -`: 100 MiB through a pipe, sent with the core's
// resumable upload and digest, the checksum the service computed matching the data; progress at most every 10 %.
// An empty stdin (the dump before the pipe failed) creates no snapshot.
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { start } from "../support/processes.js";
import { BIN, runCli, useTestBed } from "./helpers.js";

const MIB = 1024 * 1024;
const bed = useTestBed();

describe("snapshot create --upload", () => {
  it("streams 100 MiB from a pipe; the service's checksum is the data's", async () => {
    const upload = start(process.execPath, [BIN, "snapshot", "create", "--site", "Blog", "--upload", "-", "--content-type", "application/gzip", "--json"], {
      env: bed.env,
      openStdin: true,
    });
    const stdin = upload.child.stdin!;
    const hash = createHash("sha256");
    const block = randomBytes(MIB);
    // A producer writing 1 MiB at a time, each a little different, honouring back-pressure as a pipe does.
    for (let i = 0; i < 100; i++) {
      block.writeUInt32BE(i, 0);
      hash.update(block);
      if (!stdin.write(Buffer.from(block))) await new Promise((r) => stdin.once("drain", r));
    }
    stdin.end();
    const { code, stdout, stderr } = await upload.done;
    expect(code, stderr).toBe(0);
    const [record] = JSON.parse(stdout) as {
      outcome: string;
      snapshot: { id: string; status: string; source: string; size_bytes: number; checksum_sha256: string };
    }[];
    expect(record!.snapshot).toMatchObject({ status: "completed", source: "upload", size_bytes: 100 * MIB, checksum_sha256: hash.digest("hex") });
    // Not a terminal: upload progress at most every 10 % (or 30 s).
    const progress = stderr
      .split("\n")
      .filter((l) => / Blog: uploaded \d+% /.test(l))
      .map((l) => Number(/uploaded (\d+)%/.exec(l)![1]));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThanOrEqual(9);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it("uploads a file", async () => {
    const file = path.join(bed.box.dir, "dump.sql.gz");
    const data = randomBytes(300_000);
    writeFileSync(file, data);
    const r = await runCli(["snapshot", "create", "--site", "Shop", "--upload", file, "--json=snapshot"], { env: bed.env });
    expect(r.code, r.stderr).toBe(0);
    const [{ snapshot }] = JSON.parse(r.stdout) as { snapshot: { size_bytes: number; checksum_sha256: string } }[];
    expect(snapshot).toMatchObject({ size_bytes: data.length, checksum_sha256: createHash("sha256").update(data).digest("hex") });
  });

  it("an empty stdin creates no snapshot and fails", async () => {
    const before = (await bed.emu.so.snapshots.list((await bed.emu.so.sites.list()).data[0]!.id).toArray()).length;
    const r = await runCli(["snapshot", "create", "--site", "Blog", "--upload", "-"], { env: bed.env, input: "" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: stdin is empty: nothing to upload \(did the command before the pipe fail\?\); no snapshot was created/);
    expect((await bed.emu.so.snapshots.list((await bed.emu.so.sites.list()).data[0]!.id).toArray()).length).toBe(before);
  });
});
