// examples/cdktf synthesizes, run as a user runs it, to what it promises (the checks: test/cdktf/example-suite.ts).
import { describeExample } from "./example-suite.js";

describeExample("cdktf");
