// Builds the Fastify app: request ids, the error shapes of docs/design.md section 2, authentication,
// faults, rate limiting, idempotency, the profile's hooks, and every route module. No listening here (server.ts does).
// Routes are HTTP only (schema, auth guard, one service call, reply): routes/ -> services/ (rules,
// state transitions, activity, events) -> store/ (SQL, one module per table family).
//
// The hot path (an authenticated GET /sites/:id, bench/emulator-get-site.bench.ts) takes no promise and
// no crypto call it can avoid: request ids are a counter (nextRequestId), the onRequest hook is callback
// style and synchronous for an API token, valid API tokens are cached by hash (auth/authenticate.ts), and
// sites are cached as the API shows them (store/sites.ts, whose one write path keeps the cache true).
import Fastify, { type FastifyError, type FastifyRequest, type onRequestHookHandler } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { EmulatorContext } from "./context.js";
import type { App } from "./http.js";
import { badRequest } from "./errors.js";
import { answerConnect, clientErrorHandler, errorHandler, sendError } from "./error-handler.js";
import { JSON_BODY_LIMIT } from "./options.js";
import { randomAlphanumeric } from "./ids.js";
import { authenticate } from "./auth/authenticate.js";
import "./auth/guards.js"; // declares req.auth, which the hook below sets
import { RateLimiter, addressKey, principalKey, signInLimit } from "./rate-limit.js";
import type { AuthContext } from "./auth/auth-context.js";
import { installIdempotency } from "./idempotency.js";
import { installProfileHooks } from "./profile-hooks.js";
import { routeModules } from "./routes/index.js";
import { registerControlRoutes, type AppControls } from "./control/routes.js";
import type { Faults } from "./control/faults.js";
import { collectOpenApi, DOC_KEYWORDS, registerOpenApiRoute } from "./openapi.js";

export type { App } from "./http.js";
export type { AppControls } from "./control/routes.js";

// Request ids: a random per-process prefix plus a counter, unique without a crypto call per request
// (this runs on every request; the benchmark path is a plain GET).
const REQUEST_ID_PREFIX = `req_${randomAlphanumeric(10)}`;
let requestCounter = 0;
function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % 36 ** 10;
  return REQUEST_ID_PREFIX + requestCounter.toString(36).padStart(10, "0");
}

/** RFC 3986 host (reg-name, IPv4 or [IPv6]) with an optional port: anything else is a 400, never a 500. */
const HOST_RE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::(\d{1,5}))?$/;

// Nearly every request names the same host: the last good one skips the parse (this runs on every request).
let lastGoodHost = "";

/** Why the Host header is unacceptable, or null. HTTP/1.0 may omit it. */
function badHost(req: FastifyRequest): string | null {
  const host = req.headers.host;
  if (host === lastGoodHost && host !== "") return null;
  if (host === undefined || host === "") return req.raw.httpVersion === "1.0" ? null : "Missing Host header";
  const m = HOST_RE.exec(host);
  if (!m || (m[1] !== undefined && Number(m[1]) > 65535) || !URL.canParse(`http://${host}/`)) return "Invalid Host header";
  lastGoodHost = host;
  return null;
}

/**
 * Request ids, the Host check, faults, authentication and rate limits, in that order, for every request.
 * What applies is decided by the route the router matched (req.routeOptions), never by the raw URL, which a
 * client can spell many ways (`/%61pi/v1/jwt` is /api/v1/jwt). Callback style rather than async: this runs
 * on every request, and the common case (an API token, no faults) completes synchronously without a promise.
 */
function onRequest(ctx: EmulatorContext, faults: Faults, limiter: RateLimiter | undefined): onRequestHookHandler {
  return (req, reply, done) => {
    reply.header("X-Request-Id", req.id);
    // Nothing the emulator answers may be kept by a cache: API answers carry tokens, JWTs, webhook secrets.
    reply.header("Cache-Control", "no-store");
    const hostError = badHost(req);
    if (hostError) return done(badRequest(hostError));
    // A DELETE has no body: one that declares JSON but sends nothing is not "malformed JSON".
    if (req.method === "DELETE" && !req.headers["transfer-encoding"] && (req.headers["content-length"] ?? "0") === "0") {
      delete req.raw.headers["content-type"];
    }
    const route = req.routeOptions.url;
    // Matched routes outside the API (control API, /openapi.json) have rules of their own; unknown paths
    // (404) are rate limited by address like any unauthenticated call, and so is the web console.
    if (route !== undefined && !route.startsWith("/api/")) {
      if (!limiter || route.startsWith("/__emulator") || route === "/openapi.json") return done();
      try {
        limiter.check(reply, [addressKey(req)]);
      } catch (err) {
        return done(err as Error);
      }
      return done();
    }
    const config = req.routeOptions.config;
    const finish = (auth: AuthContext | undefined, authError?: unknown): void => {
      try {
        // A sign-in is also counted under its email, once the body is parsed (preHandler below).
        limiter?.check(reply, [auth ? principalKey(auth) : addressKey(req)]);
      } catch (err) {
        return done(err as Error);
      }
      if (authError) return done(authError as Error);
      req.auth = auth;
      done();
    };
    const authenticateRequest = (): void => {
      if (req.is404 || config?.public) return finish(undefined); // unknown routes: the not-found handler answers
      let auth: AuthContext | Promise<AuthContext>;
      try {
        auth = authenticate(ctx, req);
      } catch (err) {
        return finish(undefined, err);
      }
      if (auth instanceof Promise)
        auth.then(
          (a) => finish(a),
          (err: unknown) => finish(undefined, err),
        );
      else finish(auth);
    };
    try {
      ctx.scheduler.runIfDue();
      if (!faults.active) return authenticateRequest();
      faults.apply(req, reply).then(() => {
        if (reply.sent) return; // answered (or hijacked) by the fault
        authenticateRequest();
      }, done);
    } catch (err) {
      done(err as Error);
    }
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
    process.stderr.write(
      `[emulator] web console off: ${(err as Error).message.split("\n")[0]} (npm install @fastify/cookie @fastify/csrf-protection @fastify/formbody)\n`,
    );
    return;
  }
  await mod.registerConsole(app as never, ctx);
}

export async function buildApp(ctx: EmulatorContext, controls: AppControls): Promise<App> {
  const handleError = errorHandler(ctx);
  const app = Fastify({
    logger: ctx.options.logger ? { level: "info", stream: process.stderr } : false,
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: nextRequestId,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: "all", useDefaults: true, allErrors: true, keywords: DOC_KEYWORDS } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Bad URLs, over-long parameters and parser-level errors leave in the design's error shape too.
    frameworkErrors: (err, req, reply) => handleError(err as FastifyError, req, reply),
    clientErrorHandler: clientErrorHandler(nextRequestId),
    // A missing Host is answered by badHost() in the design's shape, not by Node with an empty 400.
    http: {
      requireHostHeader: false,
      // How often Node looks for requests past requestTimeout (its default, 30 s, lets a drip outlive it).
      connectionsCheckingInterval: Math.min(5000, ctx.options.requestTimeout * 1000),
      headersTimeout: Math.min(60_000, ctx.options.requestTimeout * 1000),
    },
    requestTimeout: ctx.options.requestTimeout * 1000,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  // JSON endpoints take JSON only: without this, Fastify's default text/plain parser hands a string
  // to the body schema (422) where docs/design.md says 415. Upload routes add their own parsers.
  app.removeContentTypeParser("text/plain");

  answerConnect(app.server, nextRequestId);

  const { faults } = controls;
  const limiter = ctx.options.rateLimit ? new RateLimiter(ctx.options.rateLimit, () => ctx.clock.nowMs(), ctx.profile.rateLimitHeaders) : undefined;
  collectOpenApi(app);
  app.decorate("listener", ctx.listener); // pagination.ts builds links on its public URL
  app.decorate("profile", ctx.profile); // pagination.ts pages as it says

  // Callback style rather than async: see onRequest above.
  app.addHook("onRequest", onRequest(ctx, faults, limiter));

  installIdempotency(app, ctx);
  installProfileHooks(app, ctx.profile); // none in the default profile

  if (limiter) app.addHook("preHandler", signInLimit(limiter));

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((req, reply) => sendError(reply, 404, { error: "Not found" }));

  registerOpenApiRoute(app);
  await app.register(
    async (api) => {
      for (const register of routeModules) await register(api as App, ctx);
    },
    { prefix: "/api/v1" },
  );
  await app.register(async (control) => registerControlRoutes(control as App, ctx, controls), { prefix: "/__emulator" });
  await registerConsoleIfInstalled(app, ctx);

  return app;
}
