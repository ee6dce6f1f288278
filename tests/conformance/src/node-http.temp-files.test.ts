import { tempFilesLifetimeSuite } from './temp-files-lifetime.js';

tempFilesLifetimeSuite('node-http');
