import { packageConfig } from '../../tsdown.base.ts';

export default packageConfig({
  entry: {
    index: 'src/index.ts',
    settings: 'src/settings.ts',
    context: 'src/context.ts',
    errors: 'src/errors.ts',
    reporter: 'src/reporter.ts',
    'distribute/plan-schema': 'src/distribute/plan-schema.ts',
    'watch/watch-settings': 'src/watch/watch-settings.ts',
    'hook/record': 'src/hook/record.ts',
    'report/index': 'src/report/index.ts',
    'distribute/index': 'src/distribute/index.ts',
    'watch/index': 'src/watch/index.ts',
    'store/index': 'src/store/index.ts',
    'limits/index': 'src/limits/index.ts',
    connect: 'src/connect.ts',
    'output/atomic': 'src/output/atomic.ts',
    'snapshot/index': 'src/snapshot/index.ts',
    demo: 'src/demo.ts',
    'directory/read': 'src/directory/read.ts',
    'deliver/index': 'src/deliver/index.ts',
    'input/numbers': 'src/input/numbers.ts',
  },
});
