/** Hook-log events: the local hook log's events of the period by event and session-end reason. */
import { fileURLToPath } from 'node:url';
import { hookEventsSummary } from '../../internal/transforms/hook-events.ts';
import { builtinSection } from '../builtin.ts';

export const hookEvents = builtinSection('hookEvents', {
  id: 'hook-events',
  // The hook log is the machine's, not a set of people's.
  scope: 'organization',
  title: 'Hook-log events',
  // Null without a hook log: the section is then left out of the document.
  compute: ({ snapshot, period }) =>
    snapshot.hookEvents ? hookEventsSummary(snapshot.hookEvents, period) : null,
  partial: { file: fileURLToPath(new URL('./hook-events.hbs', import.meta.url)) },
});
