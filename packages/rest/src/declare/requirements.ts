import { CapabilityCoverageError } from './errors.js';
import type { RouteOption } from './route-option.js';

/** A capability a route requires of its transport. */
export class CapabilityRequirement implements RouteOption<unknown, unknown> {
  readonly optionKind = 'requirement';
  declare readonly '~route'?: (req: unknown, resp: unknown) => void;
  /** `qos` or `hwm`. */
  readonly capability: string;
  /** The minimum level. */
  readonly level: number;
  constructor(capability: string, level: number) {
    this.capability = capability;
    this.level = level;
  }

  /**
   * Checks that `capabilities` (a transport's, capability → level) cover every requirement in
   * `requirements` of the route `routeId`. Coverage checks call it through a route's first
   * requirement, so that routes without requirements carry none of this code.
   * @throws {CapabilityCoverageError} naming the capabilities missing and those supplied at a lower level.
   */
  checkCoverage(routeId: string, requirements: readonly CapabilityRequirement[], capabilities: ReadonlyMap<string, number>): void {
    const missing: string[] = [];
    const insufficient: string[] = [];
    for (const r of requirements) {
      const level = capabilities.get(r.capability);
      if (level === undefined) missing.push(r.capability);
      else if (level < r.level) insufficient.push(r.capability);
    }
    if (missing.length > 0 || insufficient.length > 0) throw new CapabilityCoverageError(routeId, missing, insufficient);
  }
}

/** Requires a delivery quality-of-service level. The HTTP adapters supply none: attach, serve and calls fail with `CapabilityCoverageError`. */
export function requireQoS(level: number): CapabilityRequirement {
  return new CapabilityRequirement('qos', level);
}

/** Requires a high-water mark of at least `n` messages. The HTTP adapters supply none (see {@link requireQoS}). */
export function requireHWM(n: number): CapabilityRequirement {
  return new CapabilityRequirement('hwm', n);
}
