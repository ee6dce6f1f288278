import { clientContract } from './client-contract.js';
import { clientPromises } from './client-promises.js';
import { contract } from './contract.js';
import { basePath } from './base-path.js';
import { bodyLimits } from './body-limits.js';
import { contractGaps } from './contract-gaps.js';
import { corsSuite } from './cors.js';
import { docs } from './docs.js';
import { documentedStatuses } from './documented-statuses.js';
import { errorShape } from './error-shape.js';
import { everyday } from './everyday.js';
import { formatContract } from './format-contract.js';
import { formatsSuite } from './formats.js';
import { hardening } from './hardening.js';
import { middleware } from './middleware.js';
import { objectForm } from './object-form.js';
import { openapiContract } from './openapi-contract.js';
import { preconditionsSuite } from './preconditions.js';
import { security } from './security.js';
import { sseSuite } from './sse.js';
import { conformance, type AdapterUnderTest } from './suite.js';
import { tracing } from './tracing.js';

/** Every HTTP-level suite but the hostile and memory ones (their own files), against `adapter`. */
export function allSuites(adapter: AdapterUnderTest): void {
  conformance(adapter);
  clientContract(adapter);
  clientPromises(adapter);
  hardening(adapter);
  contract(adapter);
  everyday(adapter);
  contractGaps(adapter);
  openapiContract(adapter);
  security(adapter);
  corsSuite(adapter);
  middleware(adapter);
  formatsSuite(adapter);
  formatContract(adapter);
  bodyLimits(adapter);
  basePath(adapter);
  errorShape(adapter);
  documentedStatuses(adapter);
  preconditionsSuite(adapter);
  sseSuite(adapter);
  objectForm(adapter);
  docs(adapter);
  tracing(adapter);
}
