// `npm run -s emulator` from a clone, as the README's "The two commands" gives it: the JSON start-up line is the
// first line of stdout (no npm banner before it), so `head -1` or a script can read it. npm and the emulator run
// on the Node that SITEOPS_TEST_NODE names (.ci/run: 24 in npm test, then 22 and 26), first on PATH as in a user's shell.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { firstLine, start } from "../support/processes.js";
import { NODE, ROOT } from "./helpers.js";

describe("npm run -s emulator", () => {
  it("prints the start-up line first, with demo credentials", async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    env.PATH = `${path.dirname(NODE)}${path.delimiter}${process.env.PATH}`;
    const npm = start("npm", ["run", "-s", "emulator", "--", "--port", "0"], { cwd: ROOT, env, detached: true });
    try {
      expect(JSON.parse(await firstLine(npm))).toMatchObject({
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        demo: { api_token: expect.stringMatching(/^sot_/) },
      });
    } finally {
      process.kill(-npm.child.pid!, "SIGTERM");
    }
  });
});
