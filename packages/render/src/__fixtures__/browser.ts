/** A headless Chromium for tests that measure what it lays out, with a profile folder of its own. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

/** Starts Debian's Chromium; `close` stops it and removes its profile. */
export async function startTestBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'orgreport-browser-'));
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    userDataDir: dir,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
