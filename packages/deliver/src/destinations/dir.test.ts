/** The dir destination: documents copied into a folder whole, owner-only unless ORGREPORT_FILE_MODE says otherwise. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DestinationError, deliverAll, openLedger } from '../index.ts';
import { removeScratch, reportDelivery, scratchDir, ticking, writeDocument } from '../testing/fixtures.ts';

afterAll(removeScratch);

describe('dir:PATH', () => {
  it('copies every document into the folder (created), mode 0600, nothing left aside; the folder is the location', async () => {
    const work = scratchDir();
    const docs = [
      await writeDocument(work, 'report.pdf', '%PDF-1.7 fake'),
      await writeDocument(work, 'report.xlsx', 'PK fake', 'application/vnd.ms-excel'),
    ];
    const folder = join(work, 'out', '2026-10');
    const ledger = await openLedger(join(work, 'ledger.jsonl'), { now: ticking() });
    const old = process.umask(0o022);
    try {
      const result = await deliverAll([reportDelivery('archive', docs, { target: `dir:${folder}` })], {
        ledger,
        settings: {},
      });
      expect(result.sent).toEqual([
        expect.objectContaining({ label: `dir:${folder}`, location: folder, id: 'report.pdf, report.xlsx' }),
      ]);
      expect(ledger.get(result.sent[0]!.key)?.lastSent?.location).toBe(folder);
    } finally {
      process.umask(old);
      await ledger.close();
    }
    expect((await readdir(folder)).sort()).toEqual(['report.pdf', 'report.xlsx']);
    expect(await readFile(join(folder, 'report.pdf'), 'utf8')).toBe('%PDF-1.7 fake');
    expect((await stat(join(folder, 'report.xlsx'))).mode & 0o777).toBe(0o600);
  });

  it('writes the mode ORGREPORT_FILE_MODE names, replacing an earlier copy', async () => {
    const work = scratchDir();
    const folder = join(work, 'out');
    const ledger = await openLedger(join(work, 'ledger.jsonl'), { now: ticking() });
    const old = process.umask(0o077);
    try {
      const first = await writeDocument(work, 'report.pdf', 'first');
      await deliverAll([reportDelivery('a', [first], { target: `dir:${folder}` })], { ledger, settings: {} });
      const second = await writeDocument(work, 'report.pdf', 'second');
      const result = await deliverAll([reportDelivery('b', [second], { target: `dir:${folder}` })], {
        ledger,
        settings: { ORGREPORT_FILE_MODE: '640' },
      });
      expect(result.sent).toHaveLength(1);
    } finally {
      process.umask(old);
      await ledger.close();
    }
    expect(await readdir(folder)).toEqual(['report.pdf']);
    expect(await readFile(join(folder, 'report.pdf'), 'utf8')).toBe('second');
    expect((await stat(join(folder, 'report.pdf'))).mode & 0o777).toBe(0o640);
  });

  it('refuses a mode that is not octal before anything is written', async () => {
    const work = scratchDir();
    const doc = await writeDocument(work, 'report.pdf', 'x');
    const ledger = await openLedger(join(work, 'ledger.jsonl'), { now: ticking() });
    try {
      const run = deliverAll([reportDelivery('a', [doc], { target: `dir:${join(work, 'out')}` })], {
        ledger,
        settings: { ORGREPORT_FILE_MODE: 'rw-r-----' },
      });
      await expect(run).rejects.toBeInstanceOf(DestinationError);
      await expect(run).rejects.toThrow('ORGREPORT_FILE_MODE must be an octal mode like 600 or 640');
      expect(ledger.index.size).toBe(0);
    } finally {
      await ledger.close();
    }
    await expect(stat(join(work, 'out'))).rejects.toThrow(/ENOENT/);
  });
});
