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
    // An external imported for its types alone must leave no bare `import "x"` in the declarations:
    // a consumer type-checking without skipLibCheck would load that package's types too.
    treeshake: { moduleSideEffects: (_id: string, external: boolean) => !external },
    ...overrides,
  }) as UserConfig;
}
