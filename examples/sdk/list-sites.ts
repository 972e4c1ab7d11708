// List every site of the account, following all pages.
//   SITEOPS_BASE_URL=http://127.0.0.1:4747 SITEOPS_API_TOKEN=sot_... npx tsx examples/sdk/list-sites.ts
// In your own project: import { SiteOps } from "siteops";
import { SiteOps } from "../../src/index.js";

const so = new SiteOps(); // reads SITEOPS_BASE_URL and SITEOPS_API_TOKEN

let count = 0;
for await (const site of so.sites.list({ per_page: 100 })) {
  console.log(`${site.id}  ${site.status.padEnd(11)} WP ${site.wp_version}  PHP ${site.php_version}  ${site.name} <${site.url}>`);
  count++;
}
console.log(`${count} site(s)`);
await so.close();
