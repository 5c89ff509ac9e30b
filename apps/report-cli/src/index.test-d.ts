// Type tests of the public API (checked by `tsc --noEmit`).
import { expectTypeOf } from 'vitest';
import { type CliIo, EXIT, type ExitCode, run } from './index.ts';

expectTypeOf(run).parameters.toEqualTypeOf<[argv: string[], io?: Partial<CliIo>]>();
expectTypeOf(run).returns.resolves.toEqualTypeOf<number>();
expectTypeOf(EXIT.auth).toEqualTypeOf<3>();
expectTypeOf<ExitCode>().toEqualTypeOf<0 | 1 | 2 | 3>();
