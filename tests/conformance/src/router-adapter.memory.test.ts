import { memorySuite } from './memory.js';

memorySuite('router-adapter');
