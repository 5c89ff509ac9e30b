/**
 * `@orgreport/render/templates`: checks template directories without loading the renderer (no
 * ECharts, ExcelJS or Puppeteer), so a command can refuse a broken template before it starts work.
 */
export { validateTemplateDirs } from './internal/template-compile.ts';
export { TemplateDirectoryError } from './internal/template-files.ts';
