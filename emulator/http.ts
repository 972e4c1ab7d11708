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
    /**
     * A sign-in: the rate limiter also keys it by its email (signInLimit in rate-limit.ts): the body's `email`
     * (true), or the one the function finds (the console's 2FA step, whose email waits server-side).
     */
    // import("fastify"): a name imported at the top is dropped from the declaration file this augmentation ships in.
    signIn?: true | ((req: import("fastify").FastifyRequest) => string | undefined);
  }
  interface FastifyInstance {
    /** The emulator's profile (app.ts decorates the app with it; pagination.ts pages as it says). */
    profile: Profile;
  }
}

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Registers one resource's routes under /api/v1. */
export type RouteModule = (app: App, ctx: EmulatorContext) => void | Promise<void>;
