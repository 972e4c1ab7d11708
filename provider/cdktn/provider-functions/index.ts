// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate` (scripts/generate-cdk.mjs):
// @cdktn/provider-generator 0.24.0 over the siteops provider's schema (provider/schema-json.ts).
// generated from provider function schema

import * as cdktn from 'cdktn';

/**
* Provider-defined functions of the siteops provider.
*/
export class SiteopsProviderFunctions {
  private readonly providerLocalName: string;

  /**
  * @param providerLocalName The local name of the provider in required_providers; defaults to the registry short name. Override when the provider is declared under a different local name — aliases do not change the namespace, local names do.
  */
  constructor(providerLocalName: string) {
    this.providerLocalName = providerLocalName;
  }

  /**
  * Returns which of `count` shards (1 to `count`) the site belongs to. The shard depends on the site id alone, so a site stays in its shard as sites are added or removed, and it is the same number the CLI (`--shard I/N`, `siteops sites matrix`) and the GitHub Action (`shard: I/N`) use: a fleet split over Terraform workspaces agrees with the fleet split over jobs.
  * @param {string} siteId - The site id (`site_...`).
  * @param {number} count - How many shards: a whole number from 1 to 256 (a GitHub Actions matrix's limit).
  * @returns {number}
  */
  public shard(siteId: string, count: number): number {
    return cdktn.Token.asNumber(cdktn.TerraformProviderFunction.invoke(this.providerLocalName, "shard", [siteId, count]));
  }
}
