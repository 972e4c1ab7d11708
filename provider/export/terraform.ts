// `siteops export terraform` (issue 27, item 3; the command's wiring in the CLI is still to come): HCL that
// adopts an account's existing sites and webhook endpoints, resource blocks plus `import` blocks, so that
// `terraform plan` shows N to import and nothing to add, change or destroy. Two layouts: "for_each" (default:
// one resource block per type over a `locals` map keyed by a stable slug, import blocks with for_each, which
// needs Terraform 1.7) or "blocks" (one resource and one import block per object).
import type { Site, SiteOps, WebhookEndpoint } from "../../src/index.js";
import { inShard, type Shard } from "../../src/index.js";

export type ExportLayout = "for_each" | "blocks";

export interface Fleet {
  sites: Site[];
  webhookEndpoints: WebhookEndpoint[];
}

/** The account's sites (of one shard, when given) and webhook endpoints, oldest first. */
export async function readFleet(client: SiteOps, options: { shard?: Shard; signal?: AbortSignal } = {}): Promise<Fleet> {
  const sites = (await client.sites.list({ per_page: 100 }, { signal: options.signal }).toArray()).filter(
    (s) => !options.shard || inShard(s.id, options.shard),
  );
  const webhookEndpoints = await client.webhookEndpoints.list({ per_page: 100 }, { signal: options.signal }).toArray();
  return { sites, webhookEndpoints };
}

/** An HCL string literal: JSON's escapes, plus `$${` and `%%{` so that nothing is read as a template. */
function hclString(text: string): string {
  return JSON.stringify(text).replace(/([$%])\{/g, (_, sigil: string) => `${sigil}${sigil}{`);
}

/** A key/identifier from a name: lowercase letters, digits and `_`, starting with a letter. */
function slugOf(name: string, fallback: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!slug) return fallback;
  return /^[a-z]/.test(slug) ? slug : `s_${slug}`;
}

/** Stable, unique slugs: from the name (sites) or the URL's host and path (endpoints); a clash gets the id's
 * tail, so adding an object never renames the others. */
function slugs<T extends { id: string }>(items: readonly T[], base: (item: T) => string): Map<string, string> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(base(item), (counts.get(base(item)) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const item of items) {
    const b = base(item);
    out.set(item.id, counts.get(b)! > 1 ? `${b}_${item.id.replace(/^[a-z]+_/, "").toLowerCase()}` : b);
  }
  return out;
}

function endpointBase(e: WebhookEndpoint): string {
  let text = e.url;
  try {
    const u = new URL(e.url);
    text = `${u.host}${u.pathname}`;
  } catch {
    // keep the raw URL
  }
  return slugOf(text, "endpoint");
}

interface Rendered {
  key: string;
  id: string;
  attrs: [string, string][];
}

function siteAttrs(s: Site): [string, string][] {
  return [
    ["name", hclString(s.name)],
    ["url", hclString(s.url)],
    ["wp_version", hclString(s.wp_version)],
    ["php_version", hclString(s.php_version)],
  ];
}

function endpointAttrs(e: WebhookEndpoint): [string, string][] {
  return [
    ["url", hclString(e.url)],
    ...(e.description ? [["description", hclString(e.description)] as [string, string]] : []),
    ["enabled_events", `[${[...e.enabled_events].sort().map(hclString).join(", ")}]`],
    ["enabled", String(e.status === "enabled")],
  ];
}

const pad = (rows: [string, string][], indent: string) => {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${indent}${k.padEnd(width)} = ${v}`).join("\n");
};

function forEachSection(type: string, local: string, items: Rendered[], names: string[]): string {
  if (items.length === 0) return "";
  const entries = items.map((i) => `    ${hclString(i.key)} = {\n${pad([["id", hclString(i.id)], ...i.attrs], "      ")}\n    }`).join("\n");
  const optional = new Set(items.flatMap((i) => i.attrs.map(([k]) => k)));
  const body = names
    .filter((n) => optional.has(n))
    .map((n): [string, string] => [n, items.every((i) => i.attrs.some(([k]) => k === n)) ? `each.value.${n}` : `try(each.value.${n}, null)`]);
  return `locals {
  ${local} = {
${entries}
  }
}

import {
  for_each = local.${local}
  to       = ${type}.this[each.key]
  id       = each.value.id
}

resource "${type}" "this" {
  for_each = local.${local}

${pad(body, "  ")}
}
`;
}

function blocksSection(type: string, items: Rendered[]): string {
  return items
    .map(
      (i) => `import {
  to = ${type}.${i.key}
  id = ${hclString(i.id)}
}

resource "${type}" "${i.key}" {
${pad(i.attrs, "  ")}
}
`,
    )
    .join("\n");
}

/** The HCL for a fleet (no provider block: the configuration has its own). */
export function renderTerraform(fleet: Fleet, layout: ExportLayout = "for_each"): string {
  const siteSlugs = slugs(fleet.sites, (s) => slugOf(s.name, "site"));
  const endpointSlugs = slugs(fleet.webhookEndpoints, endpointBase);
  const sites = fleet.sites.map((s) => ({ key: siteSlugs.get(s.id)!, id: s.id, attrs: siteAttrs(s) }));
  const endpoints = fleet.webhookEndpoints.map((e) => ({ key: endpointSlugs.get(e.id)!, id: e.id, attrs: endpointAttrs(e) }));
  const header = `# Generated by siteops export: ${sites.length} site(s), ${endpoints.length} webhook endpoint(s). Imported
# webhook endpoints have no secret in state (the service shows it only when an endpoint is created).
`;
  const sections =
    layout === "for_each"
      ? [
          forEachSection("siteops_site", "sites", sites, ["name", "url", "wp_version", "php_version"]),
          forEachSection("siteops_webhook_endpoint", "webhook_endpoints", endpoints, ["url", "description", "enabled_events", "enabled"]),
        ]
      : [blocksSection("siteops_site", sites), blocksSection("siteops_webhook_endpoint", endpoints)];
  return [header, ...sections.filter(Boolean)].join("\n");
}
