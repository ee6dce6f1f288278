import { allSuites } from './all-suites.js';
import { routerAdapter } from './router-adapter-adapter.js';

allSuites(routerAdapter);
