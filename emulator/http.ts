// The Fastify instance every route module registers on (with the TypeBox type provider), and the
// per-route config the request pipeline reads.
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { EmulatorContext } from "./context.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** No authentication (login, refresh). */
    public?: boolean;
    /** A sign-in with `email` in the body: the rate limiter also keys it by that email (app.ts). */
    signIn?: boolean;
  }
}

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Registers one resource's routes under /api/v1. */
export type RouteModule = (app: App, ctx: EmulatorContext) => void | Promise<void>;
