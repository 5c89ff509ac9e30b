import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATHS, defaultChromium, headlessModeOf } from './chromium.ts';

describe('defaultChromium', () => {
  it("prefers Chromium's headless shell, then Chromium, and names Chromium when neither runs", () => {
    const only =
      (...present: string[]) =>
      (path: string) =>
        present.includes(path);
    expect(defaultChromium(only('/usr/bin/chromium-headless-shell', '/usr/bin/chromium'))).toBe(
      '/usr/bin/chromium-headless-shell',
    );
    expect(defaultChromium(only('/usr/bin/chromium'))).toBe('/usr/bin/chromium');
    expect(defaultChromium(only())).toBe('/usr/bin/chromium');
    expect(CHROMIUM_PATHS).toEqual(['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']);
  });

  it('finds what this machine has (bash scripts/setup.sh installs the headless shell)', () => {
    expect(defaultChromium()).toBe('/usr/bin/chromium-headless-shell');
  });
});

describe('headlessModeOf', () => {
  it("runs a headless shell in Puppeteer's shell mode and any other binary as a headless browser", () => {
    expect(headlessModeOf('/usr/bin/chromium-headless-shell')).toBe('shell');
    expect(headlessModeOf('/opt/chrome-headless-shell-linux64/chrome-headless-shell')).toBe('shell');
    expect(headlessModeOf('/opt/headless_shell')).toBe('shell');
    expect(headlessModeOf('/usr/bin/chromium')).toBe(true);
    expect(headlessModeOf('/opt/headless-shell-tools/chrome')).toBe(true); // the binary's name decides
  });
});
