// Create a snapshot of a site from a local archive and wait until the service has it.
//   SITEOPS_BASE_URL=... SITEOPS_API_TOKEN=... npx tsx examples/sdk/snapshot-upload.ts <site_id> <file.tar.gz>
import { SiteOps } from "../../src/index.js";

const [siteId, file] = process.argv.slice(2);
if (!siteId || !file) throw new Error("usage: snapshot-upload.ts <site_id> <file>");

const so = new SiteOps();
const snapshot = await so.operations.createSnapshot(siteId, {
  description: `upload of ${file}`,
  upload: file, // a path, a Buffer or a Readable; streamed, with a Content-Digest; resumable when large
  onProgress: (event) => {
    if (event.type === "upload.progress") process.stdout.write(`\ruploaded ${event.sent} of ${event.total} bytes`);
    if (event.type === "snapshot.status") console.log(`\nsnapshot ${event.snapshot.id}: ${event.snapshot.status}`);
  },
});
console.log(`\n${snapshot.id} ${snapshot.status}, ${snapshot.size_bytes} bytes, sha256 ${snapshot.checksum_sha256}`);
await so.close();
