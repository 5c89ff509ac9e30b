import { defineConfig, type UserConfig } from 'tsdown';

/**
 * The one build configuration of the workspace: ESM, type declarations, publint.
 * A package's own tsdown.config.ts only names its entry points.
 */
export function packageConfig(overrides: UserConfig = {}): UserConfig {
  return defineConfig({
    entry: ['src/index.ts'],
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    dts: true,
    clean: true,
    sourcemap: true,
    publint: true,
    ...overrides,
  }) as UserConfig;
}
