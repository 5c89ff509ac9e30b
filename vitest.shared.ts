import { defineConfig } from 'vitest/config';

/** Resolve workspace packages to their TypeScript sources, so tests never need a build. */
const sourceConditions = ['@orgreport/source', 'import', 'module', 'node', 'default'];
/**
 * The same without `module`: vitest starts its workers with the SSR conditions as `--conditions`
 * flags, and the AWS SDK's packages map `module` (listed before `node` in their exports) to builds
 * with extensionless imports, for bundlers, that Node cannot load.
 */
const nodeConditions = sourceConditions.filter((c) => c !== 'module');

export const sharedConfig = defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: nodeConditions, externalConditions: ['@orgreport/source'] } },
  test: {
    environment: 'node',
    passWithNoTests: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
