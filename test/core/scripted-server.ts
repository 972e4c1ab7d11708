// A port-0 HTTP server that answers from a script of canned replies, for what the emulator cannot produce on
// demand (a proxy's HTML 502, an HTTP-date Retry-After, pages without pagination headers, a server that never
// stops paging, an answer that stalls mid-body). A real server, so the tests run on either HTTP stack.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

interface SeenRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface ScriptedReply {
  status: number;
  /** An object or array is sent as JSON; a string as it is. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Answers a request itself, for what a canned reply cannot do (stall, cut the connection). */
type RawReply = (res: ServerResponse, request: SeenRequest) => void;

interface Script {
  method: string | undefined;
  path: string;
  reply: ScriptedReply | RawReply | ((request: SeenRequest) => ScriptedReply);
  raw: boolean;
  times: number;
}

export interface ScriptedServer {
  url: string;
  /** Every request received whole, in order. */
  requests: SeenRequest[];
  /** Every request whose head arrived, in order, with the connection it came on. */
  arrivals: { path: string; socket: Socket }[];
  /** Connections accepted so far. */
  connections(): number;
  /** Answers the next `times` requests to `path` (with its query, as sent; and `method`, when given) with `reply`. */
  reply(match: { path: string; method?: string }, reply: ScriptedReply | ((request: SeenRequest) => ScriptedReply), options?: { times?: number }): void;
  /** As reply(), with the response in the script's hands. */
  raw(match: { path: string; method?: string }, reply: RawReply, options?: { times?: number }): void;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const scripts: Script[] = [];
  const requests: SeenRequest[] = [];
  const arrivals: ScriptedServer["arrivals"] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((req, res) => {
    arrivals.push({ path: req.url!, socket: req.socket });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const seen: SeenRequest = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(seen);
      const script = scripts.find((s) => s.times > 0 && s.path === seen.path && (s.method === undefined || s.method === seen.method));
      if (!script) {
        res.writeHead(501, { "content-type": "application/json" }).end(JSON.stringify({ error: `no scripted reply for ${seen.method} ${seen.path}` }));
        return;
      }
      script.times--;
      if (script.raw) return (script.reply as RawReply)(res, seen);
      const reply = typeof script.reply === "function" ? (script.reply as (request: SeenRequest) => ScriptedReply)(seen) : script.reply;
      const text = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { "content-length": String(Buffer.byteLength(text)), ...reply.headers }).end(text);
    });
  });
  server.on("connection", (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const add = (match: { path: string; method?: string }, reply: Script["reply"], raw: boolean, times = 1) =>
    void scripts.push({ method: match.method, path: match.path, reply, raw, times });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    arrivals,
    connections: () => connections,
    reply: (match, reply, options) => add(match, reply, false, options?.times),
    raw: (match, reply, options) => add(match, reply, true, options?.times),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
