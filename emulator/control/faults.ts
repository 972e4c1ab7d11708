// Fault injection for the control API: rules matched against API requests as they arrive. A rule strikes
// before the request is handled (phase "before": the service never saw it), or after it was handled and
// committed, as a proxy between client and service would (phase "after": the answer is replaced or the
// connection reset; "drop_body": the status line and headers go out, then the connection is reset mid-body).
// Used by tests of retries, timeouts, uploads and uncertain outcomes (what a real peer won't do on demand).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { HttpError } from "../errors.js";
import { compileGlob, globMatches, type CompiledGlob } from "./glob.js";

export type FaultPhase = "before" | "after" | "drop_body";

export interface FaultRule {
  /** HTTP method to match; any when absent. */
  method?: string;
  /** Glob on the path (no query): `*` matches within a segment, `**` across segments. */
  path: string;
  /** When the fault strikes. "before" (default): instead of handling the request. "after": the request is
   * handled and committed first, then its answer is replaced (`status`), the connection reset
   * (`reset_connection`) or only delayed (`delay_ms` alone). "drop_body": handled, then the real status line
   * and headers are sent and the connection is reset halfway through the body. */
  phase?: FaultPhase;
  /** Respond with this status and a JSON error (before: instead of handling; after: instead of the answer). */
  status?: number;
  /** Wait this long before handling (phase "before") or before answering (phases "after", "drop_body"). */
  delay_ms?: number;
  /** Destroy the connection without a response (before handling, or after it with phase "after"). */
  reset_connection?: boolean;
  /** Probability (0..1) that a matching request is affected. Default 1. */
  rate?: number;
  /** How many matching requests to affect; unlimited when absent. */
  count?: number;
  /** Seconds for the Retry-After header of a 429/503 answer. Default 1. */
  retry_after?: number;
}

interface ActiveRule extends FaultRule {
  glob: CompiledGlob;
  remaining: number;
  hits: number;
}

const STATUS_TEXT: Record<number, string> = {
  408: "Request timeout",
  429: "Rate limit exceeded. Try again in 1 seconds.",
  500: "Internal server error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

/**
 * Rules in place at most, and their paths' characters at most: every request is matched against every rule,
 * at a cost of path length x glob length / 32 word operations (glob.ts), so both bound what an unauthenticated
 * request with a long path can cost (docs/design.md, the emulator's security).
 */
export const MAX_FAULT_RULES = 100;
export const MAX_FAULT_GLOB_CHARS = 4096;

export class Faults {
  #rules: ActiveRule[] = [];

  /** Adds rules after those in place; 422 (nothing added) past MAX_FAULT_RULES or MAX_FAULT_GLOB_CHARS. */
  add(rules: FaultRule[]): void {
    const all = [...this.#rules, ...rules];
    if (all.length > MAX_FAULT_RULES) throw new HttpError(422, `At most ${MAX_FAULT_RULES} fault rules can be in place; clear them first`);
    const chars = all.reduce((sum, r) => sum + r.path.length, 0);
    if (chars > MAX_FAULT_GLOB_CHARS) {
      throw new HttpError(422, `The paths of the fault rules in place may total at most ${MAX_FAULT_GLOB_CHARS} characters; clear them first`);
    }
    this.#rules = [...this.#rules, ...rules.map((r) => ({ ...r, glob: compileGlob(r.path), remaining: r.count ?? Infinity, hits: 0 }))];
  }

  /** True while any rule is set (the request hook skips fault matching otherwise). */
  get active(): boolean {
    return this.#rules.length > 0;
  }

  clear(): void {
    this.#rules = [];
  }

  list(): (FaultRule & { hits: number; remaining: number | null })[] {
    return this.#rules.map(({ glob: _glob, remaining, ...r }) => ({ ...r, remaining: Number.isFinite(remaining) ? remaining : null }));
  }

  #match(method: string, path: string): ActiveRule | undefined {
    for (const r of this.#rules) {
      if (r.remaining <= 0) continue;
      if (r.method && r.method.toUpperCase() !== method) continue;
      if (!globMatches(r.glob, path)) continue;
      if (r.rate !== undefined && Math.random() >= r.rate) continue;
      r.remaining--;
      r.hits++;
      return r;
    }
    return undefined;
  }

  async apply(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (this.#rules.length === 0) return;
    const rule = this.#match(req.method, req.url.split("?")[0]!);
    if (!rule) return;
    if (rule.phase === "after" || rule.phase === "drop_body") {
      interceptAnswer(reply, rule);
      return; // the request goes on to be handled
    }
    if (rule.delay_ms) await sleep(rule.delay_ms);
    if (rule.reset_connection) {
      req.raw.socket.destroy();
      await reply.hijack();
      return;
    }
    if (rule.status) {
      const { headers, body } = faultAnswer(rule, rule.status);
      for (const [name, value] of Object.entries(headers)) reply.header(name, value);
      await reply.code(rule.status).send(body);
    }
  }
}

function faultAnswer(rule: FaultRule, status: number): { headers: Record<string, string>; body: { error: string } } {
  const retryAfter = String(rule.retry_after ?? 1);
  const headers: Record<string, string> = status === 429 || status === 503 ? { "retry-after": retryAfter } : {};
  const message = status === 429 ? `Rate limit exceeded. Try again in ${retryAfter} seconds.` : (STATUS_TEXT[status] ?? "Injected fault");
  return { headers, body: { error: message } };
}

/**
 * Lets the request be handled, then acts on its answer at the last moment, after the whole of Fastify
 * (hooks, the idempotency record) is done with it: what a proxy between the client and the service does.
 * Fastify answers with one writeHead(status, headers) and one end(payload).
 */
function interceptAnswer(reply: FastifyReply, rule: FaultRule): void {
  const res: ServerResponse = reply.raw;
  const writeHead = res.writeHead;
  const end = res.end;
  let head: [number, OutgoingHttpHeaders] = [200, {}];
  res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) => {
    head = [status, headers ?? {}];
    return res;
  }) as typeof res.writeHead;
  res.end = ((payload?: string | Buffer | null) => {
    res.writeHead = writeHead;
    res.end = end;
    // Fastify counts an answer as sent once the response ended; from here this function owns it, so
    // nothing runs on (a hook that answered a replay must not be followed by the route handler).
    void reply.hijack();
    const body = payload ? Buffer.from(payload) : Buffer.alloc(0);
    const act = (): void => {
      if (res.destroyed) return;
      if (rule.phase === "drop_body") {
        res.writeHead(head[0], head[1]);
        // The head (and half the body) must reach the client before the reset.
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => setImmediate(() => res.socket?.destroy()));
      } else if (rule.reset_connection) {
        res.socket?.destroy();
      } else if (rule.status) {
        const fault = faultAnswer(rule, rule.status);
        const json = JSON.stringify(fault.body);
        const requestId = head[1]["x-request-id"];
        res.writeHead(rule.status, {
          ...fault.headers,
          ...(requestId === undefined ? {} : { "x-request-id": requestId }),
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(json),
        });
        res.end(json);
      } else {
        res.writeHead(head[0], head[1]);
        res.end(body);
      }
    };
    if (rule.delay_ms) void sleep(rule.delay_ms).then(act);
    else act();
    return res;
  }) as typeof res.end;
}
