import { hostile } from './hostile.js';
import { nodeHttpAdapter } from './node-http-adapter.js';

hostile(nodeHttpAdapter);
