// What every console page module is given by index.ts: the context and the request helpers.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorContext } from "../context.js";
import type { ConsoleUser } from "./session.js";

export interface Console {
  ctx: EmulatorContext;
  /** The signed-in user; redirects to the sign-in page (GET) or answers 401 (POST) when there is none. */
  user(req: FastifyRequest, reply: FastifyReply): ConsoleUser | undefined;
  /** A fresh CSRF token for the page's forms. */
  csrf(reply: FastifyReply): string;
  send(reply: FastifyReply, body: string, status?: number): FastifyReply;
}
