// The guides' blocks that start an emulator in the background and wait for its first line
// (`until [ -s FILE ] ...`) must stop waiting when it fails: here each one's lines up to that loop run with its
// port (4747, or 0) already taken, and must end, showing the emulator's EADDRINUSE, instead of looping forever.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groups, readBlocks, where } from "./markdown.js";
import { removeDir, tempDir } from "../support/temp.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WAIT = /^until \[ -s \S+ \].*$/m;
const waits = groups(readBlocks(ROOT))
  .flatMap((g) => g.blocks)
  .filter((b) => b.lang === "sh" && WAIT.test(b.code));

describe("a guide's wait for a background emulator", () => {
  let taken: Server;
  let port = 0;
  let dir = "";

  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    port = (taken.address() as { port: number }).port;
    dir = tempDir("docs-wait");
    symlinkSync(ROOT, path.join(dir, "siteops")); // the folder that holds the clone
    // `siteops` on the PATH, as after the README's install (the README's fleet block runs the command itself).
    mkdirSync(path.join(dir, "bin"));
    writeFileSync(path.join(dir, "bin", "siteops"), `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, "bin/siteops.js")}" "$@"\n`);
    chmodSync(path.join(dir, "bin", "siteops"), 0o755);
  });
  afterAll(async () => {
    await new Promise((resolve) => taken?.close(resolve));
    if (dir) removeDir(dir);
  });

  it("is in the guides (README.md, action/README.md, emulator/README.md)", () => {
    expect(new Set(waits.map((b) => b.file))).toEqual(new Set(["README.md", "action/README.md", "emulator/README.md"]));
  });

  for (const b of waits) {
    it(`${where(b)} ends when the emulator cannot listen`, () => {
      const upToWait = b.code.slice(0, WAIT.exec(b.code)!.index + WAIT.exec(b.code)![0].length);
      const script = upToWait.replace(/\b4747\b/g, String(port)).replace(/--port 0\b/g, `--port ${port}`);
      expect(script).toContain(`--port ${port}`);
      // The limit only turns a hang into a failure; the loop ends as soon as the emulator has exited.
      const r = spawnSync("bash", ["-c", script], {
        cwd: dir,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, NO_COLOR: "1", PATH: [path.join(dir, "bin"), process.env.PATH].join(path.delimiter) },
      });
      expect(r.error, "the loop did not end").toBeUndefined();
      expect(r.stderr).toContain("EADDRINUSE");
    });
  }
});
