/**
 * The page laid out and the workbook written on a thread of their own. Their modules (ECharts and
 * Handlebars, ExcelJS's writer) take about half a second to load and warm up, the 10k-user page about
 * 0.25 s to lay out and its workbook about 0.3 s to write, all of it on the thread that does it.
 * Started while the month is read (see warmup.ts), the thread loads them while this thread reads
 * the month and computes the model, and then lays out the page and writes the workbook while this
 * thread writes the JSON, fills in the page's fonts and drives Chromium's print. The model crosses once by
 * structured clone (it is plain JSON): about 40 ms for 10k users.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReportModel } from '@orgreport/metrics';
import type { RenderAnswer, RenderPart, RenderRequest, RenderThreadData } from './render-worker.ts';

/** What a thread is asked to do with one model. */
export interface RenderWork {
  /** The page laid out, its fonts still to fill in, as `renderHtmlPage(model)` gives it (see `withFonts`). */
  page?: boolean;
  /** The file to write the model's workbook to, as `writeWorkbook(model, file)` writes it. */
  workbook?: string;
}

/** The results of a {@link RenderWork}, each settling on its own. */
export interface RenderResults {
  page?: Promise<string>;
  workbook?: Promise<void>;
}

/** A thread that lays out pages and writes workbooks of the built-in sections and templates. */
export interface RenderThread {
  /** Does `work` for `model`, sent to the thread once; the page comes back first, then the workbook. */
  render(model: ReportModel, work: RenderWork): RenderResults;
  /** Writes the workbook of `model` to `file`, as `writeWorkbook(model, file)` does. */
  write(model: ReportModel, file: string): Promise<void>;
  /** Stops the thread (work in progress fails); safe to call more than once. */
  close(): Promise<void>;
}

/**
 * tsx's ES module API, as its package exports it (`require.resolve` gives the CommonJS one, which
 * fails to register in a worker whose parent registered tsx already: the CLI from source).
 */
function tsxModuleEntry(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = JSON.parse(readFileSync(manifest, 'utf8')).exports['./esm/api'].import.default;
  return pathToFileURL(join(dirname(manifest), exported)).href;
}

/**
 * The worker of the thread. Built, the entry is `render-worker.js` beside this module's chunk. From
 * the TypeScript sources (tests, `ORGREPORT_FROM_SOURCE=1`), the thread registers tsx first and
 * resolves the workspace's packages to their sources, as its parent does.
 */
function startWorker(data: RenderThreadData): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./render-worker.js', import.meta.url), { workerData: data });
  }
  const tsx = tsxModuleEntry();
  const entry = new URL('./render-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, execArgv: ['--conditions=@orgreport/source'], workerData: data });
}

type Waiting = { resolve: (page: string | undefined) => void; reject: (error: Error) => void };

/**
 * Starts the thread now; it loads at once what `preload` names (the page's modules and their
 * rehearsal, ExcelJS's writer), and anything else on first use. Its owner closes it.
 */
export function startRenderThread(preload: RenderThreadData = { page: false, workbook: true }): RenderThread {
  const worker = startWorker(preload);
  const pending = new Map<string, Waiting>();
  let next = 0;
  let failure: Error | undefined;
  // An idle thread does not keep the process alive; one that works does.
  worker.unref();
  const settle = (key: string, outcome: { page?: string; error?: Error }) => {
    const waiting = pending.get(key);
    pending.delete(key);
    if (pending.size === 0) worker.unref();
    if (outcome.error) waiting?.reject(outcome.error);
    else waiting?.resolve(outcome.page);
  };
  const failAll = (error: Error) => {
    failure ??= error;
    for (const key of [...pending.keys()]) settle(key, { error: failure });
  };
  worker.on('message', (answer: RenderAnswer) => {
    const key = `${answer.id}:${answer.part}`;
    if (answer.ok) return settle(key, answer);
    const error = new Error(answer.error.message);
    error.name = answer.error.name;
    if (answer.error.stack) error.stack = answer.error.stack;
    settle(key, { error });
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the render thread stopped (exit code ${code})`)));
  const thread: RenderThread = {
    render(model, work) {
      const id = next++;
      const awaiting = (part: RenderPart) => {
        const result = failure
          ? Promise.reject(failure)
          : new Promise<string | undefined>((resolve, reject) =>
              pending.set(`${id}:${part}`, { resolve, reject }),
            );
        result.catch(() => {}); // failures surface where the result is awaited, not as unhandled rejections now
        return result;
      };
      const results: RenderResults = {
        ...(work.page && { page: awaiting('page') as Promise<string> }),
        ...(work.workbook !== undefined && { workbook: awaiting('workbook') as Promise<void> }),
      };
      if (!failure && (results.page || results.workbook)) {
        worker.ref();
        worker.postMessage({ id, model, ...work } satisfies RenderRequest);
      }
      return results;
    },
    write(model, file) {
      return thread.render(model, { workbook: file }).workbook!;
    },
    async close() {
      await worker.terminate();
    },
  };
  return thread;
}
