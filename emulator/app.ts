// Builds the Fastify app: request ids, the error shapes of DESIGN.md section 2, authentication,
// faults, rate limiting, idempotency, and every route module. No listening here (server.ts does).
// Routes are HTTP only (schema, auth guard, one service call, reply): routes/ -> services/ (rules,
// state transitions, activity, events) -> store/ (SQL, one module per table family).
//
// The hot path (an authenticated GET /sites/:id, bench/emulator-get-site.bench.ts) takes no promise and
// no crypto call it can avoid: request ids are a counter (nextRequestId), the onRequest hook is callback
// style and synchronous for an API token, valid API tokens are cached by hash (auth/authenticate.ts), and
// sites are cached as the API shows them (store/sites.ts, whose one write path keeps the cache true).
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type onRequestHookHandler } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { EmulatorContext } from "./context.js";
import type { App } from "./http.js";
import { HttpError, MESSAGES, validationFailed } from "./errors.js";
import { JSON_BODY_LIMIT } from "./options.js";
import { randomAlphanumeric } from "./ids.js";
import { authenticate } from "./auth/authenticate.js";
import "./auth/guards.js"; // declares req.auth, which the hook below sets
import { fieldErrorsFromAjv } from "./validation.js";
import { RateLimiter } from "./rate-limit.js";
import { installIdempotency } from "./idempotency.js";
import { routeModules } from "./routes/index.js";
import { registerControlRoutes, type AppControls } from "./control/routes.js";
import type { Faults } from "./control/faults.js";
import { collectOpenApi, registerOpenApiRoute } from "./openapi.js";

export type { App } from "./http.js";
export type { AppControls } from "./control/routes.js";

function sendError(reply: FastifyReply, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  void reply.code(status).type("application/json; charset=utf-8").send(body);
}

// Request ids: a random per-process prefix plus a counter, unique without a crypto call per request
// (this runs on every request; the benchmark path is a plain GET).
const REQUEST_ID_PREFIX = `req_${randomAlphanumeric(10)}`;
let requestCounter = 0;
function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % 36 ** 10;
  return REQUEST_ID_PREFIX + requestCounter.toString(36).padStart(10, "0");
}

/**
 * Request ids, authentication, faults and rate limits, in that order, for every request. Callback
 * style rather than async: this runs on every request, and the common case (an API token, no faults)
 * completes synchronously without a promise.
 */
function onRequest(ctx: EmulatorContext, faults: Faults, limiter: RateLimiter | undefined): onRequestHookHandler {
  return (req, reply, done) => {
    reply.header("X-Request-Id", req.id);
    // A DELETE has no body: one that declares JSON but sends nothing is not "malformed JSON".
    if (req.method === "DELETE" && !req.headers["transfer-encoding"] && (req.headers["content-length"] ?? "0") === "0") {
      delete req.raw.headers["content-type"];
    }
    if (!req.url.startsWith("/api/")) return done();
    const authenticateRequest = (): void => {
      limiter?.check(req, reply);
      if (req.is404 || req.routeOptions.config?.public) return done(); // unknown routes: the not-found handler answers
      const auth = authenticate(ctx, req);
      if (auth instanceof Promise) {
        auth.then((a) => {
          req.auth = a;
          done();
        }, done);
        return;
      }
      req.auth = auth;
      done();
    };
    try {
      ctx.scheduler.runIfDue();
      if (!faults.active) return authenticateRequest();
      faults.apply(req, reply).then(() => {
        if (reply.sent) return; // answered (or hijacked) by the fault
        try {
          authenticateRequest();
        } catch (err) {
          done(err as Error);
        }
      }, done);
    } catch (err) {
      done(err as Error);
    }
  };
}

/** Every error as the JSON body of DESIGN.md section 2; 5xx details go to the log, never the client. */
function errorHandler(ctx: EmulatorContext) {
  return (err: FastifyError & { validationContext?: string }, req: FastifyRequest, reply: FastifyReply): void => {
    if (err instanceof HttpError) return sendError(reply, err.status, err.body, err.headers);
    if (err.validation) {
      if (err.validationContext === "body") {
        const e = validationFailed(fieldErrorsFromAjv(err.validation as never));
        return sendError(reply, e.status, e.body);
      }
      return sendError(reply, 400, { error: `Invalid ${err.validationContext ?? "request"}: ${err.message}` });
    }
    switch (err.code) {
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return sendError(reply, 413, { error: MESSAGES.tooLarge });
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return sendError(reply, 415, { error: MESSAGES.unsupportedMedia });
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return sendError(reply, 400, { error: "Request body is empty" });
      case "FST_ERR_CTP_INVALID_JSON_BODY":
        return sendError(reply, 400, { error: "Malformed JSON in request body" });
    }
    if (err instanceof SyntaxError || err.statusCode === 400) {
      return sendError(reply, 400, { error: "Malformed JSON in request body" });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, err.statusCode, { error: err.message });
    }
    ctx.log(`error ${req.method} ${req.url} ${req.id}: ${err.stack ?? err.message}`);
    return sendError(reply, 500, { error: MESSAGES.internal });
  };
}

/**
 * The web console (console/index.ts) in its own scope: loaded here, at start-up, so none of its
 * modules or hooks touch an /api/v1 request. Without its optional peers the API still runs.
 */
async function registerConsoleIfInstalled(app: App, ctx: EmulatorContext): Promise<void> {
  let mod: typeof import("./console/index.js");
  try {
    mod = await import("./console/index.js");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw err;
    process.stderr.write(`[emulator] web console off: ${(err as Error).message.split("\n")[0]} (npm install @fastify/cookie @fastify/csrf-protection @fastify/formbody)\n`);
    return;
  }
  await mod.registerConsole(app as never, ctx);
}

export async function buildApp(ctx: EmulatorContext, controls: AppControls): Promise<App> {
  const app = Fastify({
    logger: ctx.options.logger ? { level: "info", stream: process.stderr } : false,
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: nextRequestId,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: "all", useDefaults: true, allErrors: true } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  // JSON endpoints take JSON only: without this, Fastify's default text/plain parser hands a string
  // to the body schema (422) where DESIGN.md says 415. Upload routes add their own parsers.
  app.removeContentTypeParser("text/plain");

  const { faults } = controls;
  const limiter = ctx.options.rateLimit ? new RateLimiter(ctx.options.rateLimit, () => ctx.clock.nowMs()) : undefined;
  collectOpenApi(app);

  // Callback style rather than async: see onRequest above.
  app.addHook("onRequest", onRequest(ctx, faults, limiter));

  installIdempotency(app, ctx);

  app.setErrorHandler(errorHandler(ctx));
  app.setNotFoundHandler((req, reply) => sendError(reply, 404, { error: "Not found" }));

  registerOpenApiRoute(app);
  await app.register(async (api) => {
    for (const register of routeModules) await register(api as App, ctx);
  }, { prefix: "/api/v1" });
  await app.register(async (control) => registerControlRoutes(control as App, ctx, controls), { prefix: "/__emulator" });
  await registerConsoleIfInstalled(app, ctx);

  return app;
}
