// /openapi.json declares the error responses of each operation with docs/design.md's bodies, and the
// emulator answers with those bodies (OpenAPI tools no longer report missing 4xx responses).
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let doc: any;
beforeAll(async () => {
  emu = await startTestEmulator();
  doc = (await api(emu, "GET", "/openapi.json")).body;
});
afterAll(async () => {
  await emu?.close();
});

const op = (method: string, path: string): any => doc.paths[path][method];
const codes = (o: any): string[] => Object.keys(o.responses).filter((c) => /^4/.test(c));
const schemaOf = (o: any, code: string): string => o.responses[code].content["application/json"].schema.$ref;

it("declares 401 and 429 everywhere, 403 on the writes members may not make, 404 wherever a caller is authenticated", () => {
  const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, m]) => Object.entries(m).map(([k, o]) => ({ id: `${k} ${p}`, o })));
  for (const { id, o } of ops) {
    expect(codes(o), id).toEqual(expect.arrayContaining(["401", "429"]));
    if (o.security?.length !== 0) expect(codes(o), id).toContain("404");
  }
  expect(codes(op("post", "/api/v1/sites"))).toEqual(["400", "401", "403", "404", "409", "413", "415", "422", "429"]);
  expect(codes(op("get", "/api/v1/sites/{id}"))).toEqual(["401", "404", "429"]);
  expect(codes(op("post", "/api/v1/sites/{site_id}/snapshots"))).not.toContain("403"); // members create snapshots
  expect(codes(op("delete", "/api/v1/sites/{site_id}/snapshots/{id}"))).toEqual(["401", "403", "404", "422", "429"]);
  expect(codes(op("post", "/api/v1/jwt"))).toEqual(["400", "401", "413", "415", "422", "429"]);
  expect(schemaOf(op("post", "/api/v1/sites"), "422")).toBe("#/components/schemas/ValidationError");
  expect(schemaOf(op("put", "/api/v1/sites/{site_id}/snapshots/{id}/upload"), "409")).toBe("#/components/schemas/UploadConflict");
});

it("answers with the bodies it declares", async () => {
  // Each body has exactly the properties its component declares, `error` a string.
  const valid = (name: string, body: Record<string, unknown>): boolean => {
    const schema = doc.components.schemas[name];
    return typeof body.error === "string" && Object.keys(body).every((k) => k in schema.properties);
  };
  const invalid = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "" } });
  expect(invalid.status).toBe(422);
  expect(valid("ValidationError", invalid.body)).toBe(true);
  expect(invalid.body.errors).toEqual({ url: ["can't be blank"] });
  for (const [status, res] of [
    [401, await api(emu, "GET", "/sites")],
    [403, await api(emu, "POST", "/sites", { token: TOKENS.member, body: { name: "x", url: "https://x.example" } })],
    [404, await api(emu, "GET", "/sites/site_doesnotexist000000", { token: TOKENS.owner })],
    [415, await api(emu, "POST", "/sites", { token: TOKENS.owner, raw: "name=x", headers: { "content-type": "text/plain" } })],
  ] as const) {
    expect(res.status).toBe(status);
    expect(valid("Error", res.body), JSON.stringify(res.body)).toBe(true);
  }
});
