#!/usr/bin/env node
// CI: provider/docs/ must match what the schemas and examples/terraform/ generate (run `npm run build`
// and commit provider/docs/ when this fails).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateProviderDocs } from "./build-provider.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fresh = mkdtempSync(path.join(tmpdir(), "siteops-docs-check-"));
const list = (dir, base = dir) =>
  readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? list(path.join(dir, f), base) : [path.relative(base, path.join(dir, f))]));
try {
  await generateProviderDocs({ root, outDir: fresh });
  const committed = path.join(root, "provider", "docs");
  const want = list(fresh).sort();
  const have = list(committed).sort();
  const stale = want.filter((f) => !have.includes(f) || readFileSync(path.join(fresh, f), "utf8") !== readFileSync(path.join(committed, f), "utf8"));
  const extra = have.filter((f) => !want.includes(f));
  if (stale.length || extra.length) {
    console.error(`check-provider-docs: provider/docs is stale (${[...stale, ...extra].join(", ")}); run \`npm run build\` and commit provider/docs.`);
    process.exit(1);
  }
  console.error(`check-provider-docs: ${want.length} pages current`);
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
