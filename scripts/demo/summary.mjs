// The demo's summary (step 4 of `npm run demo`): the sites and webhook endpoints Terraform made, the snapshot,
// the upgrade pipeline, the webhook deliveries verified against the endpoints' secrets, the activity log tail.
import { kib, table } from "./format.mjs";

export async function summary({ client, siteIds, endpointIds, snapshot, pipeline, receiver, secrets, verify }) {
  console.log("\nSummary");
  const byId = new Map((await client.sites.list({ per_page: 100 })).data.map((s) => [s.id, s]));
  console.log("  Sites managed by Terraform (CDKTF)");
  console.log(
    table(
      ["key", "id", "name", "status", "WordPress", "PHP"],
      Object.entries(siteIds).map(([key, id]) => {
        const s = byId.get(id);
        return [key, id, s?.name, s?.status, s?.wp_version, s?.php_version];
      }),
    ),
  );
  console.log("  Webhook endpoints");
  const endpoints = await Promise.all(Object.entries(endpointIds).map(async ([key, id]) => [key, await client.webhookEndpoints.get(id)]));
  console.log(
    table(
      ["key", "id", "status", "events"],
      endpoints.map(([key, e]) => [key, e.id, e.status, e.enabled_events.join(", ")]),
    ),
  );
  console.log("  Snapshot");
  console.log(
    table(
      ["id", "status", "source", "size", "sha256"],
      [
        [
          snapshot.id,
          snapshot.status,
          snapshot.source,
          kib(snapshot.size_bytes),
          snapshot.checksum_sha256 ? `${snapshot.checksum_sha256.slice(0, 16)}...` : null,
        ],
      ],
    ),
  );
  console.log("  Upgrade pipeline");
  console.log(
    table(
      ["id", "status", "WordPress", "approved by", "steps"],
      [
        [
          pipeline.id,
          pipeline.status,
          `${pipeline.from_wp_version} -> ${pipeline.to_wp_version}`,
          pipeline.approved_by,
          (pipeline.steps ?? []).map((s) => `${s.name}:${s.status}`).join(" "),
        ],
      ],
    ),
  );

  // Deliveries are asynchronous: give the ones for the last events a moment to arrive.
  for (let i = 0; i < 20 && !receiver.deliveries.some((d) => /upgrade_pipeline\.(succeeded|failed|rolled_back)/.test(d.body.toString())); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const verified = receiver.deliveries.map((d) => {
    for (const secret of secrets) {
      try {
        return verify({ payload: d.body, headers: d.headers, secret }).type;
      } catch {
        // try the next endpoint's secret
      }
    }
    return null;
  });
  const types = [...new Set(verified.filter(Boolean))];
  const bad = verified.filter((v) => v === null).length;
  console.log(
    `  Webhook deliveries received: ${receiver.deliveries.length}` +
      (receiver.deliveries.length ? `, ${receiver.deliveries.length - bad} with a valid signature (${types.join(", ")})` : "") +
      (bad ? `; ${bad} failed verification` : ""),
  );

  console.log("  Activity log (newest first)");
  // Runs of the same action (a pipeline fixes many vulnerability records at once) are folded into one line.
  const rows = [];
  for (const l of (await client.activityLogs.list({ per_page: 40 })).data) {
    const last = rows.at(-1);
    if (last && last.action === l.action) last.count++;
    else rows.push({ ...l, count: 1 });
  }
  console.log(
    table(
      ["time", "action", "actor", "subject"],
      rows
        .slice(0, 12)
        .map((l) => [
          l.created_at.slice(11, 19),
          l.count > 1 ? `${l.action} x${l.count}` : l.action,
          `${l.actor.type}${l.actor.name ? ` (${l.actor.name})` : ""}`,
          l.count > 1 ? "..." : l.subject_id,
        ]),
    ),
  );
  console.log("");
}
