// The provider started by Terraform on a Node.js older than the package supports: it completes go-plugin's
// handshake and answers every call with one error diagnostic, the Node sentence (common/node-support.ts) and which
// Node.js ran it. Terraform shows a diagnostic; of a plugin that exits before the handshake it shows only "Failed
// to read any lines from plugin's stdout ... not compiled for this architecture" (docs/node-versions.md).
import type { Diagnostic, ProviderService } from "./protocol/tfplugin6.js";

/** What Terraform shows: the sentence, then the Node.js that ran the provider and how to pick another. */
export function unsupportedNodeDiagnostic(sentence: string, node: string = process.execPath): Diagnostic {
  return {
    severity: 1,
    summary: sentence,
    detail:
      `Terraform ran the provider with ${node} ($SITEOPS_NODE when set, else the first node on Terraform's PATH). ` +
      "Set SITEOPS_NODE to a node executable of a supported version, or put one first on the PATH",
  };
}

/** A tfplugin6 Provider service that refuses every call with `diagnostic`. */
export function refusingProvider(diagnostic: Diagnostic): ProviderService {
  const refuse = () => ({ diagnostics: [diagnostic] });
  return {
    getMetadata: refuse,
    getProviderSchema: refuse,
    validateProviderConfig: refuse,
    validateResourceConfig: refuse,
    validateDataResourceConfig: refuse,
    upgradeResourceState: refuse,
    configureProvider: refuse,
    readResource: refuse,
    planResourceChange: refuse,
    applyResourceChange: refuse,
    importResourceState: refuse,
    readDataSource: refuse,
    getFunctions: refuse,
    // CallFunction and StopProvider carry no diagnostics: a FunctionError and an error text.
    callFunction: () => ({ error: { text: `${diagnostic.summary} ${diagnostic.detail}` } }),
    stopProvider: () => ({}),
  };
}
