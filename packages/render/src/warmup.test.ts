import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFixtureModel } from './__fixtures__/report-model.ts';
import { warmUpRendering } from './warmup.ts';

describe('warmUpRendering', () => {
  it('starts Chromium at once when a PDF is due, hands out that one browser, and closes it', async () => {
    const warmup = warmUpRendering(new Set(['pdf']));
    const first = await warmup.pdf();
    expect(await warmup.pdf()).toBe(first);
    const bytes = await first.render('<p>warm</p>', {
      title: 't',
      author: 'a',
      headerText: 'h',
      footerText: 'f',
    });
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    await warmup.close();
    await warmup.close(); // a second close is harmless
    await expect(
      first.render('<p>x</p>', { title: 't', author: 'a', headerText: 'h', footerText: 'f' }),
    ).rejects.toThrow();
  }, 60_000);

  it('reports a Chromium that cannot start where the PDF is awaited, not as an unhandled rejection', async () => {
    const warmup = warmUpRendering(new Set(['pdf', 'xlsx']), { executablePath: '/nonexistent/chromium' });
    // Let the failed start settle before anyone awaits it: vitest fails the run on an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(warmup.pdf()).rejects.toThrow(/nonexistent\/chromium/);
    await warmup.close();
    await expect(warmup.modules()).resolves.toBeUndefined(); // the modules load whatever Chromium did
  });

  it('starts no browser for formats without a PDF', async () => {
    const warmup = warmUpRendering(new Set(['json']), { executablePath: '/nonexistent/chromium' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(warmup.pdf()).rejects.toThrow(/nonexistent\/chromium/); // started only when asked
    await warmup.close();
    // Closed (a run stopping), it starts none for a render still under way.
    await expect(warmup.pdf()).rejects.toThrow('the renderer was closed');
  });

  it('starts the workbook thread when asked for a workbook, hands out that one thread, and stops it on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orgreport-warmup-'));
    try {
      const warmup = warmUpRendering(new Set(['xlsx']), {}, { workbookThread: true });
      const thread = warmup.thread();
      expect(warmup.thread()).toBe(thread);
      await thread.write(makeFixtureModel(), join(dir, 'report.xlsx'));
      expect(existsSync(join(dir, 'report.xlsx'))).toBe(true);
      await warmup.closePdf(); // no Chromium here; the thread goes on
      await thread.write(makeFixtureModel(), join(dir, 'again.xlsx'));
      await warmup.close();
      await expect(thread.write(makeFixtureModel(), join(dir, 'closed.xlsx'))).rejects.toThrow(/stopped/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
