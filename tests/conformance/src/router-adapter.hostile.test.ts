import { hostile } from './hostile.js';
import { routerAdapter } from './router-adapter-adapter.js';

hostile(routerAdapter);
