// Distributes a month without the CLI: every manager of the demo organization gets the PDF of the
// people under them, each delivery recorded in the ledger so that a second run sends nothing again.
// The demo has no mail server here, so each mail lands in <folder>/outbox/<recipient>/; give the
// settings an `smtpUrl` (and `baseUrl`, `apiKey`, `directory` instead of the demo) for the real thing.
//
//   node distribute-month.mjs <folder>
import { distributeMonth, Reporter, runContext, settingsFor } from '@orgreport/pipeline';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: node distribute-month.mjs <folder>');
  process.exit(2);
}
const settings = settingsFor({ outDir: folder, today: '2026-11-22' });
const result = await distributeMonth(
  settings,
  { demo: true, month: '2026-10' },
  runContext(),
  new Reporter(process.stderr, 'warn'),
);
console.log(
  `distributed ${result.month}: ${result.sent.length} sent, ${result.skipped.length} already delivered, ` +
    `${result.summary.heldBack.length} scopes held back; ${result.rendered.length} files in ${folder}`,
);
