// The Fastify instance every route module registers on (with the TypeBox type provider), and the
// per-route config the request pipeline reads, and the profile the app is decorated with.
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { EmulatorContext } from "./context.js";
import type { Profile } from "./profile.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** No authentication (login, refresh). */
    public?: boolean;
    /** A sign-in with `email` in the body: the rate limiter also keys it by that email (app.ts). */
    signIn?: boolean;
  }
  interface FastifyInstance {
    /** The emulator's profile (app.ts decorates the app with it; pagination.ts pages as it says). */
    profile: Profile;
  }
}

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Registers one resource's routes under /api/v1. */
export type RouteModule = (app: App, ctx: EmulatorContext) => void | Promise<void>;
