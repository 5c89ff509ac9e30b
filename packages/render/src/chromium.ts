/**
 * `@orgreport/render/chromium`: which Chromium prints the PDF when none is named. Chromium's
 * headless shell (Debian's and Ubuntu's `chromium-headless-shell`) is the same engine without the
 * browser around it: it starts in about a third of the time and prints about twice as fast, with the
 * same page, fonts and PDF. Without it, the full Chromium runs headless.
 */
import { accessSync, constants } from 'node:fs';
import { basename } from 'node:path';

/** Where the apt packages put Chromium's headless shell and Chromium, in order of preference. */
export const CHROMIUM_PATHS: readonly string[] = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of {@link CHROMIUM_PATHS} that can be run; else the last (whose absence the caller reports). */
export function defaultChromium(canRun: (path: string) => boolean = executable): string {
  return CHROMIUM_PATHS.find(canRun) ?? CHROMIUM_PATHS.at(-1)!;
}

/** Puppeteer's headless mode for a binary: `shell` for Chromium's headless shell, else the browser's own. */
export function headlessModeOf(executablePath: string): 'shell' | true {
  return /headless[-_]shell/.test(basename(executablePath)) ? 'shell' : true;
}
