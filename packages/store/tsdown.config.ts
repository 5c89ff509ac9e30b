import { packageConfig } from '../../tsdown.base.ts';

// `errors` alone loads no DuckDB: the CLI recognises the store's errors with it at start-up.
export default packageConfig({
  entry: {
    index: 'src/index.ts',
    errors: 'src/errors.ts',
    'object-storage': 'src/object-storage.ts',
  },
});
