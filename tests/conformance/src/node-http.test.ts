import { clientContract } from './client-contract.js';
import { contract } from './contract.js';
import { corsSuite } from './cors.js';
import { hardening } from './hardening.js';
import { middleware } from './middleware.js';
import { openapiContract } from './openapi-contract.js';
import { security } from './security.js';
import { nodeHttpAdapter as adapter } from './node-http-adapter.js';
import { conformance } from './suite.js';

conformance(adapter);
clientContract(adapter);
hardening(adapter);
contract(adapter);
openapiContract(adapter);
security(adapter);
corsSuite(adapter);
middleware(adapter);
