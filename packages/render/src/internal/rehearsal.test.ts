import { describe, expect, it, vi } from 'vitest';
import { makeFixtureModel } from '../__fixtures__/report-model.ts';

/** The page of the fixture model as a process that just started renders it, rehearsed first or not. */
async function freshPage(rehearsed: boolean, fonts = true): Promise<string> {
  vi.resetModules();
  if (rehearsed) await (await import('./rehearsal.ts')).rehearsePage({ fonts });
  return (await import('../html.ts')).renderHtml(makeFixtureModel({ users: 40 }));
}

describe('rehearsePage', () => {
  it('leaves the page as a render without it makes it, charts and fonts included', async () => {
    const plain = await freshPage(false);
    const rehearsed = await freshPage(true);
    expect(plain).toContain('<svg');
    expect(plain).toContain('data:font/woff;base64,');
    expect(rehearsed).toBe(plain);
    // The render thread's rehearsal (its layout only) leaves it the same too.
    expect(await freshPage(true, false)).toBe(plain);
  }, 30_000);
});
