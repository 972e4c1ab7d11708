// Request-body helpers shared by route modules.

/** For endpoints whose every field is optional: a POST without a body (`curl -X POST`) means `{}`. */
export async function emptyBodyAsObject(req: { body: unknown }): Promise<void> {
  if (req.body === undefined) req.body = {};
}
