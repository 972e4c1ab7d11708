// The web console at / (sign-in, Settings -> API, sites, activity, webhooks): server-rendered HTML in
// its own encapsulated Fastify scope, so its cookie, form and CSRF hooks never run for /api/v1.
import { createHmac } from "node:crypto";
import type { FastifyError, FastifyInstance } from "fastify";
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import type { EmulatorContext } from "../context.js";
import { HttpError } from "../errors.js";
import { CONSOLE_CSS, CONSOLE_ICON, CONSOLE_JS } from "./assets.js";
import { html, page } from "./html.js";
import { cookieOptions, csrfBinding, currentUser } from "./session.js";
import type { Console } from "./ui.js";
import { registerSignInRoutes } from "./sign-in.js";
import { registerSettingsRoutes } from "./settings.js";
import { registerSitesRoutes } from "./sites.js";
import { registerSiteRoutes } from "./site.js";
import { registerActivityRoutes } from "./activity.js";
import { registerWebhooksRoutes } from "./webhooks.js";

const CSRF_ERRORS = new Set(["FST_CSRF_MISSING_SECRET", "FST_CSRF_INVALID_TOKEN"]);

export async function registerConsole(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  await app.register(async (c) => {
    // Cookies are signed with a key derived from the database's JWT secret (stable across restarts).
    const secret = createHmac("sha256", Buffer.from(ctx.jwtSecret)).update("siteops console cookies").digest("base64");
    await c.register(fastifyCookie, { secret });
    await c.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
    // A token is bound to the session it was made in (csrfBinding): one from before sign-in is refused after.
    await c.register(fastifyCsrf, {
      sessionPlugin: "@fastify/cookie",
      cookieOpts: { ...cookieOptions(ctx), signed: true },
      getUserInfo: csrfBinding,
      csrfOpts: { hmacKey: createHmac("sha256", Buffer.from(ctx.jwtSecret)).update("siteops console csrf").digest() },
    });

    // Every form post carries the CSRF token (hidden _csrf field), sign-in included.
    c.addHook("preHandler", (req, reply, done) => (req.method === "POST" ? c.csrfProtection(req, reply, done) : done()));
    c.addHook("onSend", (req, reply, payload, done) => {
      reply.header("Cache-Control", "no-store");
      reply.header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'");
      reply.header("X-Frame-Options", "DENY"); // frame-ancestors for browsers without CSP level 2
      reply.header("X-Content-Type-Options", "nosniff");
      reply.header("Referrer-Policy", "no-referrer");
      done(null, payload);
    });

    const ui: Console = {
      ctx,
      user(req, reply) {
        const user = currentUser(ctx, req);
        if (user) return user;
        if (req.method === "GET") void reply.redirect("/sign-in", 303);
        else ui.send(reply, page({ title: "Signed out", error: "Your session has ended. Sign in again." }, html`<p><a href="/sign-in">Sign in</a></p>`), 401);
        return undefined;
      },
      csrf: (reply) => reply.generateCsrf({ userInfo: csrfBinding(reply.request) }),
      send: (reply, body, status = 200) => reply.code(status).type("text/html; charset=utf-8").send(body),
    };

    c.setErrorHandler((err: FastifyError, req, reply) => {
      const user = currentUser(ctx, req);
      const pageUser = user && { ...user };
      if (CSRF_ERRORS.has(err.code)) {
        return ui.send(
          reply,
          page(
            {
              title: "Form refused",
              user: pageUser,
              error: "This form did not come from this console page (missing or stale CSRF token). Reload the page and try again.",
            },
            html``,
            user && ui.csrf(reply),
          ),
          403,
        );
      }
      const status = err instanceof HttpError ? err.status : err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
      const message = err instanceof HttpError ? String(err.body.error) : status < 500 ? err.message : "Something went wrong in the emulator; see its log.";
      if (status >= 500) ctx.log(`console error ${req.method} ${req.url}: ${err.stack ?? err.message}`);
      if (err instanceof HttpError) void reply.headers(err.headers); // a 429's Retry-After
      return ui.send(
        reply,
        page(
          { title: status === 404 ? "Not found" : status === 403 ? "Not allowed" : "Error", user: pageUser, error: message },
          html``,
          user && ui.csrf(reply),
        ),
        status,
      );
    });

    c.get("/console/assets/console.css", (req, reply) => reply.type("text/css; charset=utf-8").send(CONSOLE_CSS));
    c.get("/console/assets/console.js", (req, reply) => reply.type("text/javascript; charset=utf-8").send(CONSOLE_JS));
    // The same icon where browsers look without a link: pages that are not the console's (/openapi.json, the API).
    for (const url of ["/console/assets/icon.svg", "/favicon.ico"]) c.get(url, (req, reply) => reply.type("image/svg+xml").send(CONSOLE_ICON));
    c.get("/", (req, reply) => reply.redirect(currentUser(ctx, req) ? "/sites" : "/sign-in", 303));

    registerSignInRoutes(c, ui);
    registerSettingsRoutes(c, ui);
    registerSitesRoutes(c, ui);
    registerSiteRoutes(c, ui);
    registerActivityRoutes(c, ui);
    registerWebhooksRoutes(c, ui);
  });
}
