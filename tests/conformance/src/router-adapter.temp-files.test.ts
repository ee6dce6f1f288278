import { tempFilesLifetimeSuite } from './temp-files-lifetime.js';

tempFilesLifetimeSuite('router-adapter');
