// Upgrade WordPress on a site: open a pipeline, wait for approval, approve, wait for the result.
//   SITEOPS_BASE_URL=... SITEOPS_API_TOKEN=... npx tsx examples/sdk/upgrade.ts <site_id> <to_wp_version>
import { OperationFailedError, SiteOps } from "../../src/index.js";

const [siteId, toWpVersion] = process.argv.slice(2);
if (!siteId || !toWpVersion) throw new Error("usage: upgrade.ts <site_id> <to_wp_version>");

const so = new SiteOps();
const progress = { onProgress: (e: { type: string; pipeline?: { status: string } }) => e.pipeline && console.log(`${e.type}: ${e.pipeline.status}`) };
try {
  const pipeline = await so.operations.openUpgrade(siteId, { to_wp_version: toWpVersion }, progress);
  if (pipeline.status === "awaiting_approval") {
    const done = await so.operations.approveUpgrade(siteId, pipeline.id, { comment: "approved by upgrade.ts", ...progress });
    console.log(`pipeline ${done.id} ${done.status}`);
  }
} catch (err) {
  if (err instanceof OperationFailedError) console.error(err.message);
  else throw err;
  process.exitCode = 1;
} finally {
  await so.close();
}
