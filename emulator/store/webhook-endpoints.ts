// The webhook_endpoints table.
import { webhookEndpointFields } from "../../wire/generated/fields.js";
import type { WebhookEndpointJson } from "../../wire/webhook-endpoints.js";
import { isId } from "../ids.js";
import { parseJson, stmt, type Database, type PageSource } from "./db.js";
import { rowToJson, shownFields } from "./wire-columns.js";

/** An endpoint's row: its wire fields (the events as JSON text), its secret and account. */
export interface EndpointRow extends Omit<WebhookEndpointJson, "enabled_events" | "secret"> {
  account_id: string;
  enabled_events: string;
  secret: string;
}

/** What answers always show: not the secret, which only the create response carries. */
const SHOWN = shownFields(webhookEndpointFields);
const DECODE = { enabled_events: (text: unknown) => parseJson<string[]>(text as string, []) };

export function endpointToJson(row: EndpointRow): WebhookEndpointJson {
  return rowToJson(row, SHOWN, DECODE);
}

export function findEndpointOf(db: Database, accountId: string, id: string): EndpointRow | undefined {
  if (!isId("we", id)) return undefined;
  return stmt(db, "SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ?").get(id, accountId) as EndpointRow | undefined;
}

/** The account's endpoints, oldest first. */
export function endpointsPage(db: Database, accountId: string): PageSource<WebhookEndpointJson> {
  return {
    count: () => countEndpoints(db, accountId),
    rows: (limit, offset) =>
      (stmt(db, "SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY seq LIMIT ? OFFSET ?").all(accountId, limit, offset) as EndpointRow[]).map(
        endpointToJson,
      ),
  };
}

/** The account's enabled endpoints with the events they take. */
export function enabledEndpoints(db: Database, accountId: string): { id: string; events: string[] }[] {
  const rows = stmt(db, "SELECT id, enabled_events FROM webhook_endpoints WHERE account_id = ? AND status = 'enabled'").all(accountId) as {
    id: string;
    enabled_events: string;
  }[];
  return rows.map((r) => ({ id: r.id, events: JSON.parse(r.enabled_events) as string[] }));
}

/** How many endpoints the account has. */
export function countEndpoints(db: Database, accountId: string): number {
  return (stmt(db, "SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ?").get(accountId) as { n: number }).n;
}

export function insertEndpoint(db: Database, e: Omit<EndpointRow, "enabled_events" | "updated_at"> & { enabled_events: string[] }): void {
  stmt(
    db,
    `INSERT INTO webhook_endpoints (id, account_id, url, description, enabled_events, status, secret, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(e.id, e.account_id, e.url, e.description, JSON.stringify(e.enabled_events), e.status, e.secret, e.created_at, e.created_at);
}

export function updateEndpointRow(
  db: Database,
  id: string,
  e: Pick<WebhookEndpointJson, "url" | "description" | "enabled_events" | "status" | "updated_at">,
): void {
  stmt(db, "UPDATE webhook_endpoints SET url = ?, description = ?, enabled_events = ?, status = ?, updated_at = ? WHERE id = ?").run(
    e.url,
    e.description,
    JSON.stringify(e.enabled_events),
    e.status,
    e.updated_at,
    id,
  );
}

export function deleteEndpointRow(db: Database, id: string): void {
  stmt(db, "DELETE FROM webhook_endpoints WHERE id = ?").run(id);
}
