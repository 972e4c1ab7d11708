// Where a visual check puts what it saw, in a folder a user named (`--out`, `--artifacts`):
//
//   DIR/report.html                          every site and page: the share changed, the verdict, a link per site
//   DIR/visual.json                          the same as data (a baseline's: what was captured, and how)
//   DIR/<site>/report.html                   one site's pages, before | after | diff side by side, images inside
//   DIR/<site>/<page>@<viewport>.before.png  (a baseline's: <page>@<viewport>.png)
//   DIR/<site>/<page>@<viewport>.after.png
//   DIR/<site>/<page>@<viewport>.diff.png
//
// <site> is the site's id, <page> the path as a file name (`/` is `home`, `/shop/cart` is `shop-cart`; a short hash
// is added when that loses something or two paths would meet). Every file is written whole through
// common/private-file.ts, never through a link; a folder is made by us or was ours already, never a link.

import { createHash } from "node:crypto";
import { lstatSync, mkdirSync } from "node:fs";
import path from "node:path";
import { writeFileExclusive } from "../common/private-file.js";

/** A folder at `dir` that is a real directory of this user's (made when missing, with its parents). */
export function ownDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid))
    throw new Error(`${dir} is not a directory of this user's (a link or another user's folder is not written into)`);
  return dir;
}

/** Writes a file of the artifacts (owner-only, whole, never through a link). */
export function writeArtifact(file: string, data: string | Uint8Array): void {
  writeFileExclusive(file, data);
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/** The folder name of a site: its id, when it is a plain word (the service's are), else a slug and a hash. */
export function siteFolder(siteId: string): string {
  if (SAFE_ID.test(siteId)) return siteId;
  return `${siteId.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 60)}-${shortHash(siteId)}`;
}

/** File stems of a site's paths, in order: `home`, `shop-cart`; a hash added when the name loses something or
 * two paths would share it. */
export function pageStems(paths: readonly string[]): string[] {
  const plain = paths.map((p) => {
    const trimmed = p.replace(/^\/+|\/+$/g, "");
    const slug = trimmed.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[.-]+/, "") || "home";
    // Word characters between single slashes, nothing else: the slug turns back into the path.
    const lossless = /^\/([A-Za-z0-9_]+(\/[A-Za-z0-9_]+)*)?$/.test(p);
    return { slug: slug.slice(0, 80), lossless };
  });
  const counts = new Map<string, number>();
  for (const { slug } of plain) counts.set(slug, (counts.get(slug) ?? 0) + 1);
  return plain.map(({ slug, lossless }, i) => (lossless && counts.get(slug) === 1 ? slug : `${slug}-${shortHash(paths[i]!)}`));
}

/** The image files of one page in one viewport, relative to DIR. */
export function pageFiles(siteId: string, stem: string, viewport: string): { baseline: string; before: string; after: string; diff: string } {
  const base = path.posix.join(siteFolder(siteId), `${stem}@${viewport}`);
  return { baseline: `${base}.png`, before: `${base}.before.png`, after: `${base}.after.png`, diff: `${base}.diff.png` };
}
