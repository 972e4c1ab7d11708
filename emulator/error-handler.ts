// How every error leaves the emulator: the JSON body of docs/design.md section 2 (`{"error": "..."}`, with
// `errors` for field validation) and its status, whether a route threw it, Fastify's router or body
// parsers raised it (FST_ERR_*), or Node's HTTP parser refused the request before Fastify saw it. The
// `minimal` profile (profile.ts) answers a credentials 401 as Rails does (HTML) and a 429 without Retry-After.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { EmulatorContext } from "./context.js";
import { HttpError, MESSAGES, validationFailed } from "./errors.js";
import { fieldErrorsFromAjv } from "./validation.js";

export function sendError(reply: FastifyReply, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  void reply.code(status).type("application/json; charset=utf-8").send(body);
}

/** Node's parser rejected the request before any route saw it: answer in the design's shape and close. */
export function clientErrorHandler(nextRequestId: () => string) {
  return (err: NodeJS.ErrnoException, socket: Duplex): void => {
    if (err.code === "ECONNRESET" || socket.destroyed) return;
    const [status, message] = CLIENT_ERRORS[err.code ?? ""] ?? [400, "Bad request"];
    const body = JSON.stringify({ error: message });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${nextRequestId()}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request timeout"],
  HPE_HEADER_OVERFLOW: [431, "Request header fields too large"],
  HPE_INVALID_CONTENT_LENGTH: [400, "Invalid Content-Length header"],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, "Invalid Content-Length header"],
  HPE_INVALID_TRANSFER_ENCODING: [400, "Invalid Transfer-Encoding header"],
  HPE_INVALID_METHOD: [400, "Invalid request method"],
  HPE_INVALID_URL: [400, "Invalid request target"],
  HPE_INVALID_HEADER_TOKEN: [400, "Invalid header"],
  HPE_INVALID_VERSION: [400, "Invalid HTTP version"],
};

/** Fastify's own errors (router, body parsers) by code: status and the message the client sees. */
const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, "Invalid URL"],
  FST_ERR_MAX_PARAM_LENGTH: [414, "URI too long"],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, MESSAGES.tooLarge],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, MESSAGES.unsupportedMedia],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, "Request body is empty"],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, "Malformed JSON in request body"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, "Request body size did not match Content-Length"],
  FST_ERR_NOT_FOUND: [404, "Not found"],
};

/** A 401 of an authenticated API route is about the request's credentials (sign-in routes are public). */
function isCredentialsFailure(req: FastifyRequest, status: number): boolean {
  return status === 401 && req.routeOptions.url?.startsWith("/api/") === true && req.routeOptions.config?.public !== true;
}

/** What Rails' `authenticate_or_request_with_http_token` answers when the token is missing or wrong. */
function sendRailsChallenge(reply: FastifyReply): void {
  reply.header("WWW-Authenticate", 'Token realm="Application"');
  void reply.code(401).type("text/html; charset=utf-8").send("HTTP Token: Access denied.\n");
}

/** A 429's headers (rate limit, login throttle) when the profile sends no rate-limit headers. */
function withoutRetryAfter(headers: Record<string, string>): Record<string, string> {
  const { "Retry-After": _, ...others } = headers;
  return others;
}

/** Every error as the JSON body of docs/design.md section 2; 5xx details go to the log, never the client. */
export function errorHandler(ctx: EmulatorContext) {
  const { profile } = ctx;
  return (err: FastifyError & { validationContext?: string }, req: FastifyRequest, reply: FastifyReply): void => {
    reply.header("X-Request-Id", req.id);
    if (err instanceof HttpError) {
      if (profile.credentialsChallenge === "rails-html" && isCredentialsFailure(req, err.status)) return sendRailsChallenge(reply);
      return sendError(reply, err.status, err.body, profile.rateLimitHeaders ? err.headers : withoutRetryAfter(err.headers));
    }
    if (err.validation) {
      if (err.validationContext === "body") {
        const e = validationFailed(fieldErrorsFromAjv(err.validation as never));
        return sendError(reply, e.status, e.body);
      }
      return sendError(reply, 400, { error: `Invalid ${err.validationContext ?? "request"}: ${err.message}` });
    }
    const known = err.code ? FRAMEWORK_ERRORS[err.code] : undefined;
    if (known) return sendError(reply, known[0], { error: known[1] });
    if (err instanceof SyntaxError) return sendError(reply, 400, { error: "Malformed JSON in request body" });
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Fastify's own messages may echo the request; a plain error of ours says what went wrong.
      const message = err.code?.startsWith("FST_") ? (STATUS_CODES[err.statusCode] ?? "Bad request") : err.message;
      return sendError(reply, err.statusCode, { error: message });
    }
    ctx.log(`error ${req.method} ${req.url} ${req.id}: ${err.stack ?? err.message}`);
    return sendError(reply, 500, { error: MESSAGES.internal });
  };
}

/**
 * CONNECT never reaches Fastify (Node hands the socket to a "connect" listener, or drops it without a word):
 * answered here in the design's error shape.
 */
export function answerConnect(server: import("node:http").Server, nextId: () => string): void {
  server.on("connect", (req: { method?: string }, socket: import("node:stream").Duplex) => {
    const body = JSON.stringify({ error: `Method ${req.method ?? "CONNECT"} not allowed` });
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${nextId()}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
