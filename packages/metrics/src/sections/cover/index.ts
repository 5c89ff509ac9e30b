/** The cover: organization, month, period, comparison period and when the data was fetched. */
import { fileURLToPath } from 'node:url';
import { defineSection } from '../../section.ts';

export const cover = defineSection({
  id: 'cover',
  title: 'Cover',
  partial: { file: fileURLToPath(new URL('./cover.hbs', import.meta.url)) },
});
