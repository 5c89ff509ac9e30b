/**
 * The plain-language definitions of every figure and rule of the built-in sections, printed on the
 * report's definitions page and the workbook's definitions sheet (so a reader can recompute each
 * number by hand). Each section declares its own (`src/sections/<id>/`); this is their glossary.
 */
import type { Definition } from './model.ts';
import { glossary } from './sections/definitions/index.ts';
import { BUILTIN_SECTIONS } from './sections/index.ts';

export { READINESS_LEVEL_RULE } from './sections/readiness/index.ts';

/** Every definition of the built-in sections, in report order. */
export const DEFINITIONS: readonly Definition[] = glossary(BUILTIN_SECTIONS);
