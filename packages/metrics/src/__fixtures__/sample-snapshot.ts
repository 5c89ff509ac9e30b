/**
 * The sample snapshot as a fixture. It lives in `src/testing/` so that the published
 * `@orgreport/metrics/testing` entry carries it; this file keeps the fixture where tests look for it.
 */
export { sampleSnapshot } from '../testing/sample-snapshot.ts';
