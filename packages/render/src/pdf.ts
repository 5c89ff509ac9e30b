/**
 * PDF rendering with Puppeteer and the system Chromium. One browser serves many PDFs; every page
 * loads nothing from outside (request interception aborts any request that is not `data:`), runs
 * no script, and prints A4 with a header and footer naming the organization, the period and
 * "page N of M".
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { defaultChromium, headlessModeOf } from './chromium.ts';
import { escapeHtml, shortText, withoutBidiControls } from './display-text.ts';
import { withPdfInfo } from './internal/pdf-info.ts';

// Puppeteer's CommonJS build, required: its ES modules take about 40 ms more to load (Node's loader
// scans the CommonJS modules they import for their names), on the way to Chromium's start.
const puppeteer = (createRequire(import.meta.url)('puppeteer-core') as typeof import('puppeteer-core'))
  .default;

/** Options of {@link createPdfRenderer}. */
export interface PdfRendererOptions {
  /** Chromium binary (default: Chromium's headless shell, else Chromium: `defaultChromium()` of `@orgreport/render/chromium`). */
  executablePath?: string;
  /** Milliseconds to wait for a page to load and print (default 60 s). */
  timeoutMs?: number;
}

/** Document text of one PDF. */
export interface PdfDocumentOptions {
  /** Document title (the HTML `<title>` is set to it, which becomes the PDF's Title). */
  title: string;
  /** Document author (`<meta name="author">`, the PDF's Author). */
  author: string;
  /** Text at the top of every page (organization and period). */
  headerText: string;
  /** Text at the top right of every page (default: the title): who the report is for. */
  headerRight?: string;
  /** Text at the bottom of every page, before "page N of M". */
  footerText: string;
}

/** What a caller of {@link PdfRenderer.render} may hear about along the way. */
export interface PdfRenderEvents {
  /**
   * The document is loaded in Chromium and printing starts: from here on Chromium works on its own,
   * so the caller may start other heavy work (before, that work would hold up the page's setup).
   */
  onLoaded?: () => void;
}

/** A running browser that turns HTML into PDFs. */
export interface PdfRenderer {
  /** Prints one HTML document to PDF bytes. */
  render(html: string, options: PdfDocumentOptions, events?: PdfRenderEvents): Promise<Uint8Array>;
  /** Requests aborted so far because they were not `data:` URLs (all renders of this renderer). */
  readonly blockedRequests: ReadonlyArray<string>;
  /** Closes the browser and removes its temporary profile. */
  close(): Promise<void>;
}

/** Chromium flags: nothing phones home, no GPU, no first-run work. */
export const CHROMIUM_ARGS = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-gpu',
  '--no-first-run',
  '--disable-default-apps',
  '--disable-extensions',
  '--font-render-hinting=none',
];

/** Longest header or footer text: one line of the page's top or bottom margin. */
const MAX_MARGIN_TEXT = 90;
const marginText = (text: string) => escapeHtml(shortText(withoutBidiControls(text), MAX_MARGIN_TEXT));

/** Header and footer are small HTML documents of their own (no page CSS applies, so style inline). */
function headerFooterTemplates(options: PdfDocumentOptions): {
  headerTemplate: string;
  footerTemplate: string;
} {
  const style =
    "font-family:'Noto Sans',sans-serif;font-size:8px;color:#5d6d7e;width:100%;margin:0 14mm;display:flex;justify-content:space-between;";
  return {
    headerTemplate: `<div style="${style}"><span>${marginText(options.headerText)}</span><span>${marginText(options.headerRight ?? options.title)}</span></div>`,
    footerTemplate: `<div style="${style}"><span>${marginText(options.footerText)}</span><span>page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`,
  };
}

/** Sets the document's `<title>` and author meta so the PDF metadata carries them. */
function withMetadata(html: string, options: PdfDocumentOptions): string {
  const head = `<title>${escapeHtml(options.title)}</title><meta name="author" content="${escapeHtml(options.author)}">`;
  const stripped = html.replace(/<title>[\s\S]*?<\/title>/i, '').replace(/<meta name="author"[^>]*>/i, '');
  return /<head[^>]*>/i.test(stripped) ? stripped.replace(/<head[^>]*>/i, (m) => m + head) : head + stripped;
}

/** Chromium's profile folders in the temporary folder, named after the process that made them. */
const PROFILE_PREFIX = 'orgreport-chromium-';
const PROFILE_OF_PROCESS = new RegExp(`^${PROFILE_PREFIX}(\\d+)-`);

/**
 * True when a process with this id runs on this machine (another user's too: EPERM). The file lock
 * of `@orgreport/api-core` asks the same of a lock's holder; render does not depend on the API
 * client for these few lines.
 */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the profile folders of runs that are gone: a run killed outright (SIGKILL, the OOM
 * killer) cannot remove its own, and Chromium, which ends with it, leaves it behind.
 */
async function removeStaleProfiles(): Promise<void> {
  const folder = tmpdir();
  for (const name of await readdir(folder)) {
    const pid = PROFILE_OF_PROCESS.exec(name)?.[1];
    if (pid && Number(pid) !== process.pid && !processAlive(Number(pid))) {
      await rm(join(folder, name), { recursive: true, force: true });
    }
  }
}

/** How many documents one page prints before it is closed and a fresh one takes its place. */
const DOCUMENTS_PER_PAGE = 50;

/** Starts Chromium and returns a renderer; call `close()` when done. */
export async function createPdfRenderer(options: PdfRendererOptions = {}): Promise<PdfRenderer> {
  const timeout = options.timeoutMs ?? 60_000;
  removeStaleProfiles().catch(() => {}); // beside the start, never in its way
  const userDataDir = await mkdtemp(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
  const args = [...CHROMIUM_ARGS];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const executablePath = options.executablePath ?? defaultChromium();
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: headlessModeOf(executablePath),
      userDataDir,
      args,
      timeout,
      // Over a pipe, not a WebSocket: Chromium exits when the pipe closes, so a process killed
      // outright (SIGKILL, the OOM killer) leaves no browser behind.
      pipe: true,
      // A signal is the program's to handle: puppeteer's own handlers would close the browser
      // under a run that goes on (SIGTERM, SIGHUP) or end the process without its cleanup (SIGINT).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    // What puppeteer says ("Protocol error ... Target closed") names neither the program nor the fix.
    throw new Error(
      `Chromium at ${executablePath} did not start (${(error as Error).message}): give a working Chromium or Chrome binary (orgreport: ORGREPORT_CHROMIUM, or "chromium" in the config file), or leave the PDF out`,
      { cause: error },
    );
  }
  const blocked: string[] = [];
  /** A page that runs no script and loads nothing but `data:` URLs. */
  const preparedPage = async (): Promise<Page> => {
    // Each document in a browser context of its own: its own renderer process, so documents
    // printed side by side (a distribution's) lay out on separate cores instead of taking turns.
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    page.setDefaultTimeout(timeout);
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const url = request.url();
      if (url.startsWith('data:')) {
        void request.continue();
      } else {
        blocked.push(url);
        void request.abort('blockedbyclient');
      }
    });
    await page.emulateMediaType('print');
    return page;
  };
  // The first document's page is set up right away, while the report is still being computed (it
  // takes a few dozen messages with Chromium, slow when this process is busy); a failure here is
  // left to the render, which then sets up a page of its own.
  let ready: Promise<Page> | undefined = preparedPage();
  ready.catch(() => {});
  // Pages between documents, each in its own context: a document takes an idle one rather than
  // starting a renderer process of its own (a distribution prints hundreds, two at a time). A page
  // prints a bounded number of documents, then goes, so that no renderer grows without end.
  const idle: Array<{ page: Page; printed: number }> = [];

  return {
    blockedRequests: blocked,
    async render(html, doc, events = {}) {
      const spare = ready;
      ready = undefined;
      const reused = idle.pop();
      const page = reused?.page ?? (await spare?.catch(() => undefined)) ?? (await preparedPage());
      const printed = (reused?.printed ?? 0) + 1;
      let intact = false;
      try {
        // A reused page starts from a blank document, as a new one does.
        if (reused) await page.goto('about:blank', { timeout });
        await page.setContent(withMetadata(html, doc), { waitUntil: 'load', timeout });
        events.onLoaded?.();
        const pdf = await page.pdf({
          format: 'A4',
          printBackground: true,
          displayHeaderFooter: true,
          ...headerFooterTemplates(doc),
          margin: { top: '18mm', bottom: '18mm', left: '14mm', right: '14mm' },
          preferCSSPageSize: false,
          outline: false,
          tagged: true,
          timeout,
        });
        intact = true;
        return withPdfInfo(new Uint8Array(pdf), { title: doc.title, author: doc.author });
      } finally {
        // A page whose document failed is not trusted with another.
        if (intact && printed < DOCUMENTS_PER_PAGE) idle.push({ page, printed });
        else await page.browserContext().close();
      }
    },
    async close() {
      try {
        await browser.close();
      } finally {
        await rm(userDataDir, { recursive: true, force: true });
      }
    },
  };
}
