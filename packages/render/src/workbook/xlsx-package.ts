/**
 * An ExcelJS streaming writer plus what it leaves out of the package (the zip of XML parts), added
 * to the parts as it writes them: Excel tables (each table's part, the sheet's `tablePart` and
 * relationship, the content type), the quotePrefix style of text-format cells (Excel's "this is
 * text, not a formula"), carriage returns in text that survive reading (a literal one reads back as
 * a line feed, XML's end-of-line rule) and the company of the document properties. ExcelJS's in-memory workbook
 * has tables, but holds every cell as an object: five times the time and seven times the memory of
 * the streaming writer for 100,000 rows. The streaming writer's own row and cell objects still cost
 * six times the XML they make: a sheet's rows can be written as XML into its part instead
 * ({@link XlsxPackage.rowSink}), and the shared strings' part is written here. The parts' streams
 * are plain pass-through streams (ExcelJS's own copy every byte into buffers of their own), and the
 * shared strings are found in a Map (ExcelJS's object of 200,000 strings is several times slower).
 */
/// <reference path="./exceljs-writer.d.ts" />
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import type ExcelJS from 'exceljs';
// The writer alone: the package's entry loads its readers too (unzipper, sax, ...), about three
// times the load time, on a thread that only writes.
import enums from 'exceljs/lib/doc/enums.js';
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import { columnLetter } from './cell-refs.ts';

/** An Excel table at A1 of its sheet: a header row, then its data rows. */
export interface ExcelTable {
  /** Unique in the workbook (see table-names.ts). */
  name: string;
  /** The header row's texts, which are the table's column names, from column A. */
  columns: readonly string[];
  /** Number of data rows under the header. */
  rows: number;
}

/** Table style of every table: Excel's default, with banded rows. */
const TABLE_STYLE = 'TableStyleMedium2';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const TABLE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/table';
const TABLE_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** Excel's built-in id of the text format `@`. */
const TEXT_FORMAT_ID = 49;

/** The part of ExcelJS's writer this module works with: the archiver every part is appended to. */
interface PartSink {
  append(source: unknown, data: { name: string }): unknown;
}

/** A cell style as ExcelJS takes it. */
export type CellStyle = Partial<ExcelJS.Style>;

/** The shared strings' registry as ExcelJS's writer uses it (`utils/shared-strings.js`). */
interface SharedStringRegistry {
  add(text: string): number;
  readonly values: readonly unknown[];
  readonly count: number;
  readonly totalRefs: number;
  getString(index: number): unknown;
}

/** ExcelJS's registries of the workbook's styles and shared strings, which its own parts are written from. */
interface WriterRegistries {
  styles: { addStyleModel(style: CellStyle, type: ExcelJS.ValueType): number };
  sharedStrings: SharedStringRegistry;
  /** Appends the shared strings' part, from `sharedStrings`, when there is any. */
  addSharedStrings(): Promise<void>;
  /** Opens the stream of a part ExcelJS writes as it goes (a sheet, its relationships), appended to the zip. */
  _openStream(path: string): NodeJS.WritableStream;
}

/** ExcelJS's shared strings, the same indices in the same order, kept in a Map. */
class SharedStrings implements SharedStringRegistry {
  private readonly index = new Map<string, number>();
  private readonly list: string[] = [];
  private refs = 0;

  add(text: string): number {
    this.refs++;
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.list.length;
      this.index.set(text, i);
      this.list.push(text);
    }
    return i;
  }

  get values(): readonly string[] {
    return this.list;
  }

  get count(): number {
    return this.list.length;
  }

  get totalRefs(): number {
    return this.refs;
  }

  getString(index: number): string | undefined {
    return this.list[index];
  }
}

/**
 * The stream of a part ExcelJS writes as it goes: what is written passes to the zip as it is.
 * ExcelJS writes text, and its reused `StringBuf`s, whose bytes are copied. Like ExcelJS's own, it
 * holds what the zip has not taken yet (the zip takes one part after the other) and ends when
 * written: ExcelJS waits for its sheets' streams to end before it writes the rest of the package.
 * ExcelJS pauses a sheet's stream once it is opened (so that its own emits no data before the zip
 * reads it): this one is already piped into the zip by then, and goes on flowing.
 */
function partStream(): PassThrough {
  const stream = new PassThrough({ readableHighWaterMark: Number.MAX_SAFE_INTEGER });
  stream.pause = () => stream;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(
      typeof chunk === 'string' || Buffer.isBuffer(chunk) ? chunk : (chunk as StringBuf).toBuffer(),
      ...rest,
    )) as PassThrough['write'];
  return stream;
}

/** ExcelJS's `StringBuf`: its `toBuffer()` is a copy of the bytes written so far. */
interface StringBuf {
  toBuffer(): Buffer;
}

/**
 * A sheet of ExcelJS's streaming writer: the stream of its part, written as rows are committed; its
 * rows not committed yet, from row `_rowZero` on.
 */
interface SheetStream {
  stream: { write(chunk: string | Uint8Array): unknown };
  /** Whether the sheet's data (`<sheetData>`) is open: once its first row is committed. */
  startedData: boolean;
  _rows: unknown[];
  _rowZero: number;
}

/**
 * Where the rows of a sheet written as XML (see sheet-rows.ts) go: the sheet's own part, between
 * the rows ExcelJS committed before and those it commits after, with the workbook's styles and
 * shared strings.
 */
export interface SheetRowSink {
  /** The id of `style` for cells holding values like `value`, as ExcelJS registers it (once per style object). */
  styleId(style: CellStyle, value: ExcelJS.CellValue): number;
  /** The index of `text` in the workbook's shared strings, added when new. */
  sharedString(text: string): number;
  /** Appends `<row>` elements to the sheet's data, as bytes (ASCII: their text is in the shared strings). */
  write(xml: Uint8Array): void;
  /** Declares the rows before `row` written: ExcelJS's next rows are from `row` on. */
  end(row: number): void;
}

/**
 * The characters text cannot hold as they are in XML: markup, carriage returns, and the control
 * characters XML 1.0 has no place for, which ExcelJS leaves out.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters matched.
const TEXT_ESCAPED = /[&<>"'\r\x7f\x00-\x08\x0b\x0c\x0e-\x1f]/;
const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A literal one reads back as a line feed (XML's end-of-line rule).
  '\r': '&#13;',
};

/**
 * Text as a shared string holds it: escaped as ExcelJS escapes it (`xmlEncode`, control characters
 * left out), carriage returns as character references.
 */
function sharedStringText(text: string): string {
  if (!TEXT_ESCAPED.test(text)) return text;
  return text.replace(new RegExp(TEXT_ESCAPED.source, 'g'), (c) => TEXT_ESCAPES[c] ?? '');
}

/** The shared strings' part as ExcelJS writes it (`<si><t>`, spaces kept where they would be lost). */
function sharedStringsXml(values: readonly string[]): string {
  let xml = `${XML_DECLARATION}<sst xmlns="${MAIN_NS}" count="${values.length}" uniqueCount="${values.length}">`;
  for (const text of values) {
    const space = /^\s|\n|\s$/.test(text) ? ' xml:space="preserve"' : '';
    xml += `<si><t${space}>${sharedStringText(text)}</t></si>`;
  }
  return `${xml}</sst>`;
}

function xmlEscape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/** The range of a table; an empty one spans one empty row, as a new table in Excel does. */
export function tableRef(table: ExcelTable): string {
  return `A1:${columnLetter(table.columns.length)}${Math.max(1, table.rows) + 1}`;
}

function tablePartXml(id: number, table: ExcelTable): string {
  const ref = tableRef(table);
  const columns = table.columns.map((c, i) => `<tableColumn id="${i + 1}" name="${xmlEscape(c)}"/>`).join('');
  return (
    `${XML_DECLARATION}<table xmlns="${MAIN_NS}" id="${id}" name="${table.name}" displayName="${table.name}"` +
    ` ref="${ref}" totalsRowShown="0"><autoFilter ref="${ref}"/>` +
    `<tableColumns count="${table.columns.length}">${columns}</tableColumns>` +
    `<tableStyleInfo name="${TABLE_STYLE}" showFirstColumn="0" showLastColumn="0" showRowStripes="1"` +
    ' showColumnStripes="0"/></table>'
  );
}

/** A stream that passes its bytes through and inserts `extra()` before the last `marker` at the end. */
function insertBeforeLast(marker: string, extra: () => string): Transform {
  const needle = Buffer.from(marker);
  // The marker closes the part, so it is within the last bytes; held back until the end.
  const keep = 256;
  let held = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      if (bytes.length < keep) {
        const all = Buffer.concat([held, bytes]);
        if (all.length > keep) this.push(all.subarray(0, all.length - keep));
        held = all.length > keep ? all.subarray(all.length - keep) : all;
      } else {
        // Passed on as it is but for its last bytes, copied: the writer may reuse its chunks.
        if (held.length) this.push(held);
        this.push(bytes.subarray(0, bytes.length - keep));
        held = Buffer.from(bytes.subarray(bytes.length - keep));
      }
      done();
    },
    flush(done: TransformCallback) {
      const at = held.lastIndexOf(needle);
      if (at < 0) return done(new Error(`xlsx part without ${marker}`));
      this.push(Buffer.concat([held.subarray(0, at), Buffer.from(extra()), held.subarray(at)]));
      done();
    },
  });
}

function textOf(source: unknown): string | null {
  if (typeof source === 'string') return source;
  return Buffer.isBuffer(source) ? source.toString('utf8') : null;
}

/** Adds quotePrefix="1" to the cell formats in the text format. */
export function quotePrefixTextFormats(stylesXml: string): string {
  return stylesXml.replace(/<cellXfs\b[\s\S]*?<\/cellXfs>/, (formats) =>
    formats.replace(
      new RegExp(`<xf numFmtId="${TEXT_FORMAT_ID}"(?=[\\s/>])`, 'g'),
      `<xf numFmtId="${TEXT_FORMAT_ID}" quotePrefix="1"`,
    ),
  );
}

/**
 * A workbook written to `filename` through ExcelJS's streaming writer, with Excel tables. Add each
 * sheet's table before committing the sheet; commit through {@link XlsxPackage.commit}.
 */
export class XlsxPackage {
  readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  /** Company of the document properties (ExcelJS's streaming writer leaves it empty). */
  company: string | null = null;
  private readonly append: PartSink['append'];
  /** Table part numbers by sheet id, and the sheets they are on. */
  private readonly tables = new Map<number, number[]>();
  private readonly sheets: ExcelJS.Worksheet[] = [];
  private readonly parts: number[] = [];
  /** Sheets whose relationships part ExcelJS writes itself (hyperlinks, comments): ours go into it. */
  private readonly ownRels = new Set<number>();

  constructor(filename: string) {
    this.workbook = new WorkbookWriter({
      filename,
      useStyles: true,
      useSharedStrings: true,
    });
    const zip = (this.workbook as unknown as { zip: PartSink }).zip;
    // Parts appended through `this.append` are ours; every other one is ExcelJS's, completed here.
    this.append = zip.append.bind(zip);
    zip.append = (source, data) => this.append(this.completed(data.name.replace(/^\//, ''), source), data);
    // The shared strings' part is written here: ExcelJS's writer takes as long as the data sheets'
    // cells (the 10k-user workbook has about 20,000 strings), and its carriage returns need escaping.
    const registries = this.workbook as unknown as WriterRegistries;
    registries.sharedStrings = new SharedStrings();
    registries._openStream = (path) => {
      const stream = partStream();
      zip.append(stream, { name: path });
      // ExcelJS waits for 'zipped' when it commits its sheets: the stream has ended then.
      stream.on('finish', () => stream.emit('zipped'));
      return stream;
    };
    const addSharedStrings = registries.addSharedStrings.bind(registries);
    registries.addSharedStrings = async () => {
      const { values } = registries.sharedStrings;
      if (values.length === 0) return;
      // Only text is written here (not rich text, which none of our sheets holds).
      if (!values.every((v) => typeof v === 'string')) return addSharedStrings();
      this.append(sharedStringsXml(values as string[]), { name: 'xl/sharedStrings.xml' });
    };
  }

  /** Declares the Excel table at A1 of `sheet`, whose header and rows the caller writes. */
  addTable(sheet: ExcelJS.Worksheet, table: ExcelTable): void {
    const part = this.parts.length + 1;
    this.parts.push(part);
    const onSheet = this.tables.get(sheet.id);
    if (onSheet) onSheet.push(part);
    else {
      this.tables.set(sheet.id, [part]);
      this.sheets.push(sheet);
    }
    this.append(tablePartXml(part, table), { name: `xl/tables/table${part}.xml` });
  }

  /**
   * Where rows of `sheet` written as XML go. Commit the rows written through ExcelJS before (at
   * least one, which opens the sheet's data), write, then go on with rows after the written ones.
   */
  rowSink(sheet: ExcelJS.Worksheet): SheetRowSink {
    const { styles, sharedStrings } = this.workbook as unknown as WriterRegistries;
    const writer = sheet as unknown as SheetStream;
    const committed = () => writer.startedData && writer._rows.length === 0;
    if (!committed()) throw new Error(`sheet ${sheet.name}: rows written as XML follow committed rows`);
    const { stream } = writer;
    return {
      styleId: (style, value) => styles.addStyleModel(style, valueType(value)),
      sharedString: (text) => sharedStrings.add(text),
      write: (xml) => {
        if (xml.length > 0) stream.write(xml);
      },
      end: (row) => {
        if (!committed()) throw new Error(`sheet ${sheet.name}: a row was added amid rows written as XML`);
        // Otherwise ExcelJS would number its next row right after the last it committed.
        writer._rowZero = row;
      },
    };
  }

  /** Commits the sheets with tables, their relationships where ExcelJS writes none, and the workbook. */
  async commit(): Promise<void> {
    for (const sheet of this.sheets) await sheet.commit();
    for (const [sheetId, parts] of this.tables) {
      if (this.ownRels.has(sheetId)) continue;
      const rels = `${XML_DECLARATION}<Relationships xmlns="${RELS_NS}">${relationships(parts)}</Relationships>`;
      this.append(rels, { name: `xl/worksheets/_rels/sheet${sheetId}.xml.rels` });
    }
    await this.workbook.commit();
  }

  /** A part as ExcelJS writes it, with what ExcelJS leaves out. */
  private completed(name: string, source: unknown): unknown {
    const sheet = /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name);
    if (sheet) {
      const parts = () => this.tables.get(Number(sheet[1])) ?? [];
      return pipe(
        source,
        insertBeforeLast('</worksheet>', () =>
          parts().length
            ? `<tableParts count="${parts().length}">${parts()
                .map((p) => `<tablePart r:id="rIdTable${p}"/>`)
                .join('')}</tableParts>`
            : '',
        ),
      );
    }
    const rels = /^xl\/worksheets\/_rels\/sheet(\d+)\.xml\.rels$/.exec(name);
    if (rels) {
      // ExcelJS writes a sheet's relationships itself for hyperlinks and comments: the tables' join them.
      const sheetId = Number(rels[1]);
      this.ownRels.add(sheetId);
      return pipe(
        source,
        insertBeforeLast('</Relationships>', () => relationships(this.tables.get(sheetId) ?? [])),
      );
    }
    const text = textOf(source);
    if (text === null) return source;
    if (name === 'xl/styles.xml') return quotePrefixTextFormats(text);
    // Every text is a shared string (useSharedStrings), its carriage returns as character references.
    if (name === 'xl/sharedStrings.xml') return text.replace(/\r/g, '&#13;');
    if (name === '[Content_Types].xml') {
      const overrides = this.parts
        .map((p) => `<Override PartName="/xl/tables/table${p}.xml" ContentType="${TABLE_TYPE}"/>`)
        .join('');
      return text.replace('</Types>', `${overrides}</Types>`);
    }
    if (name === 'docProps/app.xml' && this.company) {
      return text.replace(
        /<Company\s*\/>|<Company>[^<]*<\/Company>/,
        `<Company>${xmlEscape(this.company)}</Company>`,
      );
    }
    return text;
  }
}

/** ExcelJS's type of a cell value, which picks the format of a style without one. */
function valueType(value: ExcelJS.CellValue): ExcelJS.ValueType {
  const { ValueType } = enums;
  if (value === null || value === undefined) return ValueType.Null;
  if (typeof value === 'string') return ValueType.String;
  if (typeof value === 'number') return ValueType.Number;
  if (typeof value === 'boolean') return ValueType.Boolean;
  if (value instanceof Date) return ValueType.Date;
  throw new TypeError('only text, numbers, booleans, dates and empty cells are written as XML');
}

function relationships(parts: readonly number[]): string {
  return parts
    .map((p) => `<Relationship Id="rIdTable${p}" Type="${TABLE_REL}" Target="../tables/table${p}.xml"/>`)
    .join('');
}

function pipe(source: unknown, through: Transform): unknown {
  (source as NodeJS.ReadableStream).pipe(through);
  return through;
}
