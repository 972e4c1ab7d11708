// Pipeline states named otherwise, set through the control API (POST /__emulator/pipeline-states): the emulator then
// answers as a second server that follows the contract but names its pipeline states its own way. The spec shows
// no pipeline states (docs/spec, "States and transitions"), so a client must judge a pipeline whose state it does
// not know on what the contract does show (the site's versions); this is how its tests meet one.
//
//   {"names": {"running": "upgrading", "applying": "upgrading", "succeeded": "completed"}}
//
// Each key is one of the emulator's states, its value the name answers carry instead (in `status` of every
// pipeline the API answers with, its lists and webhook payloads). The pipelines themselves run as before; only
// the names change. POST replaces the whole mapping; DELETE, reset and a restart forget it.
import type { PipelineStatus } from "../../wire/upgrade-pipelines.js";
import { HttpError } from "../errors.js";

/** The emulator's own state names, each of which may be named otherwise. */
const EMULATOR_PIPELINE_STATES: readonly PipelineStatus[] = ["pending", "running", "awaiting_approval", "applying", "succeeded", "failed", "rolled_back"];

const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,39}$/;

export class PipelineStateNames {
  readonly #names = new Map<string, string>();

  /** Replaces the mapping; 422 (nothing changed) for a state the emulator does not have or a name that is not one. */
  set(names: Record<string, string>): void {
    for (const [state, name] of Object.entries(names)) {
      if (!(EMULATOR_PIPELINE_STATES as readonly string[]).includes(state))
        throw new HttpError(422, `names.${state}: not one of the emulator's states (${EMULATOR_PIPELINE_STATES.join(", ")})`);
      if (!NAME.test(name)) throw new HttpError(422, `names.${state}: a state name is a letter, then up to 39 letters, digits, _ . or -`);
    }
    this.#names.clear();
    for (const [state, name] of Object.entries(names)) this.#names.set(state, name);
  }

  clear(): void {
    this.#names.clear();
  }

  list(): Record<string, string> {
    return Object.fromEntries(this.#names);
  }

  /** The pipeline as answers show it: its `status` under the name set for it, if any. */
  shown<T extends { status: string }>(pipeline: T): T {
    const name = this.#names.get(pipeline.status);
    return name === undefined ? pipeline : { ...pipeline, status: name };
  }

  /** A pipeline answer's JSON text (one pipeline or a list) with the names set; as it is when none are. Renamed
   * after serialising: the response schema names the emulator's states, and a name it does not know would not
   * be written. */
  shownPayload(payload: unknown): unknown {
    if (this.#names.size === 0 || typeof payload !== "string" || (!payload.startsWith("[") && !payload.startsWith("{"))) return payload;
    const body = JSON.parse(payload) as unknown;
    const rename = (item: unknown) =>
      typeof item === "object" && item !== null && typeof (item as { status?: unknown }).status === "string" ? this.shown(item as { status: string }) : item;
    if (Array.isArray(body)) return JSON.stringify(body.map(rename));
    if (typeof body === "object" && body !== null && "steps" in body) return JSON.stringify(rename(body));
    return payload; // an error
  }
}
