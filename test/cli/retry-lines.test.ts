// A failing service is reported while the CLI waits: one stderr line per wait before a retry (what failed, which
// retry, in how long), nothing of the kind with --quiet; stdout stays clean for pipes. A service that never answered
// gets one short retry (one line), then the error's one sentence.
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { runCli, useTestBed } from "./helpers.js";

/** A loopback port nothing listens on: bound on port 0, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const bed = useTestBed();

describe("retry waits on stderr", () => {
  it("siteops sites list against a service answering 503 says each wait, then fails", async () => {
    await bed.emu.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/sites", status: 503, count: 8, retry_after: 0 }] });
    try {
      const env = { ...bed.env, SITEOPS_MAX_RETRIES: "3" };
      const r = await runCli(["sites", "list"], { env });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      const waits = r.stderr.split("\n").filter((l) => l.includes("retry"));
      expect(waits).toHaveLength(3);
      waits.forEach((line, i) => expect(line).toMatch(new RegExp(`^siteops: GET /api/v1/sites\\S*: 503 response; retry ${i + 1} in \\d+(\\.\\d)? m?s$`)));
      expect(r.stderr).toMatch(/\[HTTP 503, request req_\w+\]/);

      const quiet = await runCli(["sites", "list", "--quiet"], { env });
      expect(quiet.code).toBe(1);
      expect(quiet.stderr).not.toContain("retry");
      expect(quiet.stderr).toMatch(/^error: .*\[HTTP 503, request req_\w+\]\.\n$/);
    } finally {
      await bed.emu.control("DELETE", "faults");
    }
  });

  it("against a closed port: one short retry, said, then one error line", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(["sites", "list"], { env: { ...bed.env, SITEOPS_BASE_URL: url } });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n").filter((l) => l.includes("retry"))).toEqual([
      expect.stringMatching(/^siteops: GET \/api\/v1\/sites\S*: could not connect \(ECONNREFUSED\); retry 1 in \d+ ms$/),
    ]);
    expect(r.stderr).toMatch(/\nerror: Cannot reach http:\/\/127\.0\.0\.1:\d+: nothing accepted the connection \(ECONNREFUSED\) in 2 attempts; /);
  });
});
