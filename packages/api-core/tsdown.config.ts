import { packageConfig } from '../../tsdown.base.ts';

// The subpath entries load a small part of the package: hook commands, dates, redaction, the file
// lock, the atomic file writes and the retry waits alone (the delivery stage and the store take those).
export default packageConfig({
  entry: {
    index: 'src/index.ts',
    'hook-events': 'src/hook-events-entry.ts',
    dates: 'src/dates.ts',
    redact: 'src/redact.ts',
    'file-lock': 'src/file-lock.ts',
    files: 'src/files.ts',
    retry: 'src/retry.ts',
  },
});
