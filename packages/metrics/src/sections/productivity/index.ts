/** Productivity: files created and edited, commits and pull requests, by language and file extension. */
import { fileURLToPath } from 'node:url';
import { runOf } from '../../internal/run.ts';
import { productivityBreakdown } from '../../internal/transforms/productivity.ts';
import { builtinSection } from '../builtin.ts';

export const productivity = builtinSection('productivity', {
  id: 'productivity',
  title: 'Productivity',
  compute: (context) => productivityBreakdown(runOf(context).rows.productivity),
  partial: { file: fileURLToPath(new URL('./productivity.hbs', import.meta.url)) },
});
