// The base of every resource class (its client) and `seg`, which encodes one path segment.
import type { APIClient } from "../request-types.js";

/** Base of the resource classes: each method is a thin call over the client. */
export abstract class APIResource {
  protected readonly client: APIClient;
  constructor(client: APIClient) {
    this.client = client;
  }
}

/** Encodes one path segment (ids come from users and must not change the path). */
export function seg(value: string): string {
  if (typeof value !== "string" || value === "") throw new TypeError("id must be a non-empty string");
  return encodeURIComponent(value);
}
