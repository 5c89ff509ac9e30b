import { defineConfig } from 'vitest/config';

/** Resolve workspace packages to their TypeScript sources, so tests never need a build. */
const sourceConditions = ['@orgreport/source', 'import', 'module', 'node', 'default'];

export const sharedConfig = defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: sourceConditions, externalConditions: ['@orgreport/source'] } },
  test: {
    environment: 'node',
    passWithNoTests: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
