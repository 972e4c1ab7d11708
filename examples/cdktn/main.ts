// The CDK Terrain app: `npx tsx main.ts` (or `cdktn synth`) writes cdktf.out/stacks/siteops/cdk.tf.json, which plain
// terraform deploys: cd cdktf.out/stacks/siteops && terraform init && terraform apply.
import { App, LocalBackend } from "cdktn";
import { sites, webhooks } from "./sites.js";
import { SiteopsStack } from "./stack.js";

const app = new App();
const stack = new SiteopsStack(app, "siteops", { sites, webhooks });
// The state beside this app, as a path relative to the folder terraform runs in (cdktf.out/stacks/siteops): the
// default would be this machine's absolute path, so cdk.tf.json would not run in another checkout or pipeline.
new LocalBackend(stack, { path: "../../../terraform.siteops.tfstate" });
app.synth();
