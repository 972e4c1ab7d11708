// The base of every resource class: its client. Paths are built by `apiPath` (internal/api-path.ts).
import type { APIClient } from "../request-types.js";

/** Base of the resource classes: each method is a thin call over the client. */
export abstract class APIResource {
  protected readonly client: APIClient;
  constructor(client: APIClient) {
    this.client = client;
  }
}
