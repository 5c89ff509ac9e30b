import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from './vitest.shared.ts';

// The whole workspace in one run: each package is a project with its own vitest.config.ts.
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      projects: ['packages/*', 'apps/*', 'test', 'examples/section-*', 'examples/destination-*'],
      reporters: ['default', './scripts/summary-reporter.ts'],
      globalSetup: ['./scripts/test-tmpdir.ts'],
    },
  }),
);
