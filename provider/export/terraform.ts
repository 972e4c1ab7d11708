// `siteops export terraform` (issue 27, item 3): HCL that adopts an account's existing sites and webhook
// endpoints, resource blocks plus `import` blocks, so that `terraform plan` shows N to import and nothing to
// add, change or destroy. Two forms: "map" (default: one resource block per type over a `locals` map keyed by
// a stable slug, import blocks with for_each, which needs Terraform 1.7) or "blocks" (one resource and one
// import block per object). The objects and their keys come from fleet.ts.
import { escapeInvisible } from "../../common/sanitize.js";
import { EXPORTS, type ExportedType, type Value } from "./arguments.js";
import { describeCounts, type Entry, type FleetEntries } from "./fleet.js";

export type ExportForm = "map" | "blocks";

/** `$${` and `%%{` for `${` and `%{`: Terraform reads every string (HCL, and JSON syntax too) as a template. */
export function escapeTemplate(text: string): string {
  return text.replace(/([$%])\{/g, (_, sigil: string) => `${sigil}${sigil}{`);
}

/** HCL's escape of one character: `\uNNNN` in the BMP, `\UNNNNNNNN` beyond it. */
const hclEscape = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\U${code.toString(16).padStart(8, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
};

/** An HCL string literal: JSON's escapes, no invisible or bidirectional character raw (docs/design.md, "Input:
 * control and invisible characters": a committed file must read as what it is), and nothing read as a template.
 * A lone surrogate becomes U+FFFD, as in every UTF-8 string Terraform holds (HCL refuses its escape). */
function hclString(text: string): string {
  return escapeInvisible(escapeTemplate(JSON.stringify(text.replace(/[\ud800-\udfff]/gu, "\ufffd"))), hclEscape);
}

function hclValue(value: Value): string {
  if (typeof value === "boolean") return String(value);
  if (typeof value === "string") return hclString(value);
  return `[${value.map(hclString).join(", ")}]`;
}

const pad = (rows: [string, string][], indent: string) => {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${indent}${k.padEnd(width)} = ${v}`).join("\n");
};

const rendered = (entry: Entry): [string, string][] => entry.attrs.map(([k, v]) => [k, hclValue(v)]);

function mapSection(type: ExportedType, local: string, items: Entry[]): string {
  if (items.length === 0) return "";
  const entries = items.map((i) => `    ${hclString(i.key)} = {\n${pad([["id", hclString(i.id)], ...rendered(i)], "      ")}\n    }`).join("\n");
  const present = new Set(items.flatMap((i) => i.attrs.map(([k]) => k)));
  const body = EXPORTS[type].names
    .filter((n) => present.has(n))
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

function blocksSection(type: string, items: Entry[]): string {
  return items
    .map(
      (i) => `import {
  to = ${type}.${i.key}
  id = ${hclString(i.id)}
}

resource "${type}" "${i.key}" {
${pad(rendered(i), "  ")}
}
`,
    )
    .join("\n");
}

const MOVED_NOTE = `# The earlier export had these objects at other addresses (another form, or a key this form cannot write):
# Terraform moves them in its state, so nothing is imported twice or destroyed. Keep the blocks until every
# workspace that used the earlier file has applied this one.`;

const PROVIDER_BLOCK = `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}

provider "siteops" {} # reads SITEOPS_BASE_URL and SITEOPS_API_TOKEN
`;

/** The resource name and for_each key of an entry in `form`: `this["key"]` (map) or `key` (blocks). */
const placeOf = (key: string, form: ExportForm) => (form === "map" ? { resource: "this", key } : { resource: key });

const addressOf = (type: ExportedType, place: { resource: string; key?: string }) =>
  `${type}.${place.resource}${place.key === undefined ? "" : `[${hclString(place.key)}]`}`;

/** `moved` blocks for the objects the earlier export had at another address (it was written in the other form,
 * or a key it gave cannot be written in this one): Terraform moves them in its state instead of importing them
 * again at the new address and destroying them at the old. */
function movedSection(type: ExportedType, items: Entry[], form: ExportForm): string {
  return items
    .flatMap((i) => {
      if (!i.previous) return [];
      const from = addressOf(type, i.previous);
      const to = addressOf(type, placeOf(i.key, form));
      return from === to ? [] : [`moved {\n  from = ${from}\n  to   = ${to}\n}\n`];
    })
    .join("\n");
}

/** The HCL for a fleet; without `withProvider` no provider block (the configuration has its own). */
export function renderTerraform(entries: FleetEntries, options: { form?: ExportForm; withProvider?: boolean; scope?: string } = {}): string {
  const form = options.form ?? "map";
  const header = `# Generated by \`siteops export terraform\`: ${describeCounts(entries)}${options.scope ? ` (${options.scope})` : ""}.
# \`terraform plan\` imports them and changes nothing; after \`terraform apply\` this file is ordinary configuration.
# Keep the import blocks: they import nothing once the objects are in state, and \`siteops export terraform --out\`
# reads them from this file to keep each object at its address (its key) when it writes the file again. Each site
# has deletion_protection = true: Terraform refuses to delete it until that is set to false and applied. Imported
# webhook endpoints have a null \`secret\` in state: the service shows it only when an endpoint is created, and the
# attribute is not configurable, so it plans no change.
`;
  const sections =
    form === "map"
      ? [mapSection("siteops_site", "sites", entries.sites), mapSection("siteops_webhook_endpoint", "webhook_endpoints", entries.webhookEndpoints)]
      : [blocksSection("siteops_site", entries.sites), blocksSection("siteops_webhook_endpoint", entries.webhookEndpoints)];
  const moved = [movedSection("siteops_site", entries.sites, form), movedSection("siteops_webhook_endpoint", entries.webhookEndpoints, form)].filter(Boolean);
  if (moved.length) sections.push(`${MOVED_NOTE}\n${moved.join("\n")}`);
  return [header, ...(options.withProvider ? [PROVIDER_BLOCK] : []), ...sections.filter(Boolean)].join("\n");
}
