import { fileURLToPath } from 'node:url';

/** Absolute path of the built-in template directory (layouts, partials, styles, fonts). */
export const templatesDir = fileURLToPath(new URL('.', import.meta.url));
