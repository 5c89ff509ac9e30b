// Type tests of the public API (checked by `tsc --noEmit`).
import type { OrgClient, Snapshot, SnapshotManifest } from '@orgreport/api-core';
import { expectTypeOf } from 'vitest';
import { type CliIo, EXIT, type ExitCode, fetchSnapshot, readSnapshot, run, writeSnapshot } from './index.ts';

expectTypeOf(run).parameters.toEqualTypeOf<[argv: string[], io?: Partial<CliIo>]>();
expectTypeOf(run).returns.resolves.toEqualTypeOf<number>();
expectTypeOf(EXIT.auth).toEqualTypeOf<3>();
expectTypeOf<ExitCode>().toEqualTypeOf<0 | 1 | 2 | 3>();
expectTypeOf(fetchSnapshot).parameter(0).toEqualTypeOf<OrgClient>();
expectTypeOf(fetchSnapshot).returns.resolves.toEqualTypeOf<Snapshot>();
expectTypeOf(writeSnapshot).returns.resolves.toEqualTypeOf<SnapshotManifest>();
expectTypeOf(readSnapshot).returns.resolves.toEqualTypeOf<Snapshot>();
