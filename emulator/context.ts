// Everything a route or job needs, built once per emulator instance.
import type { Database } from "./store/db.js";
import type { Clock } from "./clock.js";
import type { ResolvedOptions } from "./options.js";
import type { Scheduler } from "./jobs/scheduler.js";
import type { Events } from "./events.js";
import type { LoginThrottle } from "./auth/login-counters.js";
import type { Profile } from "./profile.js";
import type { IdIssuer } from "./ids.js";
import type { PipelineOutcomes } from "./control/pipeline-outcomes.js";
import type { PipelineStateNames } from "./control/pipeline-states.js";

/** Where the emulator listens, known once it does (webhook deliveries must never reach it). */
export interface Listener {
  port: number | null;
  /** Base URL for absolute links: the publicUrl option, else the listening URL. */
  publicUrl: string | null;
}

export interface EmulatorContext {
  readonly db: Database;
  readonly clock: Clock;
  readonly options: ResolvedOptions;
  /** Directory for uploaded snapshot data. */
  readonly dataDir: string;
  readonly scheduler: Scheduler;
  readonly events: Events;
  /** Secret used to sign JWT access tokens (persisted in the database). */
  readonly jwtSecret: Uint8Array;
  readonly listener: Listener;
  /** Failed-login counters (POST /jwt, /auth and any other sign-in): services/login-throttle.ts. */
  readonly loginThrottle: LoginThrottle;
  /** The choices where the spec says "not shown" (options.profile's settings). */
  readonly profile: Profile;
  /** Issues a new id of the profile's length: every record id comes from here. */
  readonly newId: IdIssuer;
  /** How chosen sites' upgrade pipelines end, set through the control API (control/pipeline-outcomes.ts). */
  readonly pipelineOutcomes: PipelineOutcomes;
  /** Pipeline states named otherwise in answers, set through the control API (control/pipeline-states.ts). */
  readonly pipelineStates: PipelineStateNames;
  /** Writes a line to stderr when logging is on. */
  log(message: string): void;
}
