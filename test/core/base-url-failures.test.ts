// A wrong or dead service says so at once, on each HTTP stack: an unknown host, an https:// URL on the emulator's
// plain-HTTP port, a refused connection before the service ever answered (one short retry), and a base URL ending in
// /api/v1 each end the call with a typed error whose one sentence names the URL and the fix. What is transient (a
// 503, a refusal after the service has answered: a restart) keeps its retries. Attempts are counted through the
// client's logger, never timed.
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startEmulator } from "../../emulator/index.js";
import {
  APIConnectionError,
  AuthenticationError,
  NotFoundError,
  ServiceUnreachableError,
  SiteOps,
  WrongBaseURLError,
  type ClientOptions,
  type RequestLogEvent,
} from "../../src/index.js";
import { describeError } from "../../src/fleet.js";
import { unreachableError } from "../../src/internal/base-url-failures.js";
import { OWNER_TOKEN, SEED, startTestEmulator, TRANSPORTS, type TestEmulator } from "./helpers.js";

/** A loopback port nothing listens on: bound on port 0, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** What `call` threw. */
async function failure(call: Promise<unknown>): Promise<Error> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof Error)) throw new Error(`expected a failure, got ${String(err)}`);
  return err;
}

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;
  const clients: SiteOps[] = [];
  let events: RequestLogEvent[] = [];

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await env.control("DELETE", "faults");
    await Promise.all(clients.splice(0).map((c) => c.close()));
    events = [];
  });
  afterAll(async () => env.close());

  /** A client of `baseUrl` that logs into `events`. */
  function client(baseUrl: string, options: ClientOptions = {}): SiteOps {
    const so = new SiteOps({ baseUrl, apiToken: OWNER_TOKEN, transport, logger: (e) => events.push(e), ...options });
    clients.push(so);
    return so;
  }
  const attempts = () => events.filter((e) => e.kind === "response").length;
  const retries = () => events.filter((e) => e.kind === "retry").length;

  it("an unknown host fails at the first attempt with HOST_NOT_FOUND", async () => {
    const err = await failure(client("https://siteops-nowhere.invalid").sites.list().toArray());
    expect(err).toBeInstanceOf(ServiceUnreachableError);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).toMatchObject({ code: "HOST_NOT_FOUND", url: "https://siteops-nowhere.invalid" });
    expect(err.message).toBe(
      "Cannot reach https://siteops-nowhere.invalid: its host name siteops-nowhere.invalid was not found (ENOTFOUND); check the base URL for a typo.",
    );
    expect(attempts()).toBe(1);
    expect(retries()).toBe(0);
  });

  it("nothing listening fails after one short retry with SERVICE_UNREACHABLE", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const err = await failure(client(url).sites.list().toArray());
    expect(err).toBeInstanceOf(ServiceUnreachableError);
    expect(err).toMatchObject({ code: "SERVICE_UNREACHABLE", url });
    expect(err.message).toBe(
      `Cannot reach ${url}: nothing accepted the connection (ECONNREFUSED) in 2 attempts; check that the service is running and the base URL's host and port.`,
    );
    expect(attempts()).toBe(2);
    expect(retries()).toBe(1);
  });

  it("with maxRetries 0, a refused first contact fails at the first attempt, with the same code", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const err = await failure(client(url, { maxRetries: 0 }).me());
    expect(err).toMatchObject({ code: "SERVICE_UNREACHABLE", message: expect.stringMatching(/nothing accepted the connection \(ECONNREFUSED\); check/) });
    expect(attempts()).toBe(1);
  });

  it("concurrent calls refused at first contact fail together with one probe, not a retry each", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const so = client(url);
    const errors = await Promise.all(Array.from({ length: 8 }, () => failure(so.me())));
    expect(errors.every((e) => e instanceof ServiceUnreachableError && e.code === "SERVICE_UNREACHABLE")).toBe(true);
    // The 8 first attempts at most (fewer when the first refusal came back before the others went), then one probe.
    expect(attempts()).toBeLessThanOrEqual(8 + 2);
    // The circuit does not stay open: the next call tries again, once (the short retry was had).
    const before = attempts();
    expect(await failure(so.me())).toMatchObject({ code: "SERVICE_UNREACHABLE" });
    expect(attempts()).toBe(before + 1);
  });

  it("https:// against the emulator's plain-HTTP port fails at the first attempt with TLS_MISMATCH", async () => {
    const plain = env.url;
    const url = plain.replace(/^http:/, "https:");
    const err = await failure(client(url).sites.list().toArray());
    expect(err).toBeInstanceOf(ServiceUnreachableError);
    expect(err).toMatchObject({ code: "TLS_MISMATCH", url });
    expect(err.message).toBe(
      `Cannot reach ${url}: the server there does not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER); use ${plain} if it is a plain-HTTP service such as a local emulator, or check the port.`,
    );
    expect(err.message).not.toMatch(/\\n|\n|SSL routines/);
    expect(attempts()).toBe(1);
  });

  it("a base URL ending in /api/v1 gets WRONG_BASE_URL naming the URL and the root, not a NotFoundError", async () => {
    const err = await failure(client(`${env.url}/api/v1`).sites.list().toArray());
    expect(err).toBeInstanceOf(WrongBaseURLError);
    expect(err).not.toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ code: "WRONG_BASE_URL", status: 404, baseUrl: `${env.url}/api/v1`, url: `${env.url}/api/v1/api/v1/sites` });
    expect(err.message).toBe(
      `The base URL ${env.url}/api/v1 ends in /api/v1, so GET ${env.url}/api/v1/api/v1/sites was not found (HTTP 404); the base URL should be the service's root, ${env.url}.`,
    );
    expect(describeError(err)).toBe(err.message);
    expect(attempts()).toBe(1);
  });

  it("the service's own 404 stays a NotFoundError", async () => {
    const err = await failure(client(env.url).sites.get("site_doesNotExist0000000"));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).not.toBeInstanceOf(WrongBaseURLError);
  });

  it("a 404 page that is not the API's JSON gets WRONG_BASE_URL", async () => {
    const server = createHttpServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/blog`;
    try {
      const err = await failure(client(base).sites.list().toArray());
      expect(err).toMatchObject({ code: "WRONG_BASE_URL", status: 404 });
      expect(err.message).toBe(
        `GET ${base}/api/v1/sites answered 404 with a page that is not the Site Operations API's; check that the base URL ${base} is the service's root (e.g. https://host, not https://host/api/v1).`,
      );
      expect(attempts()).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a 503 at first contact is still retried as before", async () => {
    await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", status: 503, count: 2, retry_after: 0 }] });
    const me = await client(env.url).me();
    expect(me.email).toBe("owner@acme.test");
    expect(events.filter((e) => e.kind === "response").map((e) => e.kind === "response" && e.status)).toEqual([503, 503, 200]);
  });

  it("a refused connection after the service has answered is a restart: retried until it is back", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5); // backoffs of 250 ms, 500 ms, 1 s ...
    const port = await closedPort();
    let emulator = await startEmulator({ port, seed: SEED, stepSeconds: 0 });
    const so = client(`http://127.0.0.1:${port}`);
    expect((await so.me()).email).toBe("owner@acme.test");
    await emulator.close();
    const refused = () => events.filter((e) => e.kind === "response" && e.status === undefined).length;
    const call = so.me();
    try {
      // Refused three times: more than the one retry of a first contact.
      for (let turn = 0; refused() < 3; turn++) {
        if (turn > 100_000) throw new Error("no third attempt");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      emulator = await startEmulator({ port, seed: SEED, stepSeconds: 0 });
      expect((await call).email).toBe("owner@acme.test");
      expect(refused()).toBeGreaterThanOrEqual(3);
    } finally {
      await call.catch(() => undefined);
      await emulator.close();
    }
  });
});

describe("which failures end a call early (unreachableError)", () => {
  const at = { baseUrl: "https://siteops.example.com", contacted: false, refusals: 1, abandoned: false };
  const failed = (code: string) => Object.assign(new Error(code), { code });

  it("an unknown host and a refusal are retried once the service has answered; a TLS mismatch never", () => {
    expect(unreachableError(failed("ENOTFOUND"), at)?.code).toBe("HOST_NOT_FOUND");
    expect(unreachableError(failed("ENOTFOUND"), { ...at, contacted: true })).toBeUndefined();
    expect(unreachableError(failed("ECONNREFUSED"), at)).toBeUndefined(); // the one short retry
    expect(unreachableError(failed("ECONNREFUSED"), { ...at, refusals: 2 })?.code).toBe("SERVICE_UNREACHABLE");
    expect(unreachableError(failed("ECONNREFUSED"), { ...at, abandoned: true })?.code).toBe("SERVICE_UNREACHABLE"); // had its short retry
    expect(unreachableError(failed("ECONNREFUSED"), { ...at, refusals: 5, contacted: true })).toBeUndefined();
    expect(unreachableError(failed("ERR_SSL_WRONG_VERSION_NUMBER"), { ...at, contacted: true })?.code).toBe("TLS_MISMATCH");
  });

  it("what may pass keeps the retry budget: a temporary DNS failure, a reset, a timeout", () => {
    for (const code of ["EAI_AGAIN", "ECONNRESET", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH"]) expect(unreachableError(failed(code), at)).toBeUndefined();
  });
});

describe("a refused API token names where it came from", () => {
  let env: TestEmulator;
  beforeAll(async () => {
    env = await startTestEmulator();
  });
  afterAll(async () => env.close());

  it("the apiToken option, or the name the caller gives it", async () => {
    const plain = await failure(env.client({ apiToken: "sot_wrongToken00000000000" }).me());
    expect(plain).toBeInstanceOf(AuthenticationError);
    expect(plain).toMatchObject({ code: "AUTHENTICATION_FAILED", credentialSource: "apiToken" });
    const named = await failure(env.client({ apiToken: "sot_wrongToken00000000000", apiTokenSource: "MY_APP_TOKEN" }).me());
    expect(named).toMatchObject({ credentialSource: "MY_APP_TOKEN" });
    expect(named.message).toBe("401 You need to sign in or sign up before continuing (the API token from MY_APP_TOKEN was refused)");
    expect(describeError(named)).toMatch(
      /^The API token from MY_APP_TOKEN was refused \(You need to sign in or sign up before continuing\) \[HTTP 401, request req_\w+\]\.$/,
    );
    expect(describeError(named, { apiStatus: "before" })).toMatch(
      /^Site Operations API 401: The API token from MY_APP_TOKEN was refused \(You need to sign in or sign up before continuing\)\. Request id: req_\w+\.$/,
    );
  });

  it("SITEOPS_API_TOKEN when read from the environment", async () => {
    vi.stubEnv("SITEOPS_API_TOKEN", "sot_wrongToken00000000000");
    try {
      const so = new SiteOps({ baseUrl: env.url });
      const err = await failure(so.me());
      await so.close();
      expect(err).toMatchObject({ code: "AUTHENTICATION_FAILED", credentialSource: "SITEOPS_API_TOKEN" });
      expect(describeError(err)).toContain("The API token from SITEOPS_API_TOKEN was refused");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("none for credentials the client was handed (auth) or logged in with", async () => {
    const login = await failure(SiteOps.login({ baseUrl: env.url, email: "owner@acme.test", password: "wrong password" }));
    expect(login).toBeInstanceOf(AuthenticationError);
    expect((login as AuthenticationError).credentialSource).toBeUndefined();
  });
});
