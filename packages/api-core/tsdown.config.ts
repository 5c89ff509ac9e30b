import { packageConfig } from '../../tsdown.base.ts';

// The subpath entries load a small part of the package: hook commands, dates and redaction alone.
export default packageConfig({
  entry: {
    index: 'src/index.ts',
    'hook-events': 'src/hook-events-entry.ts',
    dates: 'src/dates.ts',
    redact: 'src/redact.ts',
  },
});
