/**
 * `dir:PATH`: the documents copied into a folder (created when missing), each written aside and
 * renamed into place, so a reader of the folder sees a whole file or none. Files are created owner
 * only (0600) unless `ORGREPORT_FILE_MODE` (octal, like 640) relaxes it. It stores the documents, so
 * in a group it goes first and the others receive the folder as a link.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { copyFileAtomic, flushFolder } from '@orgreport/api-core/files';
import {
  DestinationError,
  defineDestination,
  PermanentDeliveryError,
  RetryableDeliveryError,
} from '../destination.ts';

const MODE_SETTING = 'ORGREPORT_FILE_MODE';
const MODE = /^0?[0-7]{3}$/;

/** Failures of the file system that retrying will not mend. */
const LASTING_CODES = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOTDIR',
  'EISDIR',
  'EEXIST',
  'ENAMETOOLONG',
  'ENOENT',
]);

function fileMode(settings: Readonly<Record<string, string | undefined>>): number {
  const value = settings[MODE_SETTING]?.trim();
  return value ? Number.parseInt(value, 8) : 0o600;
}

/** The `dir` destination: `dir:PATH`. */
export const dirDestination = defineDestination<string>({
  scheme: 'dir',
  title: 'Folder',
  syntax: 'dir:PATH (a folder, created when missing)',
  stores: true,
  settings: [
    {
      env: MODE_SETTING,
      help: 'the mode of the files written, octal (default 600: owner only; 640 lets the group read)',
    },
  ],
  check(settings) {
    const value = settings[MODE_SETTING]?.trim();
    if (value && !MODE.test(value)) {
      throw new DestinationError(`${MODE_SETTING} must be an octal mode like 600 or 640`);
    }
  },
  parse(target) {
    const path = target.replace(/^dir:/i, '');
    if (path.trim() === '' || path.includes('\0')) throw new DestinationError('the folder is missing');
    return path;
  },
  label: (path) => `dir:${path}`,
  async send(message, path, context) {
    const folder = resolve(path);
    const mode = fileMode(context.settings);
    try {
      await mkdir(folder, { recursive: true });
      for (const document of message.documents) {
        if (
          document.filename.includes('/') ||
          document.filename.includes('\\') ||
          document.filename.startsWith('.')
        ) {
          throw new PermanentDeliveryError(`dir:${path}`, `not a plain file name: ${document.filename}`);
        }
        context.log(`dir: ${document.filename} into ${folder}`);
        await copyFileAtomic(document.path, join(folder, document.filename), { mode });
      }
      await flushFolder(folder);
    } catch (error) {
      if (error instanceof PermanentDeliveryError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const text = `writing into ${folder} failed: ${(error as Error).message}`;
      if (code !== undefined && LASTING_CODES.has(code)) {
        throw new PermanentDeliveryError(`dir:${path}`, text, { cause: error });
      }
      throw new RetryableDeliveryError(`dir:${path}`, text, undefined, { cause: error });
    }
    return { id: message.documents.map((d) => d.filename).join(', '), location: folder };
  },
});
