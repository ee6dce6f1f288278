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
}

/** Requires a delivery quality-of-service level. The HTTP adapters supply none: attach, serve and calls fail with `CapabilityCoverageError`. */
export function requireQoS(level: number): CapabilityRequirement {
  return new CapabilityRequirement('qos', level);
}

/** Requires a high-water mark of at least `n` messages. The HTTP adapters supply none (see {@link requireQoS}). */
export function requireHWM(n: number): CapabilityRequirement {
  return new CapabilityRequirement('hwm', n);
}
