import { packageConfig } from '../../tsup.shared.js';

// shims: import.meta.url in the CommonJS build (to find swagger-ui-dist's files).
export default packageConfig(['src/index.ts'], { shims: true });
