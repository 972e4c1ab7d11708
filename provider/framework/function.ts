// Provider-defined functions (plugin protocol 6.5, Terraform >= 1.8): `provider::siteops::NAME(...)`. A
// function declares typed positional parameters and a return type; Terraform calls it with wholly known,
// non-null arguments (neither null nor unknown is allowed here), even before the provider is configured.
import type { CtyType, Value } from "../values/cty.js";

interface FunctionParameter {
  name: string;
  type: CtyType;
  /** Markdown. */
  description: string;
}

export interface FunctionDefinition {
  name: string;
  /** One line, for `terraform providers schema` and the docs' front matter. */
  summary: string;
  /** Markdown. */
  description: string;
  parameters: readonly FunctionParameter[];
  returns: CtyType;
  /** Throws FunctionError for bad arguments. */
  run(args: Value[]): Value | Promise<Value>;
}

/** A failure Terraform shows against the call, pointing at one argument (0-based) when `argument` is set. */
export class FunctionError extends Error {
  constructor(
    message: string,
    readonly argument?: number,
  ) {
    super(message);
  }
}
