// The control API under /__emulator (docs/design.md section 3): loopback only, no auth, emulator only. A browser
// on the developer's machine is loopback too, so besides the peer address every request must name the
// emulator itself in Host (127.0.0.1, localhost or [::1] with its port: DNS rebinding sends the attacker's
// name) and carry no Origin but the emulator's own (a cross-site page's fetch or form POST always sends
// its Origin on a POST or DELETE; `null` from a sandboxed frame is foreign too). Refused: 403.
import { Type } from "typebox";
import type { FastifyRequest } from "fastify";
import type { App } from "../http.js";
import type { Faults } from "./faults.js";
import type { EmulatorContext } from "../context.js";
import { HttpError } from "../errors.js";
import { runHealthChecks } from "../services/health-checks.js";
import { parseJson } from "../store/db.js";
import { listDeliveries } from "../store/webhook-deliveries.js";

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;
const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i;

/** `host[:port]` names this emulator: a loopback name and the port it listens on (80 when omitted). */
function isOwnAuthority(authority: string, port: number | null): boolean {
  const m = /^(.*?)(?::(\d+))?$/.exec(authority);
  if (!m || !LOOPBACK_HOST.test(m[1]!)) return false;
  return port === null || Number(m[2] ?? 80) === port;
}

/** Why a control request is refused, or null: peer address, Host, Origin (see the file comment). */
function controlRefusal(req: FastifyRequest, port: number | null): string | null {
  if (!LOOPBACK.test(req.ip)) return "The control API is only available on loopback";
  if (!isOwnAuthority(req.headers.host ?? "", port))
    return "The control API needs a loopback Host header (127.0.0.1, localhost or [::1] with the emulator's port)";
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const m = /^http:\/\/([^/]+)$/i.exec(origin);
    if (!m || !isOwnAuthority(m[1]!, port)) return "The control API refuses cross-origin requests";
  }
  const site = req.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return "The control API refuses cross-origin requests";
  return null;
}

const FaultRuleSchema = Type.Object({
  method: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
  path: Type.String({ minLength: 1, maxLength: 500 }),
  phase: Type.Optional(Type.Union([Type.Literal("before"), Type.Literal("after"), Type.Literal("drop_body")])),
  status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
  reset_connection: Type.Optional(Type.Boolean()),
  rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  count: Type.Optional(Type.Integer({ minimum: 1 })),
  retry_after: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
});

const StepSchema = Type.Union([Type.Literal("snapshot"), Type.Literal("preflight"), Type.Literal("apply"), Type.Literal("verify")]);
const HealthSchema = Type.Union([Type.Literal("passed"), Type.Literal("warning"), Type.Literal("failed")]);

const OutcomeRuleSchema = Type.Object({
  site_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  outcome: Type.Union([Type.Literal("fail"), Type.Literal("roll_back"), Type.Literal("succeed"), Type.Literal("hang")]),
  at_step: Type.Optional(StepSchema),
  health: Type.Optional(HealthSchema),
  count: Type.Optional(Type.Integer({ minimum: 1 })),
});

export interface AppControls {
  faults: Faults;
  /** Empties the store and re-seeds (POST /__emulator/reset). */
  reset(): Promise<void>;
}

export function registerControlRoutes(app: App, ctx: EmulatorContext, controls: AppControls): void {
  app.addHook("onRequest", async (req) => {
    const refusal = controlRefusal(req, ctx.listener.port);
    if (refusal) throw new HttpError(403, refusal);
  });

  app.post("/reset", async () => {
    await controls.reset();
    return { reset: true };
  });

  app.get("/clock", async () => ({ now: ctx.clock.iso(), offset_seconds: ctx.clock.offsetMs / 1000 }));

  app.post("/clock", { schema: { body: Type.Object({ advance_seconds: Type.Number({ minimum: 0, maximum: 10 * 365 * 86_400 }) }) } }, async (req) => {
    ctx.clock.advance(req.body.advance_seconds);
    return { now: ctx.clock.iso(), offset_seconds: ctx.clock.offsetMs / 1000 };
  });

  app.get("/faults", async () => ({ rules: controls.faults.list() }));
  app.post("/faults", { schema: { body: Type.Object({ rules: Type.Array(FaultRuleSchema, { maxItems: 100 }) }) } }, async (req) => {
    controls.faults.add(req.body.rules);
    return { rules: controls.faults.list() };
  });
  app.delete("/faults", async (_req, reply) => {
    controls.faults.clear();
    return reply.code(204).send();
  });

  // How chosen sites' pipelines end (control/pipeline-outcomes.ts says how rules match and what each does).
  app.get("/pipeline-outcomes", async () => ({ rules: ctx.pipelineOutcomes.list() }));
  app.post("/pipeline-outcomes", { schema: { body: Type.Object({ rules: Type.Array(OutcomeRuleSchema, { maxItems: 100 }) }) } }, async (req) => {
    ctx.pipelineOutcomes.add(req.body.rules);
    return { rules: ctx.pipelineOutcomes.list() };
  });
  app.delete("/pipeline-outcomes", async (_req, reply) => {
    ctx.pipelineOutcomes.clear();
    return reply.code(204).send();
  });

  // Pipeline states named otherwise in answers (control/pipeline-states.ts): a second server's names.
  app.get("/pipeline-states", async () => ({ names: ctx.pipelineStates.list() }));
  app.post(
    "/pipeline-states",
    { schema: { body: Type.Object({ names: Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 40 })) }) } },
    async (req) => {
      ctx.pipelineStates.set(req.body.names);
      return { names: ctx.pipelineStates.list() };
    },
  );
  app.delete("/pipeline-states", async (_req, reply) => {
    ctx.pipelineStates.clear();
    return reply.code(204).send();
  });

  app.post(
    "/health_checks",
    {
      schema: {
        body: Type.Object({
          site_id: Type.Optional(Type.String()),
          status: Type.Optional(HealthSchema),
        }),
      },
    },
    async (req) => {
      const { site_id, status } = req.body ?? {};
      return { health_checks: runHealthChecks(ctx, { siteId: site_id, status }) };
    },
  );

  app.get("/webhook_deliveries", async (req) => {
    const q = req.query as { endpoint_id?: string; status?: string };
    const rows = listDeliveries(ctx.db, { endpointId: q.endpoint_id ?? null, status: q.status ?? null });
    return {
      deliveries: rows.map((r) => ({
        id: r.id,
        endpoint_id: r.endpoint_id,
        event_type: r.event_type,
        status: r.status,
        attempts: r.attempts,
        next_attempt_at: r.next_attempt_ms == null ? null : ctx.clock.iso(r.next_attempt_ms),
        last_status: r.last_status,
        last_error: r.last_error,
        payload: parseJson(r.payload, {}),
        created_at: r.created_at,
      })),
    };
  });
}
