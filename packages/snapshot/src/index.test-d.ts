// Type tests of the public API (checked by `tsc --noEmit`).
import type { OrgClient } from '@orgreport/api-core';
import { expectTypeOf } from 'vitest';
import { fetchSnapshot, readSnapshot, type Snapshot, type SnapshotManifest, writeSnapshot } from './index.ts';

expectTypeOf(fetchSnapshot).parameter(0).toEqualTypeOf<OrgClient>();
expectTypeOf(fetchSnapshot).returns.resolves.toEqualTypeOf<Snapshot>();
expectTypeOf(writeSnapshot).returns.resolves.toEqualTypeOf<SnapshotManifest>();
expectTypeOf(readSnapshot).returns.resolves.toEqualTypeOf<Snapshot>();
