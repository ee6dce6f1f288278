import { faults } from './faults.js';
import { routerAdapter } from './router-adapter-adapter.js';

faults(routerAdapter);
