import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputSet } from './atomic.ts';

describe('OutputSet', () => {
  it('shows nothing under the final names until commit, then everything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-atomic-'));
    const out = await new OutputSet(dir).open();
    await writeFile(out.file('report.pdf'), 'pdf');
    const snap = await out.directory('snapshot');
    await writeFile(join(snap, 'manifest.json'), '{}');
    expect((await readdir(dir)).filter((f) => !f.startsWith('.'))).toEqual([]);
    const committed = await out.commit();
    expect(committed.map((c) => c.path)).toEqual([join(dir, 'report.pdf'), join(dir, 'snapshot')]);
    expect(committed[0]!.bytes).toBe(3);
    expect((await readdir(dir)).sort()).toEqual(['report.pdf', 'snapshot']);
  });

  it('leaves an existing report intact when the run is aborted, and replaces it on commit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-atomic-'));
    await writeFile(join(dir, 'report.pdf'), 'old');
    const failed = await new OutputSet(dir).open();
    await writeFile(failed.file('report.pdf'), 'half');
    await failed.abort();
    expect(await readdir(dir)).toEqual(['report.pdf']);
    expect(await readFile(join(dir, 'report.pdf'), 'utf8')).toBe('old');

    const ok = await new OutputSet(dir).open();
    await writeFile(ok.file('report.pdf'), 'new');
    await ok.commit();
    expect(await readFile(join(dir, 'report.pdf'), 'utf8')).toBe('new');
  });

  it('replaces an existing directory as a whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgreport-atomic-'));
    const first = await new OutputSet(dir).open();
    await writeFile(join(await first.directory('snapshot'), 'a.json'), '1');
    await first.commit();
    const second = await new OutputSet(dir).open();
    await writeFile(join(await second.directory('snapshot'), 'b.json'), '2');
    await second.commit();
    expect(await readdir(join(dir, 'snapshot'))).toEqual(['b.json']);
    expect(await readdir(dir)).toEqual(['snapshot']);
  });
});
