/**
 * @orgreport/render: turns a report model into documents. {@link renderDocuments} renders the chosen
 * formats in one call from a registry of formats by name (`json`, `html`, `pdf`, `xlsx`;
 * {@link registerFormat} adds one); the report's sections lay out the HTML and PDF and write the
 * workbook's sheets. The pieces behind it are also here: {@link renderHtml}, {@link createPdfRenderer}
 * (Puppeteer with the system Chromium), {@link writeWorkbook} (ExcelJS), the number formatter and the
 * credit-limits workbook. Everything else is internal.
 *
 * @module @orgreport/render
 */
export {
  type DocumentContext,
  type DocumentFormat,
  documentFormats,
  type RenderDocumentsOptions,
  registerFormat,
  renderDocuments,
} from './documents.ts';
export {
  changeDirection,
  formatCurrency,
  formatFigure,
  formatFigureChange,
  formatFigurePrevious,
  formatValue,
  NOT_AVAILABLE,
} from './format.ts';
export { type RenderHtmlOptions, renderHtml } from './html.ts';
export { periodLabel, reportTitle } from './internal/report-view.ts';
export { validateTemplateDirs } from './internal/template-compile.ts';
export { TemplateDirectoryError } from './internal/template-files.ts';
export {
  createPdfRenderer,
  type PdfDocumentOptions,
  type PdfRenderer,
  type PdfRendererOptions,
} from './pdf.ts';
export { whatChangedSentences } from './what-changed.ts';
export {
  type LimitsTemplateRow,
  type LimitsWorkbookRow,
  readLimitsWorkbook,
  writeLimitsTemplate,
} from './workbook/limits.ts';
export { type PlainCell, readWorkbookTable, type WorkbookTable } from './workbook/read-table.ts';
export { type WorkbookOptions, writeWorkbook } from './workbook/workbook.ts';
