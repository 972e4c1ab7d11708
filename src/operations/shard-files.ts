// Shard files: one listing of the fleet per fan-out run. The matrix step lists the account's sites once and
// writes each shard's sites to its own file (`shard-3-of-16.json`, beside `matrix.json`); each shard job reads
// its file instead of listing the whole fleet again (at 64 shards of 10,000 sites the listings were a quarter of
// all requests). Written and read here once, for the CLI (`sites matrix --out`, `snapshot create --sites-from`)
// and the GitHub Action (`sites-file`). The format is documented in docs/guides/large-fleets.md ("Shard files").

import { mkdirSync } from "node:fs";
import path from "node:path";
import { writeFileExclusive } from "../../common/private-file.js";
import { readUserFile, UserFileError } from "../../common/user-file.js";
import { SiteOpsError } from "../errors.js";
import { SHAPES } from "../response-shapes.js";
import type { Site } from "../resources/sites.js";
import { formatShard, inShard, parseShard, type Shard, shardMatrix, shardOf, ShardSpecError } from "../shards.js";
import { SITE_ID_PATTERN } from "./sites.js";

/** The `format` of a shard file; a reader refuses any other. */
export const SHARD_FILE_FORMAT = "siteops.shard-sites.v1";
/** The matrix JSON written beside the shard files. */
export const MATRIX_FILE_NAME = "matrix.json";
/** A shard file larger than this is refused unread (10,000 sites in one shard take about 3 MB). */
const MAX_SHARD_FILE_BYTES = 64 * 1024 * 1024;

/** One shard's sites as the matrix step listed them. */
export interface ShardFile {
  format: typeof SHARD_FILE_FORMAT;
  /** "3/16" */
  shard: string;
  /** When the fleet was listed (ISO 8601): sites added after it are in the next run's files. */
  listed_at: string;
  /** Sites of the whole account at that time. */
  fleet_size: number;
  /** The shard's sites, as the API listed them, oldest first. */
  sites: Site[];
}

/** A shard file as read: its shard and sites, checked. */
export interface ShardSites {
  shard: Shard;
  sites: Site[];
  /** When the matrix step listed the fleet (ISO 8601). */
  listedAt: string;
  /** Sites of the whole account at that time. */
  fleetSize: number;
}

/** A matrix entry of `sites matrix --out`: the shard and its file's name (relative to the matrix's folder). */
export interface ShardMatrixEntry {
  shard: string;
  sites_file: string;
}

/** A shard file that cannot be read or is not one. `file` and `field` (e.g. `sites[3].id`) say where. */
export class ShardFileError extends SiteOpsError {
  override readonly code: string = "INVALID_SHARD_FILE";
  readonly file: string;
  readonly field: string | undefined;
  constructor(file: string, field: string | undefined, problem: string) {
    super(`${file}${field ? `: ${field}` : ""}: ${problem}`);
    this.file = file;
    this.field = field;
  }
}

/** "shard-3-of-16.json" */
export function shardFileName(shard: Shard): string {
  return `shard-${shard.index}-of-${shard.count}.json`;
}

/** Splits one listing of the fleet into `count` shard files (every site in exactly one, by {@link shardOf}). */
export function shardFiles(fleet: readonly Site[], count: number, listedAt: Date = new Date()): ShardFile[] {
  const { include } = shardMatrix(count);
  const files = include.map(
    ({ shard }): ShardFile => ({
      format: SHARD_FILE_FORMAT,
      shard,
      listed_at: listedAt.toISOString(),
      fleet_size: fleet.length,
      sites: [],
    }),
  );
  for (const site of fleet) files[shardOf(site.id, count) - 1]!.sites.push(site);
  return files;
}

/**
 * Writes `matrix.json` and one shard file per shard into `dir` (created if missing), each owner-only (0600)
 * through an exclusively created temporary file and a rename, so a reader never sees half a file and a link
 * another user planted in a shared `dir` never receives the bytes. Returns the matrix, each entry naming its file.
 */
export function writeShardFiles(dir: string, fleet: readonly Site[], count: number, listedAt?: Date): { include: ShardMatrixEntry[] } {
  const files = shardFiles(fleet, count, listedAt);
  mkdirSync(dir, { recursive: true });
  const include = files.map((file) => ({ shard: file.shard, sites_file: shardFileName(parseShard(file.shard)) }));
  files.forEach((file, i) => writeAtomically(path.join(dir, include[i]!.sites_file), file));
  const matrix = { include };
  writeAtomically(path.join(dir, MATRIX_FILE_NAME), matrix);
  return matrix;
}

/** How {@link readShardFile} reads. */
export interface ReadShardFileOptions {
  /**
   * Refuse a file reached through a symbolic link, owned by a user other than this one (or root), or writable by
   * others: another local user could have written it, and it names the sites a run acts on. The CLI's `--sites-from` sets it.
   * Default false (the Action reads the runner's workspace, which a container job's root does not own).
   */
  ownOnly?: boolean;
}

/** Reads and checks a shard file; {@link ShardFileError} naming the file and the field otherwise. */
export function readShardFile(file: string, options: ReadShardFileOptions = {}): ShardSites {
  let text: string;
  try {
    text = readUserFile(file, { maxBytes: MAX_SHARD_FILE_BYTES, ownOnly: options.ownOnly === true });
  } catch (err) {
    if (err instanceof UserFileError) throw new ShardFileError(file, undefined, err.message);
    throw err;
  }
  return parseShardFile(text, file);
}

/** Checks the text of a shard file (`file` names it in errors): its format, shard, and every site. */
export function parseShardFile(text: string, file: string): ShardSites {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ShardFileError(file, undefined, `not JSON (${(err as Error).message}); write it with siteops sites matrix --out DIR`);
  }
  const fail = (field: string | undefined, problem: string): never => {
    throw new ShardFileError(file, field, problem);
  };
  if (!isObject(doc)) return fail(undefined, "must be a JSON object written by siteops sites matrix --out DIR");
  if (doc.format !== SHARD_FILE_FORMAT) fail("format", `must be ${JSON.stringify(SHARD_FILE_FORMAT)} (got ${brief(doc.format)})`);
  if (typeof doc.shard !== "string") return fail("shard", `must be a string such as "3/16" (got ${brief(doc.shard)})`);
  let shard: Shard;
  try {
    shard = parseShard(doc.shard);
  } catch (err) {
    if (err instanceof ShardSpecError) return fail("shard", err.message.replace(/^shard /, ""));
    throw err;
  }
  if (typeof doc.listed_at !== "string" || Number.isNaN(Date.parse(doc.listed_at))) fail("listed_at", `must be an ISO 8601 time (got ${brief(doc.listed_at)})`);
  if (!Number.isSafeInteger(doc.fleet_size) || (doc.fleet_size as number) < 0) fail("fleet_size", `must be a whole number (got ${brief(doc.fleet_size)})`);
  if (!Array.isArray(doc.sites)) return fail("sites", `must be an array of sites (got ${brief(doc.sites)})`);
  if (doc.sites.length > (doc.fleet_size as number)) fail("sites", `has ${doc.sites.length} sites, more than fleet_size ${String(doc.fleet_size)}`);
  const seen = new Set<string>();
  doc.sites.forEach((site: unknown, i) => {
    const at = `sites[${i}]`;
    if (!isObject(site)) return fail(at, `must be an object (got ${brief(site)})`);
    for (const field of SITE_STRING_FIELDS) if (typeof site[field] !== "string") fail(`${at}.${field}`, `must be a string (got ${brief(site[field])})`);
    const id = site.id as string;
    if (!SITE_ID_PATTERN.test(id)) fail(`${at}.id`, `must be a site id such as site_... (got ${brief(id)})`);
    if (!inShard(id, shard))
      fail(`${at}.id`, `${id} belongs to shard ${formatShard({ index: shardOf(id, shard.count), count: shard.count })}, not ${doc.shard as string}`);
    if (seen.has(id)) fail(`${at}.id`, `${id} is listed twice`);
    seen.add(id);
  });
  return { shard, sites: doc.sites as Site[], listedAt: doc.listed_at as string, fleetSize: doc.fleet_size as number };
}

/** What a listed site must carry: the fields the toolkit reads of a site (response-shapes.ts), all strings. */
const SITE_STRING_FIELDS = Object.keys(SHAPES.site.fields);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value as an error quotes it: short, on one line. */
function brief(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Owner-only (0600), through an exclusively created temporary file: a link planted beside it never receives the
 * bytes, a link planted at `file` is replaced (common/private-file.ts). */
function writeAtomically(file: string, value: unknown): void {
  writeFileExclusive(file, `${JSON.stringify(value, null, 2)}\n`);
}
