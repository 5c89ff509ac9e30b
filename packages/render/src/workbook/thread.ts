/**
 * The workbook written on a thread of its own: its modules (ExcelJS's writer among them) take about
 * 0.3 s to load and the 10k-user workbook about 0.25 s to write, all of it on the thread that writes.
 * Started while the month is read (see warmup.ts), the thread has ExcelJS loaded by the time the
 * model is computed, and writes the workbook on the second core while this thread lays out the page
 * and Chromium prints it. The model crosses by structured clone (it is plain JSON): about 40 ms each
 * way for 10k users.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReportModel } from '@orgreport/metrics';
import type { WorkbookAnswer, WorkbookRequest } from './worker.ts';

/** A thread that writes workbooks of the built-in sections. */
export interface WorkbookThread {
  /** Writes the workbook of `model` to `file`, as `writeWorkbook(model, file)` does. */
  write(model: ReportModel, file: string): Promise<void>;
  /** Stops the thread (a write in progress fails); safe to call more than once. */
  close(): Promise<void>;
}

/**
 * The worker of the thread. Built, the entry is `workbook-worker.js` beside this module's chunk. From
 * the TypeScript sources (tests, `ORGREPORT_FROM_SOURCE=1`), the thread registers tsx first and
 * resolves the workspace's packages to their sources, as its parent does.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./workbook-worker.js', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, execArgv: ['--conditions=@orgreport/source'] });
}

/** Starts the thread now (ExcelJS loads in it at once); its owner closes it. */
export function startWorkbookThread(): WorkbookThread {
  const worker = startWorker();
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let next = 0;
  let failure: Error | undefined;
  // An idle thread does not keep the process alive; one that writes does.
  worker.unref();
  const settle = (id: number, outcome: Error | undefined) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    if (outcome) waiting?.reject(outcome);
    else waiting?.resolve();
  };
  const failAll = (error: Error) => {
    failure ??= error;
    for (const id of [...pending.keys()]) settle(id, failure);
  };
  worker.on('message', (answer: WorkbookAnswer) => {
    if (answer.ok) return settle(answer.id, undefined);
    const error = new Error(answer.error.message);
    error.name = answer.error.name;
    if (answer.error.stack) error.stack = answer.error.stack;
    settle(answer.id, error);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the workbook thread stopped (exit code ${code})`)));
  return {
    write(model, file) {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, model, file } satisfies WorkbookRequest);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
