// A dead service is reported while the CLI waits: one stderr line per wait before a retry (what failed, which
// retry, in how long), nothing of the kind with --quiet; stdout stays clean for pipes.
import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, sandbox } from "./helpers.js";

/** A loopback port nothing listens on: bound on port 0, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const box = sandbox();
afterAll(() => box.cleanup());

describe("retry waits on stderr", () => {
  it("siteops sites list against a closed port says each wait, then fails", async () => {
    const env = { ...box.env, SITEOPS_BASE_URL: `http://127.0.0.1:${await closedPort()}`, SITEOPS_API_TOKEN: "t0ken", SITEOPS_MAX_RETRIES: "3" };
    const r = await runCli(["sites", "list"], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const waits = r.stderr.split("\n").filter((l) => l.includes("retry"));
    expect(waits).toHaveLength(3);
    waits.forEach((line, i) =>
      expect(line).toMatch(new RegExp(`^siteops: GET /api/v1/sites: could not connect \\(ECONNREFUSED\\); retry ${i + 1} in \\d+(\\.\\d)? m?s$`)),
    );
    expect(r.stderr).toMatch(/Cannot reach the Site Operations service/);

    const quiet = await runCli(["sites", "list", "--quiet"], { env });
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).not.toContain("retry");
    expect(quiet.stderr).toMatch(/Cannot reach the Site Operations service/);
  });
});
