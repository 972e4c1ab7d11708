// Issue 38 item 5: a ping or notification URL with a malformed percent-escape is a usage error when the flag is
// read (naming the flag, never the URL or its password), not a URIError with a stack at the start ping; and a
// delivery never throws past the promise that a failed ping leaves the exit code alone.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { deliver } from "../../cli/jobs/outbound/delivery.js";
import { runCli, useTestBed } from "../cli/helpers.js";

const bed = useTestBed();

describe("ping and notify URLs with malformed percent-escapes", () => {
  for (const [flag, url] of [
    ["--ping", "http://%zz:pw-secret@127.0.0.1:9/p"],
    ["--ping", "http://user:pw-secret%E0%A4%A@127.0.0.1:9/p"],
    ["--notify", "https://hooks%:pw-secret@127.0.0.1:9/hook"],
  ] as const) {
    it(`${flag} ${url.replace("pw-secret", "***")}: exit 2, one line naming the flag, no stack, no password`, async () => {
      const r = await runCli(["snapshot", "prune", "--site", "Blog", "--keep-last", "50", flag, url], { env: bed.env });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`${flag} has a malformed percent-escape in its user name or password`);
      expect(r.stderr).not.toContain("pw-secret");
      expect(r.stderr).not.toMatch(/URIError|\n\s+at /);
    });
  }

  it("SITEOPS_PING_URL is checked the same way, naming the variable", async () => {
    const r = await runCli(["snapshot", "prune", "--site", "Blog", "--keep-last", "50"], {
      env: { ...bed.env, SITEOPS_PING_URL: "http://%zz:pw-secret@127.0.0.1:9/p" },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("SITEOPS_PING_URL has a malformed percent-escape");
    expect(r.stderr).not.toContain("pw-secret");
  });

  it("deliver() answers a failure for a URL it cannot use, and never throws", async () => {
    const url = new URL("http://%zz:pw-secret@127.0.0.1:9/p");
    const result = await deliver(url, { body: "", contentType: "text/plain" });
    expect(result).toBe("not sent to 127.0.0.1:9 (URIError)");
  });

  it("a well-formed escape still reaches the receiver as Basic authentication", async () => {
    let authorization: string | undefined;
    const server = createServer((req, res) => {
      authorization = req.headers.authorization;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = new URL(`http://us%40er:p%25w@127.0.0.1:${(server.address() as AddressInfo).port}/p`);
      expect(await deliver(url, { body: "", contentType: "text/plain" })).toBeUndefined();
      expect(Buffer.from(authorization!.replace(/^Basic /, ""), "base64").toString()).toBe("us@er:p%w");
    } finally {
      server.close();
    }
  });
});
