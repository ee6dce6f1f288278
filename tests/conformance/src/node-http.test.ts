import { allSuites } from './all-suites.js';
import { nodeHttpAdapter } from './node-http-adapter.js';

allSuites(nodeHttpAdapter);
