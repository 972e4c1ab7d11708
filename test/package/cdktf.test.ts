// A CDK for Terraform user's path from the packed tarball (the checks: test/package/cdk.ts).
import { describeCdkConsumer } from "./cdk.js";

describeCdkConsumer("cdktf", "CDK for Terraform (CDKTF)");
