// Starts a seeded emulator on a free port and hands out clients for it. Every integration test of the core
// runs against this real server; mocks are only for what it cannot produce.
import { createHmac } from "node:crypto";
import { createServer, request, Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmulatorOptions, SeedFile } from "../../emulator/index.js";
import { SiteOps, type ClientOptions, type HttpTransport, type RequestLogEvent } from "../../src/index.js";
import { spawnEmulator as spawnEmulatorProcess, startSeededEmulator, type EmulatorProcess } from "../support/emulator.js";

export const OWNER_TOKEN = "sot_ownerToken0000000000001";
export const MEMBER_TOKEN = "sot_memberToken000000000001";
export const OTHER_TOKEN = "sot_otherAccount00000000001";
export const PASSWORD = "correct horse battery staple";
export const OTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/** The client's HTTP stacks: the tests of what goes over the wire run once on each (`describe.each`). */
export const TRANSPORTS: readonly HttpTransport[] = ["undici", "node:http"];

export const SEED: SeedFile = {
  accounts: [
    {
      name: "Acme",
      users: [
        { email: "owner@acme.test", password: PASSWORD, name: "Olive Owner", role: "owner" },
        { email: "member@acme.test", password: PASSWORD, name: "Mel Member", role: "member" },
        { email: "2fa@acme.test", password: PASSWORD, name: "Tess Twofactor", role: "admin", otp_secret: OTP_SECRET },
      ],
      api_tokens: [
        { token: OWNER_TOKEN, user_email: "owner@acme.test", name: "ci" },
        { token: MEMBER_TOKEN, user_email: "member@acme.test" },
      ],
      sites: [
        { name: "Blog", url: "https://blog.acme.test", wp_version: "6.4", php_version: "8.1" },
        { name: "Shop", url: "https://shop.acme.test" },
      ],
    },
    {
      name: "Other",
      users: [
        { email: "owner@other.test", password: PASSWORD, name: "Otto Other", role: "owner" },
        // Also a member of Acme: selects this account with X-Account-Id.
        { email: "member@acme.test", password: PASSWORD, name: "Mel Member", role: "member" },
      ],
      api_tokens: [{ token: OTHER_TOKEN, user_email: "owner@other.test" }],
      sites: [{ name: "Private", url: "https://private.other.test" }],
    },
  ],
};

export interface TestEmulator {
  url: string;
  /** A client with the owner's API token; `events` collects its log events. */
  so: SiteOps;
  events: RequestLogEvent[];
  client(options?: ClientOptions): SiteOps;
  /** Calls the emulator's control API. */
  control(method: "POST" | "DELETE" | "GET", path: string, body?: unknown): Promise<unknown>;
  /** Moves the emulator clock forward (JWT expiry, health check schedule). */
  advanceClock(seconds: number): Promise<void>;
  /** Current time on the emulator clock, in ms. */
  now(): number;
  close(): Promise<void>;
}

/** `clientDefaults` apply to every client it hands out (`so` too), e.g. `{ transport: "node:http" }`. */
export async function startTestEmulator(options: EmulatorOptions = {}, clientDefaults: ClientOptions = {}): Promise<TestEmulator> {
  const emulator = await startSeededEmulator(SEED, options);
  const clients: SiteOps[] = [];
  const events: RequestLogEvent[] = [];
  const client = (opts: ClientOptions = {}): SiteOps => {
    const c = new SiteOps({ baseUrl: emulator.url, apiToken: OWNER_TOKEN, ...clientDefaults, ...opts });
    clients.push(c);
    return c;
  };
  const so = client({ logger: (e) => events.push(e) });
  let offsetMs = 0;
  const control = async (method: "POST" | "DELETE" | "GET", path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${emulator.url}/__emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return {
    url: emulator.url,
    so,
    events,
    client,
    control,
    async advanceClock(seconds) {
      await control("POST", "clock", { advance_seconds: seconds });
      offsetMs += seconds * 1000;
    },
    now: () => Date.now() + offsetMs,
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await emulator.close();
    },
  };
}

/** What a hooked proxy hands its hook: the request as it arrived; changes to `headers` are forwarded. */
export interface HookedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

export interface HookedProxy {
  /** Give this to a client as its `baseUrl`. */
  url: string;
  close(): Promise<void>;
}

/**
 * A proxy in front of `url` (port 0) that awaits `before(n, request)` ahead of forwarding its n-th request
 * (0-based): lets a test act between two attempts of one call (another writer, arming a fault for one chunk),
 * or change the request on its way as a real proxy might, whichever HTTP stack the client uses. A connection
 * the service resets (or cuts mid-body) is reset towards the client too, so the emulator's faults pass through.
 */
export async function hookedProxy(url: string, before: (n: number, request: HookedRequest) => void | Promise<void>): Promise<HookedProxy> {
  const upstream = new URL(url);
  const agent = new Agent({ keepAlive: true });
  let n = 0;
  const server = createServer((req, res) => {
    const headers = withoutHopByHop(req.headers) as Record<string, string>;
    void (async () => {
      await before(n++, { method: req.method!, path: req.url!, headers });
      const forward = request(
        { agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode!, withoutHopByHop(answer.headers));
          answer.pipe(res);
          answer.on("error", () => res.socket?.destroy()); // cut mid-body: cut the client's too
        },
      );
      forward.on("error", () => res.socket?.destroy()); // reset before an answer
      req.pipe(forward);
    })().catch(() => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}

function withoutHopByHop(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const { connection: _connection, "keep-alive": _keepAlive, ...rest } = headers;
  return rest;
}

/** Advances vitest's fake clock in steps, letting real I/O happen in between, until `done` settles. */
export async function runFakeClock<T>(done: Promise<T>, stepMs = 100): Promise<T> {
  const { vi } = await import("vitest");
  let finished = false;
  void done.then(
    () => (finished = true),
    () => (finished = true),
  );
  while (!finished) {
    await vi.advanceTimersByTimeAsync(stepMs);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  }
  return done;
}

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), computed here independently of the emulator. */
export function totp(secret: string, atMs = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of secret.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, "0");
}

/** Runs the emulator in its own process (`siteops emulator`, SEED, a data dir of its own), so that memory measured
 * in this process is the client's alone. Used by the large-upload test. */
export function spawnEmulator(args: string[] = []): Promise<EmulatorProcess> {
  return spawnEmulatorProcess({ seed: SEED, dataDir: true, args: ["--step-seconds", "0", ...args] });
}
