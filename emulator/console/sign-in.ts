// GET/POST /sign-in (email and password, then the 2FA code when the user has it on) and POST /sign-out.
import type { FastifyInstance } from "fastify";
import { HttpError } from "../errors.js";
import type { Console } from "./ui.js";
import { html, page } from "./html.js";
import { currentUser, dropPending, pendingSignIn, signIn, signOut } from "./session.js";
import { DEMO_SIGN_IN } from "../seed.js";

type Form = Record<string, string | undefined>;
const field = (body: unknown, name: string): string => {
  const v = (body as Form | undefined)?.[name];
  return typeof v === "string" ? v : "";
};

/** Started with the demo account (--demo), and only then: the credentials its start-up line printed. */
function demoHint(demo: boolean): ReturnType<typeof html> | "" {
  return demo
    ? html`<p class="notice" id="demo-hint">This emulator runs the demo account: sign in as <code>${DEMO_SIGN_IN.email}</code> with the password <code>${DEMO_SIGN_IN.password}</code>.</p>`
    : "";
}

function passwordForm(csrf: string, demo: boolean, email = ""): ReturnType<typeof html> {
  return html`${demoHint(demo)}<form method="post" action="/sign-in" class="stack">
  <input type="hidden" name="_csrf" value="${csrf}">
  <label>Email <input type="email" name="email" autocomplete="username" required value="${email}"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button></form>`;
}

function otpForm(csrf: string): ReturnType<typeof html> {
  return html`<form method="post" action="/sign-in/otp" class="stack">
  <input type="hidden" name="_csrf" value="${csrf}">
  <p>Two-factor authentication is on for this account. Enter the 6-digit code from your authenticator app.</p>
  <label>Verification code <input name="otp_attempt" inputmode="numeric" pattern="[0-9]{6}" autocomplete="one-time-code" required autofocus></label>
  <button type="submit">Verify</button>
  <p><a href="/sign-in?restart=1">Use another account</a></p></form>`;
}

export function registerSignInRoutes(c: FastifyInstance, ui: Console): void {
  const { ctx } = ui;

  c.get<{ Querystring: { restart?: string } }>("/sign-in", (req, reply) => {
    if (currentUser(ctx, req)) return reply.redirect("/sites", 303);
    if (req.query.restart) dropPending(ctx, req, reply);
    const csrf = ui.csrf(reply);
    const otp = !req.query.restart && pendingSignIn(ctx, req);
    return ui.send(reply, page({ title: "Sign in" }, otp ? otpForm(csrf) : passwordForm(csrf, ctx.options.demo)));
  });

  // Both count under the email in --rate-limit's window, as POST /api/v1/jwt does (rate-limit.ts).
  c.post("/sign-in", { config: { signIn: true } }, async (req, reply) => {
    const email = field(req.body, "email").trim();
    try {
      const result = await signIn(ctx, req, reply, { email, password: field(req.body, "password") });
      if (result.kind === "otp-required") return ui.send(reply, page({ title: "Sign in" }, otpForm(ui.csrf(reply))));
      return reply.redirect("/sites", 303);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // The API's own message and status (401 "Invalid email or password", 429 with Retry-After when
      // throttled), the email kept, the password not.
      void reply.headers(err.headers);
      return ui.send(reply, page({ title: "Sign in", error: String(err.body.error) }, passwordForm(ui.csrf(reply), ctx.options.demo, email)), err.status);
    }
  });

  c.post("/sign-in/otp", { config: { signIn: (req) => pendingSignIn(ctx, req)?.email } }, async (req, reply) => {
    const pending = pendingSignIn(ctx, req);
    if (!pending)
      return ui.send(
        reply,
        page({ title: "Sign in", error: "The sign-in expired. Enter your email and password again." }, passwordForm(ui.csrf(reply), ctx.options.demo)),
        401,
      );
    try {
      await signIn(ctx, req, reply, { ...pending, otp_attempt: field(req.body, "otp_attempt") });
      return reply.redirect("/sites", 303);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      // A wrong code may be tried again (as with the API, throttled alike); the credentials stay server-side.
      void reply.headers(err.headers);
      return ui.send(reply, page({ title: "Sign in", error: String(err.body.error) }, otpForm(ui.csrf(reply))), err.status);
    }
  });

  c.post("/sign-out", (req, reply) => {
    signOut(ctx, req, reply);
    return reply.redirect("/sign-in", 303);
  });
}
