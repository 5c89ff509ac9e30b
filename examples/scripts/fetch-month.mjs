// Fetches a month of the organization API into a snapshot folder with the typed client and the
// snapshot stage. It runs against the built-in emulator; point `baseUrl`, `appUrl` and `apiKey` at
// the real service instead (a Manager or Owner key).
//
//   node fetch-month.mjs <snapshot-folder>
import { comparisonPeriod, monthPeriod, OrgClient } from '@orgreport/api-core';
import { startEmulator } from '@orgreport/emulator';
import { fetchSnapshot, writeSnapshot } from '@orgreport/snapshot';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: node fetch-month.mjs <snapshot-folder>');
  process.exit(2);
}
const now = () => new Date('2026-11-22T06:00:00Z');
const emulator = await startEmulator({ seed: 1, users: 50, today: '2026-11-22' });
try {
  const client = new OrgClient({
    apiKey: emulator.keys.manager,
    baseUrl: emulator.baseUrl,
    appUrl: emulator.appUrl,
    now,
  });
  const period = monthPeriod('2026-10', { now });
  const snapshot = await fetchSnapshot(client, {
    period,
    comparison: comparisonPeriod(period),
    now,
    toolVersion: 'example',
    organizationName: 'Example Org',
  });
  const manifest = await writeSnapshot(folder, snapshot);
  console.log(
    `${manifest.organization.name} ${period.month}: ${client.stats.requests} requests, ` +
      `${snapshot.userDays.user_id.length} user-day rows written to ${folder}`,
  );
} finally {
  await emulator.close();
}
