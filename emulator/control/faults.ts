// Fault injection for the control API: rules matched against API requests before they are handled.
// Used by tests of retries, timeouts and resumable uploads (what a real peer won't do on demand).
import type { FastifyReply, FastifyRequest } from "fastify";
import { setTimeout as sleep } from "node:timers/promises";

export interface FaultRule {
  /** HTTP method to match; any when absent. */
  method?: string;
  /** Glob on the path (no query): `*` matches within a segment, `**` across segments. */
  path: string;
  /** Respond with this status and a JSON error instead of handling the request. */
  status?: number;
  /** Wait this long before handling (or before the status/reset). */
  delay_ms?: number;
  /** Destroy the connection without a response. */
  reset_connection?: boolean;
  /** Probability (0..1) that a matching request is affected. Default 1. */
  rate?: number;
  /** How many matching requests to affect; unlimited when absent. */
  count?: number;
  /** Seconds for the Retry-After header of a 429/503 answer. Default 1. */
  retry_after?: number;
}

interface ActiveRule extends FaultRule {
  regex: RegExp;
  remaining: number;
  hits: number;
}

export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        re += ".*";
        i++;
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

const STATUS_TEXT: Record<number, string> = {
  408: "Request timeout",
  429: "Rate limit exceeded. Try again in 1 seconds.",
  500: "Internal server error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

export class Faults {
  #rules: ActiveRule[] = [];

  set(rules: FaultRule[]): void {
    this.#rules = rules.map((r) => ({ ...r, regex: globToRegExp(r.path), remaining: r.count ?? Infinity, hits: 0 }));
  }

  add(rules: FaultRule[]): void {
    const current = this.#rules;
    this.set(rules);
    this.#rules = [...current, ...this.#rules];
  }

  /** True while any rule is set (the request hook skips fault matching otherwise). */
  get active(): boolean {
    return this.#rules.length > 0;
  }

  clear(): void {
    this.#rules = [];
  }

  list(): (FaultRule & { hits: number; remaining: number | null })[] {
    return this.#rules.map(({ regex: _regex, remaining, ...r }) => ({ ...r, remaining: Number.isFinite(remaining) ? remaining : null }));
  }

  #match(method: string, path: string): ActiveRule | undefined {
    for (const r of this.#rules) {
      if (r.remaining <= 0) continue;
      if (r.method && r.method.toUpperCase() !== method) continue;
      if (!r.regex.test(path)) continue;
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
    if (rule.delay_ms) await sleep(rule.delay_ms);
    if (rule.reset_connection) {
      req.raw.socket.destroy();
      await reply.hijack();
      return;
    }
    if (rule.status) {
      const retryAfter = String(rule.retry_after ?? 1);
      if (rule.status === 429 || rule.status === 503) reply.header("Retry-After", retryAfter);
      const message =
        rule.status === 429 ? `Rate limit exceeded. Try again in ${retryAfter} seconds.` : (STATUS_TEXT[rule.status] ?? "Injected fault");
      await reply.code(rule.status).send({ error: message });
    }
  }
}
