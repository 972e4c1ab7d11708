// The action's log and annotations. Every line may carry service data (site names, ids, error messages), and
// `core.info` escapes nothing: a name holding "\n::add-mask::..." would otherwise become a workflow command
// of its own. Each message is made inert here (common/sanitize.ts, shared with the CLI) before it is printed.

import * as core from "@actions/core";
import { inertLine } from "../../common/sanitize.js";

type Annotation = { title?: string };

const props = (a: Annotation | undefined): core.AnnotationProperties | undefined => (a?.title ? { title: inertLine(a.title) } : undefined);

export const log = {
  info: (message: string): void => core.info(inertLine(message)),
  notice: (message: string, a?: Annotation): void => core.notice(inertLine(message), props(a)),
  warning: (message: string, a?: Annotation): void => core.warning(inertLine(message), props(a)),
  error: (message: string, a?: Annotation): void => core.error(inertLine(message), props(a)),
  /** Fails the step with one line. */
  fail: (message: string): void => core.setFailed(inertLine(message)),
};
