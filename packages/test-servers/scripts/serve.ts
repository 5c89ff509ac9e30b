/**
 * Starts the test S3 (with conditional writes) and a Postgres on loopback and prints the variables
 * that point orgreport at them, to try `--ledger` and `--store` by hand (docs/deployment.md):
 *   pnpm --filter @orgreport/test-servers serve
 * Ctrl-C stops both and removes their folders.
 */
import { startPostgres } from '../src/postgres.ts';
import { startS3 } from '../src/s3.ts';

const [s3, pg] = await Promise.all([startS3({ buckets: ['orgreport'] }), startPostgres()]);
const lines = [
  ...Object.entries(s3.env).map(([k, v]) => `export ${k}=${v}`),
  `export ORGREPORT_PG_URL=${pg.url}`,
  '# bucket: s3://orgreport/   database: $ORGREPORT_PG_URL   (Ctrl-C to stop)',
];
process.stdout.write(`${lines.join('\n')}\n`);
const stop = async () => {
  await Promise.allSettled([s3.close(), pg.close()]);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
