// A CDK Terrain user's path from the packed tarball (the checks: test/package/cdk.ts).
import { describeCdkConsumer } from "./cdk.js";

describeCdkConsumer("cdktn", "CDK Terrain (CDKTN)");
