import { packageConfig } from '../../tsdown.base.ts';

// `templates` checks template directories without loading the renderer's heavy dependencies.
export default packageConfig({
  entry: {
    index: 'src/index.ts',
    templates: 'src/templates-entry.ts',
  },
});
