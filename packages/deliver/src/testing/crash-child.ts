/**
 * A delivery run in a process of its own, for the crash tests: 8 reports to 8 recipients through
 * the smtp destination, every progress event printed as a JSON line, then the result. With `pause`
 * it prints `ready` and waits on stdin before sending anything (a test kills it there).
 *
 * Usage: node --conditions=@orgreport/source --import tsx crash-child.ts '<CrashChildArgs as JSON>'
 */
import { deliverAll, openLedger } from '../index.ts';
import { CRASH_HOST, CRASH_RECIPIENTS, type CrashChildArgs } from './crash-plan.ts';
import { reportDelivery, writeDocument } from './fixtures.ts';

const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main(args: CrashChildArgs): Promise<number> {
  const doc = await writeDocument(args.dir, 'orgreport-acme-2026-10.pdf', '%PDF-1.7 the October report');
  const ledger = await openLedger(args.ledger, { now: () => new Date() });
  try {
    print({ type: 'ready', pid: process.pid });
    if (args.pause) await new Promise((resolve) => process.stdin.once('data', resolve));
    const result = await deliverAll(
      CRASH_RECIPIENTS.map((r) => reportDelivery(r, [doc])),
      {
        ledger,
        settings: { ORGREPORT_SMTP_URL: args.smtpUrl, ORGREPORT_MAIL_FROM: 'reports@acme.test' },
        messageIdHost: CRASH_HOST,
        unknown: args.unknown,
        attempts: 2,
        baseDelayMs: 10,
        onEvent: print,
      },
    );
    print({ type: 'result', result });
    return result.failed.length > 0 ? 1 : 0;
  } finally {
    await ledger.close();
  }
}

main(JSON.parse(process.argv[2] ?? '{}') as CrashChildArgs).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exitCode = 2;
  },
);
