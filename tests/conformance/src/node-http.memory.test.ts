import { memorySuite } from './memory.js';

memorySuite('node-http');
