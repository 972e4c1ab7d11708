// The stack: one siteops_site per entry of a typed list, webhook endpoints for the events a team acts on, and
// outputs of the ids and (sensitive) signing secrets.
import { TerraformOutput, TerraformStack } from "cdktn";
import type { Construct } from "constructs";
import type { WebhookEventType } from "siteops";
import { DataSiteopsMe, Site, SiteopsProvider, WebhookEndpoint } from "siteops/cdktn";

export interface SiteSpec {
  /** Terraform resource name: keep it stable, renaming it replaces the site. */
  key: string;
  name: string;
  url: string;
  /** `major.minor`; the service's current version when omitted. */
  wpVersion?: string;
  phpVersion?: string;
  /** Default true: Terraform refuses to delete the site (destroy, replacement) until false has been deployed. */
  deletionProtection?: boolean;
}

export interface WebhookSpec {
  key: string;
  url: string;
  description?: string;
  events: WebhookEventType[];
}

export interface SiteopsStackProps {
  sites: readonly SiteSpec[];
  webhooks: readonly WebhookSpec[];
}

export class SiteopsStack extends TerraformStack {
  constructor(scope: Construct, id: string, props: SiteopsStackProps) {
    super(scope, id);

    // Configured from the environment when terraform runs (SITEOPS_BASE_URL, SITEOPS_API_TOKEN): nothing
    // secret is written into cdk.tf.json.
    new SiteopsProvider(this, "siteops", {});

    const siteIds: Record<string, string> = {};
    for (const spec of props.sites) {
      const site = new Site(this, spec.key, {
        name: spec.name,
        url: spec.url,
        ...(spec.wpVersion ? { wpVersion: spec.wpVersion } : {}),
        ...(spec.phpVersion ? { phpVersion: spec.phpVersion } : {}),
        ...(spec.deletionProtection === undefined ? {} : { deletionProtection: spec.deletionProtection }),
      });
      siteIds[spec.key] = site.id;
    }

    const endpointIds: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    for (const spec of props.webhooks) {
      const endpoint = new WebhookEndpoint(this, `webhook_${spec.key}`, {
        url: spec.url,
        ...(spec.description ? { description: spec.description } : {}),
        enabledEvents: spec.events,
      });
      endpointIds[spec.key] = endpoint.id;
      secrets[spec.key] = endpoint.secret;
    }

    const me = new DataSiteopsMe(this, "me", {});

    new TerraformOutput(this, "account_id", { value: me.currentAccountId, description: "The account the sites belong to." });
    new TerraformOutput(this, "site_ids", { value: siteIds, description: "Site id by key." });
    new TerraformOutput(this, "webhook_endpoint_ids", { value: endpointIds, description: "Webhook endpoint id by key." });
    new TerraformOutput(this, "webhook_secrets", {
      value: secrets,
      sensitive: true,
      description: "Signing secret (whsec_...) by key; read with `terraform output -json webhook_secrets`.",
    });
  }
}
