// The provider's bound on one API call: it ends at the latest the retry budget plus one attempt's timeout after
// it started, whatever it waited for. The core's own rules (docs/client.md, "Retries") let 429 waits and the
// client's rate-limit pauses move a call's deadline, so under a 429 storm shared by many resources one call could
// wait for minutes; an apply must give up in the time docs/terraform.md promises, naming the budget.
import type * as Core from "../src/index.js";

/** The last retry reason seen per "METHOD path", for the message of a call that ran out of time. */
export type RetryReasons = Map<string, string>;

/**
 * Makes every call of `client` (each goes through `request`) end by `retryBudgetMs + timeout` after it started:
 * aborted then, with a SiteOpsError that names the budget and the last failure. Stops given by the call's own
 * signal (Ctrl-C) stay APIUserAbortErrors.
 */
export function boundCalls(core: typeof Core, client: Core.SiteOps, reasons: RetryReasons): Core.SiteOps {
  const request = client.request.bind(client);
  const limitMs = client.retryBudgetMs + client.timeout;
  client.request = <T>(init: Core.RequestInit): Promise<Core.APIResponse<T>> => {
    const deadline = AbortSignal.timeout(limitMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    return request<T>({ ...init, signal }).catch((err: unknown) => {
      if (!(deadline.aborted && !init.signal?.aborted && err instanceof core.APIUserAbortError)) throw err;
      const last = reasons.get(`${init.method} ${init.path}`);
      throw new core.SiteOpsError(
        `${init.method} ${init.path}: no success within ${seconds(client.retryBudgetMs)}, the retry budget (SITEOPS_RETRY_BUDGET_MS), ` +
          `plus one attempt's timeout of ${seconds(client.timeout)} (request_timeout)${last ? `; the last failure: ${last}` : ""}. ` +
          "The service is overloaded or unreachable: apply again later.",
      );
    });
  };
  return client;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;
