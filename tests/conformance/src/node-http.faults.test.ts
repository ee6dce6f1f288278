import { faults } from './faults.js';
import { nodeHttpAdapter } from './node-http-adapter.js';

faults(nodeHttpAdapter);
