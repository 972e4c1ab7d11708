// examples/cdktn's stack deployed with plain terraform against the emulator (the checks: test/cdktf/deploy-suite.ts).
import { describeDeploy } from "../cdktf/deploy-suite.js";

describeDeploy("cdktn");
