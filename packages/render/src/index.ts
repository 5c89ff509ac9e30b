/**
 * @orgreport/render: the report model as HTML, PDF (Puppeteer with the system Chromium) and an
 * Excel workbook (ExcelJS).
 *
 * @module @orgreport/render
 */
export { type ChartSeries, type ChartSize, renderChartSvg } from './charts.ts';
export {
  blockedRequestsWarning,
  type DocumentContext,
  type DocumentFormat,
  documentFormats,
  type RenderDocumentsOptions,
  registerFormat,
  renderDocuments,
} from './documents.ts';
export {
  EXCEL_DATE_FORMAT,
  EXCEL_FORMATS,
  formatCurrency,
  formatFigure,
  formatFigureChange,
  formatFigurePrevious,
  formatValue,
  kindOfFigure,
  kindOfUnit,
  NOT_AVAILABLE,
  type ValueKind,
} from './format.ts';
export { type RenderHtmlOptions, renderHtml } from './html.ts';
export {
  createPdfRenderer,
  type PdfDocumentOptions,
  type PdfRenderer,
  type PdfRendererOptions,
} from './pdf.ts';
export { periodLabel, reportTitle } from './report-view.ts';
export { validateTemplateDirs } from './template-compile.ts';
export { TemplateDirectoryError } from './template-files.ts';
export { looksLikeFormula } from './workbook/cell-values.ts';
export { EXCEL_MAX_ROWS } from './workbook/data-sheet.ts';
export {
  type LimitsTemplateRow,
  type LimitsWorkbookRow,
  readLimitsWorkbook,
  writeLimitsTemplate,
} from './workbook/limits.ts';
export { type WorkbookOptions, writeWorkbook } from './workbook/workbook.ts';
