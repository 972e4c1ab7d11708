// What failures look like: one error hierarchy with status, the service's message, field errors and the
// request id; retries of transient failures happen before you see anything.
//   SITEOPS_BASE_URL=... SITEOPS_API_TOKEN=... npx tsx examples/sdk/errors.ts
import { APIConnectionError, APIError, NotFoundError, SiteOps, UnprocessableEntityError } from "../../src/index.js";

const so = new SiteOps({ maxRetries: 3, timeout: 10_000 });

try {
  await so.sites.get("site_doesnotexist000000");
} catch (err) {
  if (err instanceof NotFoundError) console.log(`404 as expected: ${err.error} (request ${err.requestId})`);
  else throw err;
}

try {
  await so.sites.create({ name: "", url: "not-a-url" });
} catch (err) {
  if (err instanceof UnprocessableEntityError) console.log("validation failed:", err.errors);
  else if (err instanceof APIError) console.log(`${err.status} ${err.error}`);
  else if (err instanceof APIConnectionError) console.log(`service unreachable: ${err.message}`);
  else throw err;
}
await so.close();
