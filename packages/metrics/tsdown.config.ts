import { readdirSync } from 'node:fs';
import { packageConfig } from '../../tsdown.base.ts';

// The built-in sections' partials (`src/sections/<id>/<id>.hbs`) are found next to the code that
// declares them (`new URL('./<id>.hbs', import.meta.url)`): in the bundle, that is `dist/`.
const partials = readdirSync('src/sections', { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.hbs'))
  .map((f) => ({ from: `src/sections/${f}`, to: `dist/${f.split(/[\\/]/).pop()}` }));

export default packageConfig({
  entry: ['src/index.ts', 'src/testing/index.ts', 'src/defaults.ts'],
  copy: partials,
});
