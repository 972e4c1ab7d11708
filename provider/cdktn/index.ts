// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate` (scripts/generate-cdk.mjs):
// @cdktn/provider-generator 0.24.0 over the siteops provider's schema (provider/schema-json.ts).

// Each module as a namespace (site.Site, provider.SiteopsProvider) and flat (Site, SiteopsProvider).
export * as dataSiteopsAccount from "./data-siteops-account/index.js";
export * from "./data-siteops-account/index.js";
export * as dataSiteopsMe from "./data-siteops-me/index.js";
export * from "./data-siteops-me/index.js";
export * as dataSiteopsSite from "./data-siteops-site/index.js";
export * from "./data-siteops-site/index.js";
export * as dataSiteopsSites from "./data-siteops-sites/index.js";
export * from "./data-siteops-sites/index.js";
export * as provider from "./provider/index.js";
export * from "./provider/index.js";
export * as providerFunctions from "./provider-functions/index.js";
export * from "./provider-functions/index.js";
export * as site from "./site/index.js";
export * from "./site/index.js";
export * as webhookEndpoint from "./webhook-endpoint/index.js";
export * from "./webhook-endpoint/index.js";
