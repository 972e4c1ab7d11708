// The CDK Terrain app: `npx tsx main.ts` (or `cdktn synth`) writes cdktf.out/stacks/siteops/cdk.tf.json, which plain
// terraform deploys: cd cdktf.out/stacks/siteops && terraform init && terraform apply.
import { App } from "cdktn";
import { sites, webhooks } from "./sites.js";
import { SiteopsStack } from "./stack.js";

const app = new App();
new SiteopsStack(app, "siteops", { sites, webhooks });
app.synth();
