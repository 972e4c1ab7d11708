// The security suite's tools (issue 17): raw HTTP requests for what fetch will not send (a foreign or
// malformed Host, an encoded path, a broken Content-Length), from a chosen loopback source address so a
// test can be two clients; a local webhook receiver that records what reaches it; and a resolver stub for the
// HTTP gate's and the visual check's guarded lookup (names mapped to addresses, nothing asked of DNS).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import type { HttpGateLookup } from "../../src/fleet.js";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface RawOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Source address of the connection (127.0.0.2 is another client on the same machine). */
  localAddress?: string;
}

/** One request with exactly these headers (Host included: nothing is added but Content-Length for a body). */
export function send(port: number, method: string, path: string, opts: RawOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...opts.headers };
    if (opts.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-length")) {
      headers["content-length"] = String(Buffer.byteLength(opts.body));
    }
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers, setHost: false, localAddress: opts.localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parse(text) });
      });
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** JSON body, content type and an API token or `Bearer ...` credential. */
export function sendJson(port: number, method: string, path: string, body: unknown, opts: RawOptions & { token?: string } = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
  if (opts.token) headers.authorization = /^(bearer|token) /i.test(opts.token) ? opts.token : `token ${opts.token}`;
  return send(port, method, path, { ...opts, headers, body: JSON.stringify(body) });
}

/** Bytes exactly as given, for what Node's client refuses to send (a Content-Length of "abc"); the raw answer. */
export function sendRaw(port: number, text: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const [head = "", ...rest] = raw.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: IncomingHttpHeaders = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const text = rest.join("\r\n\r\n");
      resolve({ status: Number(statusLine.split(" ")[1] ?? 0), headers, text, body: parse(text) });
    });
  });
}

export interface Receiver {
  url: string;
  port: number;
  hits: { path: string; body: string }[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 that answers 200 and records every request. */
export async function startReceiver(): Promise<Receiver> {
  const hits: Receiver["hits"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The design's error shape: one `error` string (and `errors` only for field validation). */
export function expectErrorShape(res: RawResponse, status: number): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  const body = res.body as Record<string, unknown>;
  if (typeof body !== "object" || body === null || typeof body.error !== "string") throw new Error(`not the error shape: ${res.text}`);
  const extra = Object.keys(body).filter((k) => k !== "error" && k !== "errors");
  if (extra.length) throw new Error(`unexpected keys ${extra.join(", ")} in ${res.text}`);
  if (!res.headers["x-request-id"]) throw new Error("no X-Request-Id header");
}

/** A browser's cookie jar over raw requests: the console's forms by hand, from a chosen source address. */
export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly port: number,
    readonly localAddress?: string,
  ) {}

  async request(method: string, path: string, form?: Record<string, string>): Promise<RawResponse> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await send(this.port, method, path, { headers, localAddress: this.localAddress, body: form && new URLSearchParams(form).toString() });
    const set = res.headers["set-cookie"] ?? [];
    for (const line of set) {
      const [pair = ""] = line.split(";");
      const i = pair.indexOf("=");
      const [name, value] = [pair.slice(0, i), pair.slice(i + 1)];
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** The `_csrf` field of the page at `path`. */
  async csrf(path: string): Promise<string> {
    const page = await this.request("GET", path);
    const m = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!m) throw new Error(`no _csrf field on ${path} (${page.status})`);
    return m[1]!;
  }

  async signIn(email: string, password: string): Promise<void> {
    const res = await this.request("POST", "/sign-in", { email, password, _csrf: await this.csrf("/sign-in") });
    if (res.status !== 303) throw new Error(`sign-in: ${res.status} ${res.text.slice(0, 200)}`);
  }
}

/** A resolver of these names only (anything else: ENOTFOUND), recording what it was asked. */
export function resolverStub(names: Record<string, string[]>): HttpGateLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = ((hostname, _options, callback) => {
    asked.push(hostname);
    const addresses = names[hostname];
    if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  }) as HttpGateLookup & { asked: string[] };
  lookup.asked = asked;
  return lookup;
}
