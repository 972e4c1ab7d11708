// apiPath: the version prefix written once, every interpolated value one escaped segment, and no value that
// could change which endpoint is asked for.
import { describe, expect, it } from "vitest";
import { SiteOpsError } from "../../src/index.js";
import { API_PREFIX, apiPath } from "../../src/internal/api-path.js";

describe("apiPath", () => {
  it("puts the prefix before the path and escapes each value as one segment", () => {
    expect(apiPath`/sites`).toBe(`${API_PREFIX}/sites`);
    expect(apiPath`/sites/${"site_a1"}/snapshots/${"snap_b2"}/upload`).toBe("/api/v1/sites/site_a1/snapshots/snap_b2/upload");
    expect(apiPath`/sites/${"a/b?c#d%"}`).toBe("/api/v1/sites/a%2Fb%3Fc%23d%25");
  });

  it("refuses a value that is empty, not a string, or a dot segment, naming where it was going", () => {
    for (const bad of ["", undefined, 3, ".", ".."]) {
      expect(() => apiPath`/sites/${bad}/snapshots`).toThrow(SiteOpsError);
    }
    expect(() => apiPath`/sites/${undefined}`).toThrow("Invalid id after /api/v1/sites/: an id must be a non-empty string (got undefined).");
    expect(() => apiPath`/sites/${".."}`).toThrow('Invalid id after /api/v1/sites/: ".." is not an id.');
  });
});
