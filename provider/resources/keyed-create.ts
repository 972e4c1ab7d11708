// A create that the next apply recognises when its answer was lost (Ctrl-C past the stop's grace, Terraform
// killed, a crash): the request's Idempotency-Key is derived from what is created (resource type, request body),
// from which configuration (request-key-origin.ts: where its state lives, or a salt of its working directory, and
// the workspace) and a generation, so a rerun of the same configuration sends the same key and the service answers
// with the object the first request created instead of creating a second one (docs/design.md section 2,
// Idempotency: the same key and body within 24 h replay the first answer). The replayed object is adopted only
// while it exists and no other resource of this apply took it; otherwise the next generation's key asks again.
import { createHash } from "node:crypto";
import type { APIResponse } from "../../src/index.js";
import { loadClient } from "../load-core.js";
import type { Diagnostics } from "../framework/diagnostics.js";
import { log } from "../log.js";
import { keyOrigin } from "./request-key-origin.js";
import { deleted, isSpent, made, spend } from "./spent-keys.js";

/** The header a service sets on an answer it replays for a repeated Idempotency-Key (Stripe's name). */
const REPLAYED_HEADER = "idempotent-replayed";

/** Keys asked with before giving up: one more per object of this configuration deleted within the service's 24 h
 * window whose key is not recorded spent (spent-keys.ts); this bounds a service that calls every answer a replay. */
const MAX_GENERATIONS = 20;

/** Ids this provider process handed to a resource: two resources with the same arguments (a webhook endpoint
 * with `count = 2`) must not both take the one object. */
const claimed = new Set<string>();
/** Ids a create of this process adopted from a replay. */
const adopted = new Set<string>();
/** Keys being sent by this process: the second resource with the same arguments waits for the first's answer. */
const sending = new Map<string, Promise<unknown>>();

/** The Idempotency-Key of generation `generation` of creating `body` as `typeName`, from this configuration's origin
 * (request-key-origin.ts: where its state lives, or its directory's salt, and the workspace). */
function createKey(typeName: string, body: unknown, generation: number): string {
  const hash = createHash("sha256")
    .update(JSON.stringify(["siteops-terraform-create", typeName, keyOrigin(), body, generation]))
    .digest("hex");
  return `siteops-tf-${hash.slice(0, 48)}`;
}

export interface KeyedCreate<T> {
  /**
   * The create answer: this request's, or the replayed answer of an earlier apply's request, which is the object
   * as that request made it from this same configuration (so the state agrees with the plan; a change made
   * since shows as drift at the next refresh).
   */
  answer: T;
  /** The answer was a replay, and the object it names still exists: adopted. */
  adopted: boolean;
}

/**
 * Creates with the keys of generation 0, 1, ... (skipping those recorded spent: spent-keys.ts) until an answer is
 * not a replay, or is the replay of an object that still exists and is not taken by another resource of this
 * process. `send` makes the request with the key; `stillThere` asks whether the object of that id is still there. A replayed refusal (a 422 kept with the
 * key, e.g. a URL taken at the time) is history, not an answer about now: the next generation asks again.
 */
export async function keyedCreate<T extends { id: string }>(
  typeName: string,
  body: unknown,
  send: (idempotencyKey: string) => PromiseLike<T>,
  stillThere: (id: string) => Promise<boolean>,
): Promise<KeyedCreate<T>> {
  const core = await loadClient();
  /** One generation: the created or adopted object, or undefined to ask with the next key. */
  const attempt = async (key: string, generation: number): Promise<KeyedCreate<T> | undefined> => {
    let response: APIResponse<T>;
    try {
      response = await core.withResponse(send(key));
    } catch (err) {
      if (err instanceof core.APIError && err.status < 500 && err.headers[REPLAYED_HEADER] === "true") {
        log.info(`${typeName}: the create request was answered with an earlier refusal kept with its key (${err.status}); asking again with the next key`, {
          generation,
        });
        spend(key);
        return undefined;
      }
      throw err;
    }
    const answer = response.data;
    if (response.headers[REPLAYED_HEADER] !== "true") {
      claimed.add(answer.id);
      made(answer.id, key);
      return { answer, adopted: false };
    }
    if (claimed.has(answer.id)) return undefined;
    if (!(await stillThere(answer.id))) {
      log.info(`${typeName}: the create request was answered with ${answer.id}, made by an earlier apply and deleted since; asking again with the next key`, {
        generation,
      });
      spend(key);
      return undefined;
    }
    claimed.add(answer.id);
    adopted.add(answer.id);
    made(answer.id, key);
    log.info(`${typeName}: ${answer.id} was created by an earlier apply of this configuration whose answer was lost; adopting it`, { generation });
    return { answer, adopted: true };
  };
  for (let generation = 0, asked = 0; asked < MAX_GENERATIONS; generation++) {
    const key = createKey(typeName, body, generation);
    if (isSpent(key)) continue;
    asked++;
    // Another resource of this process with the same arguments goes first, up to claiming what it got.
    for (let busy = sending.get(key); busy; busy = sending.get(key)) await busy.then(undefined, () => undefined);
    const step = attempt(key, generation);
    sending.set(key, step);
    try {
      const done = await step;
      if (done) return done;
    } finally {
      sending.delete(key);
    }
  }
  throw new core.SiteOpsError(
    `The service answered ${MAX_GENERATIONS} create requests of ${typeName} with earlier answers; import the object, or apply again after 24 h.`,
  );
}

/** Deletes `id`, which a keyed create may have made (then its key is spent: the next create of the same arguments
 * starts at the next one). A 404 is a delete done; any other failure is thrown. */
export async function deleteKeyed(id: string, remove: () => Promise<unknown>, errors: { isNotFound(err: unknown): boolean }): Promise<void> {
  try {
    await remove();
  } catch (err) {
    if (!errors.isNotFound(err)) throw err;
  }
  deleted(id);
}

/** Whether the read finds the object: false on a 404 (`errors.isNotFound`), any other failure thrown. */
export function exists(read: Promise<unknown>, errors: { isNotFound(err: unknown): boolean }): Promise<boolean> {
  return read.then(
    () => true,
    (err: unknown) => (errors.isNotFound(err) ? false : Promise.reject(err)),
  );
}

/**
 * Whether a create of this process adopted `id`: then a delete of it in the same apply would leave that create's
 * resource on a deleted object. It happens when the object being deleted has the same arguments as one being
 * created: the old half of a replacement made before the destroy (`create_before_destroy`, which Terraform
 * runs create first, then delete, and tells the create nothing of the object it replaces), or a resource
 * renamed without a `moved` block. The delete then leaves the object to the resource that took it.
 */
export function adoptedHere(id: string): boolean {
  return adopted.has(id);
}

/** The warning of a delete left undone because a create of this apply took the object over (adoptedHere). */
export function tookOver(diags: Diagnostics, noun: string, id: string): void {
  diags.warning(
    `The ${noun} ${id} was kept, not deleted`,
    `Another resource of this apply has the same arguments and took ${id} over (the create's request key is made from them): ` +
      "a replacement with create_before_destroy, or a resource renamed without a moved block. Deleting it would leave that resource on nothing. " +
      "To get a new object instead, change an argument, or replace it without create_before_destroy.",
  );
}
