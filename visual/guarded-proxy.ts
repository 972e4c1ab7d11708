// The forward proxy every page the visual check loads goes through, so that it keeps the HTTP gate's rule (issue 48
// item 2, common/addresses.ts): a site's URL, each redirect hop and each resource never reach a link-local address
// or a cloud metadata service. Playwright's route() sees only the first URL of a redirect chain, and Chromium itself
// resolves and connects; so Chromium is given this proxy (browser.ts, with `<-loopback>`: Chromium's implicit bypass
// covers 169.254/16 and fe80::/10 literals as well as loopback, and is subtracted whole), and the proxy judges each
// CONNECT host:port and each absolute-form http:// request as the HTTP gate does: the host (refusedHost), then every
// address its name resolves to, by the socket's own lookup before it connects (the core's guardedLookup). A refused
// one gets 403 and nothing is connected; the refusal is kept so that the capture names it (problem()), as is why a
// connection failed (in the words Chromium uses when it connects itself). It listens on 127.0.0.1, port 0, for as
// long as the browser runs.

import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { bareHost, refusedHost } from "../common/addresses.js";
import { guardedLookup, type HttpGateLookup, REFUSED_ADDRESS } from "../src/fleet.js";

/** A running proxy. */
export interface GuardedProxy {
  /** `http://127.0.0.1:PORT`, as Chromium's --proxy-server takes it. */
  readonly server: string;
  /** Why the proxy refused the host and port of `url` (for good), or why its latest connection there failed (until
   * one succeeds); undefined when neither. */
  problem(url: string): ProxyProblem | undefined;
  close(): Promise<void>;
}

/** What went wrong with a host and port. */
export interface ProxyProblem {
  refused: boolean;
  why: string;
}

/** Node's codes of a failed connection as Chromium names them when it connects itself. */
const CHROMIUM_NAMES: Record<string, string> = {
  ECONNREFUSED: "net::ERR_CONNECTION_REFUSED",
  ECONNRESET: "net::ERR_CONNECTION_RESET",
  ENOTFOUND: "net::ERR_NAME_NOT_RESOLVED",
  EAI_AGAIN: "net::ERR_NAME_NOT_RESOLVED",
  ETIMEDOUT: "net::ERR_CONNECTION_TIMED_OUT",
  EHOSTUNREACH: "net::ERR_ADDRESS_UNREACHABLE",
  ENETUNREACH: "net::ERR_ADDRESS_UNREACHABLE",
};

/** Headers that concern one connection, not the request: not forwarded either way. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer", "upgrade"]);

const DEFAULT_PORT: Record<string, string> = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443" };

/** The key a refusal is kept under: the host as a URL spells it (lower case, IPv6 without brackets) and the port. */
const authority = (host: string, port: string | number): string => `${bareHost(host).toLowerCase()}:${port}`;

/** Starts the proxy; `lookup` resolves names (node:dns's by default; tests give a stub). */
export async function startGuardedProxy(lookup?: HttpGateLookup): Promise<GuardedProxy> {
  const guarded = guardedLookup(lookup);
  const problems = new Map<string, ProxyProblem>();
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };

  /** Connects to host:port unless the host or an address of its name is refused; `fail` gets what went wrong (also
   * kept for problem()), `ready` the connection. */
  const open = (host: string, port: number, fail: (problem: ProxyProblem) => void, ready: (upstream: Socket) => void) => {
    const key = authority(host, port);
    const failed = (problem: ProxyProblem) => {
      if (!problems.get(key)?.refused) problems.set(key, problem);
      fail(problem);
    };
    const why = refusedHost(host);
    if (why) return failed({ refused: true, why });
    const upstream = connect({ host: bareHost(host), port, lookup: guarded });
    track(upstream);
    // Until it connects: why it did not (after, the caller's own handlers take its errors).
    const notConnected = (err: NodeJS.ErrnoException) =>
      failed(err.code === REFUSED_ADDRESS ? { refused: true, why: err.message } : { refused: false, why: CHROMIUM_NAMES[err.code ?? ""] ?? err.message });
    upstream.once("error", notConnected);
    upstream.once("connect", () => {
      upstream.off("error", notConnected);
      if (!problems.get(key)?.refused) problems.delete(key);
      ready(upstream);
    });
  };

  const server = createServer({ requireHostHeader: false });
  server.on("connection", track);
  server.on("clientError", (_err, socket) => socket.destroy());

  server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on("error", () => client.destroy());
    const target = parseAuthority(req.url ?? "");
    if (!target) return answer(client, 400, "Bad Request", "CONNECT takes host:port");
    open(
      target.host,
      target.port,
      (problem) => (problem.refused ? answer(client, 403, "Forbidden", `refused: ${problem.why}`) : answer(client, 502, "Bad Gateway", problem.why)),
      (upstream) => {
        if (client.destroyed) return void upstream.destroy();
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length) upstream.write(head);
        upstream.on("error", () => client.destroy());
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
        upstream.pipe(client);
        client.pipe(upstream);
      },
    );
  });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      return reply(res, 400, "this is a forward proxy: it takes absolute http:// URLs");
    }
    if (url.protocol !== "http:") return reply(res, 400, `${url.protocol} is not proxied here`);
    const port = Number(url.port || 80);
    open(
      url.hostname,
      port,
      (problem) => (problem.refused ? reply(res, 403, `refused: ${problem.why}`) : reply(res, 502, problem.why)),
      (upstream) => {
        if (req.socket.destroyed) return void upstream.destroy();
        const path = url.pathname + url.search;
        const forward = httpRequest({ createConnection: () => upstream, method: req.method, path, headers: endToEnd(req.rawHeaders) }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
          answer.once("error", () => res.destroy());
          answer.pipe(res);
        });
        forward.on("error", (err) => (res.headersSent ? res.destroy() : reply(res, 502, err.message)));
        res.on("close", () => forward.destroy());
        req.pipe(forward);
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    server: `http://127.0.0.1:${port}`,
    problem(url) {
      try {
        const u = new URL(url);
        return problems.get(authority(u.hostname, u.port || DEFAULT_PORT[u.protocol] || ""));
      } catch {
        return undefined;
      }
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Raw headers (name, value, name, value...) without the hop-by-hop ones. */
function endToEnd(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  return kept;
}

/** `host:port` or `[v6]:port` of a CONNECT, or undefined. */
function parseAuthority(text: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]/\s]+):(\d{1,5})$/i.exec(text);
  const port = Number(m?.[2]);
  if (!m || port < 1 || port > 65535) return undefined;
  return { host: m[1]!, port };
}

/** A CONNECT's answer without a tunnel, then the client's socket closed. */
function answer(client: Duplex, status: number, text: string, body: string): void {
  client.end(
    `HTTP/1.1 ${status} ${text}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** A plain request's answer from the proxy itself. */
function reply(res: ServerResponse, status: number, body: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" });
  res.end(body);
}
