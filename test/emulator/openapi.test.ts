// GET /openapi.json documents exactly the 34 endpoints of the spec, from the routes' own schemas.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { api, startTestEmulator } from "./helpers.js";
import { siteFields } from "../../wire/generated/fields.js";
import { shownNames } from "../support/wire-records.js";

const SPEC_ENDPOINTS = [
  "POST /api/v1/auth",
  "DELETE /api/v1/auth",
  "POST /api/v1/jwt",
  "POST /api/v1/jwt/refresh",
  "POST /api/v1/jwt/revoke",
  "GET /api/v1/sites",
  "GET /api/v1/sites/{id}",
  "POST /api/v1/sites",
  "PATCH /api/v1/sites/{id}",
  "DELETE /api/v1/sites/{id}",
  "GET /api/v1/sites/{site_id}/health_checks",
  "GET /api/v1/sites/{site_id}/health_checks/{id}",
  "GET /api/v1/sites/{site_id}/snapshots",
  "GET /api/v1/sites/{site_id}/snapshots/{id}",
  "POST /api/v1/sites/{site_id}/snapshots",
  "DELETE /api/v1/sites/{site_id}/snapshots/{id}",
  "PUT /api/v1/sites/{site_id}/snapshots/{id}/upload",
  "GET /api/v1/sites/{site_id}/upgrade_pipelines",
  "GET /api/v1/sites/{site_id}/upgrade_pipelines/{id}",
  "POST /api/v1/sites/{site_id}/upgrade_pipelines",
  "POST /api/v1/sites/{site_id}/upgrade_pipelines/{id}/approve",
  "GET /api/v1/sites/{site_id}/vulnerability_records",
  "GET /api/v1/sites/{site_id}/vulnerability_records/{id}",
  "PATCH /api/v1/sites/{site_id}/vulnerability_records/{id}",
  "GET /api/v1/activity_logs",
  "GET /api/v1/webhook_endpoints",
  "GET /api/v1/webhook_endpoints/{id}",
  "POST /api/v1/webhook_endpoints",
  "PATCH /api/v1/webhook_endpoints/{id}",
  "DELETE /api/v1/webhook_endpoints/{id}",
  "GET /api/v1/me",
  "GET /api/v1/accounts",
  "GET /api/v1/accounts/{id}",
  "GET /api/v1/users",
];

let emu: RunningEmulator;
let doc: any;
beforeAll(async () => {
  emu = await startTestEmulator();
  const res = await api(emu, "GET", "/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => {
  await emu?.close();
});

it("is an OpenAPI 3.1 document of exactly the spec's 34 endpoints", () => {
  expect(doc.openapi).toBe("3.1.0");
  const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
    Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(SPEC_ENDPOINTS).toHaveLength(34);
  expect(ops.sort()).toEqual([...SPEC_ENDPOINTS].sort());
});

it("gives every operation a unique operationId, and marks the login endpoints as needing no auth", () => {
  const ops = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((m) => Object.values(m));
  const ids = ops.map((o) => o.operationId);
  expect(new Set(ids).size).toBe(ids.length);
  const open = Object.entries(doc.paths as Record<string, Record<string, any>>)
    .flatMap(([p, m]) =>
      Object.entries(m)
        .filter(([, o]) => Array.isArray(o.security) && o.security.length === 0)
        .map(([k]) => `${k.toUpperCase()} ${p}`),
    )
    .sort();
  expect(open).toEqual(["POST /api/v1/auth", "POST /api/v1/jwt", "POST /api/v1/jwt/refresh"]);
});

it("uses the same schemas the routes validate with (site create needs name and url)", () => {
  const create = doc.paths["/api/v1/sites"].post;
  const body = create.requestBody.content["application/json"].schema;
  expect(body.properties).toHaveProperty("name");
  expect(body.properties).toHaveProperty("url");
  const site = create.responses["201"].content["application/json"].schema;
  expect(Object.keys(site.properties).sort()).toEqual(shownNames(siteFields).sort());
});
