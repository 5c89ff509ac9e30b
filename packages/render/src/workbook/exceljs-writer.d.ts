// ExcelJS's streaming writer and its enums, each loaded from its own module (see xlsx-package.ts):
// the package declares the types of its entry only.
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type ExcelJS from 'exceljs';

  const WorkbookWriter: typeof ExcelJS.stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}

declare module 'exceljs/lib/doc/enums.js' {
  import type ExcelJS from 'exceljs';

  const enums: { ValueType: typeof ExcelJS.ValueType };
  export default enums;
}
