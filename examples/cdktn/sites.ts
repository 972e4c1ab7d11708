// What this team runs: edit the lists, synthesize, apply.
import type { SiteSpec, WebhookSpec } from "./stack.js";

export const sites: SiteSpec[] = [
  { key: "marketing", name: "Marketing", url: "https://www.northwind.example", wpVersion: "6.5", phpVersion: "8.2" },
  { key: "shop", name: "Shop", url: "https://shop.northwind.example", wpVersion: "6.4", phpVersion: "8.1" },
  { key: "docs", name: "Docs", url: "https://docs.northwind.example" },
];

// Where the ops team's receiver listens; SITEOPS_WEBHOOK_URL overrides it (e.g. a local receiver).
const receiver = process.env.SITEOPS_WEBHOOK_URL ?? "https://hooks.example.com/siteops";

export const webhooks: WebhookSpec[] = [
  {
    key: "snapshots",
    url: receiver,
    description: "Snapshot results",
    events: ["snapshot.completed", "snapshot.failed"],
  },
  {
    key: "upgrades",
    url: receiver,
    description: "Upgrade pipelines that need a decision or finished",
    events: ["upgrade_pipeline.awaiting_approval", "upgrade_pipeline.succeeded", "upgrade_pipeline.failed", "upgrade_pipeline.rolled_back"],
  },
];
