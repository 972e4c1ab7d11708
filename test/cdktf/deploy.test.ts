// examples/cdktf's stack deployed with plain terraform against the emulator (the checks: test/cdktf/deploy-suite.ts).
import { describeDeploy } from "./deploy-suite.js";

describeDeploy("cdktf");
