import { packageConfig } from '../../tsdown.base.ts';

export default packageConfig();
