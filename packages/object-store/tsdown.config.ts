import { packageConfig } from '../../tsdown.base.ts';

export default packageConfig({ entry: ['src/index.ts', 'src/settings.ts'] });
