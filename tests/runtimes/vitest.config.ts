import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The packages as users get them: their built dist/, not the TypeScript sources.
export default mergeConfig(shared, defineConfig({ resolve: { conditions: [] }, ssr: { resolve: { conditions: [] } } }));
