/** A headless Chromium for tests that measure what it lays out, with a profile folder of its own. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';

/**
 * Debian's Chromium for the tests of the calling file: started before them, stopped (its profile
 * removed) after them. Call at the top of the file; the result gives the browser inside a test.
 */
export function useTestBrowser(): () => Browser {
  let browser: Browser | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orgreport-browser-'));
    browser = await puppeteer.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      userDataDir: dir,
      args: ['--no-sandbox', '--disable-gpu'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (!browser)
      throw new Error('the test browser is not started: call useTestBrowser() at the top of the file');
    return browser;
  };
}
