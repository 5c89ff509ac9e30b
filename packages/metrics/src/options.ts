/**
 * Options of {@link buildReportModel}: everything configurable about the report's numbers.
 */
import defaultLevelMapping from './default-level-mapping.json' with { type: 'json' };
import type { LevelMapping } from './inputs.ts';

export type { LevelMapping } from './inputs.ts';
export type { ReportOptions } from './section.ts';

/** The default criterion-to-level mapping that ships with the package (`default-level-mapping.json`). */
export const DEFAULT_LEVEL_MAPPING: LevelMapping = defaultLevelMapping;

/** Default length of top lists. */
export const DEFAULT_TOP_N = 10;

/** Currency named when a price is given without one. */
export const DEFAULT_CURRENCY = 'USD';
