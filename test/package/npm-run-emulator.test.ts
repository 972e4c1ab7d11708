// `npm run -s emulator` from a clone, as the README's "The two commands" gives it: the JSON start-up line is the
// first line of stdout (no npm banner before it), so `head -1` or a script can read it. npm and the emulator run
// on the Node that SITEOPS_TEST_NODE names (.ci/run: 22, 24 and 26 in turn), first on PATH as in a user's shell.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import path from "node:path";
import { NODE, ROOT } from "./helpers.js";

describe("npm run -s emulator", () => {
  it("prints the start-up line first, with demo credentials", async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    env.PATH = `${path.dirname(NODE)}${path.delimiter}${process.env.PATH}`;
    const child = spawn("npm", ["run", "-s", "emulator", "--", "--port", "0"], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`npm run -s emulator exited ${code}`)));
      });
      expect(JSON.parse(first)).toMatchObject({
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        demo: { api_token: expect.stringMatching(/^sot_/) },
      });
    } finally {
      process.kill(-child.pid!, "SIGTERM");
    }
  });
});
