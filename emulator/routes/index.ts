// Every /api/v1 route module, registered in this order under the /api/v1 prefix.
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";

export type RouteModule = (app: App, ctx: EmulatorContext) => void | Promise<void>;

export const routeModules: RouteModule[] = [];
