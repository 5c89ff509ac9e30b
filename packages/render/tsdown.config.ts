import { packageConfig } from '../../tsdown.base.ts';

// `templates` checks template directories and `warmup` starts loading the renderer, neither loading
// the renderer's heavy dependencies at import.
export default packageConfig({
  entry: {
    index: 'src/index.ts',
    templates: 'src/templates-entry.ts',
    warmup: 'src/warmup.ts',
  },
});
