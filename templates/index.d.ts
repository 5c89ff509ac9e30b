/** Absolute path of the built-in template directory (layouts, partials, styles, fonts). */
export declare const templatesDir: string;
