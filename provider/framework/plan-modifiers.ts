// Attribute plan modifiers, as in terraform-plugin-framework: they adjust one attribute's planned value or
// ask for replacement, after the framework has marked changed computed attributes unknown.
import { equal, isUnknown, type ObjectValue, type Value } from "../values/cty.js";
import type { AttributePath } from "./diagnostics.js";

export interface PlanModifierRequest {
  path: AttributePath;
  config: Value;
  /** The attribute's value in the prior state (null when creating). */
  state: Value;
  plan: Value;
  /** Whole prior state; null when the resource is being created. */
  priorState: ObjectValue | null;
}

export interface PlanModifier {
  description: string;
  modify(req: PlanModifierRequest): { plan?: Value; requiresReplace?: boolean };
}

/** Replace the resource instead of updating it when this attribute changes. */
export function requiresReplace(): PlanModifier {
  return requiresReplaceIf(() => true, "If the value of this attribute changes, Terraform will destroy and recreate the resource.");
}

export function requiresReplaceIf(when: (req: PlanModifierRequest) => boolean, description: string): PlanModifier {
  return {
    description,
    modify(req) {
      if (req.priorState === null) return {}; // creating
      if (equal(req.plan, req.state)) return {};
      return when(req) ? { requiresReplace: true } : {};
    },
  };
}

/** Keep the prior state's value instead of "(known after apply)" for values that never change once set. */
export function useStateForUnknown(): PlanModifier {
  return {
    description: "The value does not change after creation.",
    modify(req) {
      if (req.priorState === null || req.state === null) return {};
      if (!isUnknown(req.plan) || isUnknown(req.config)) return {};
      return { plan: req.state };
    },
  };
}
