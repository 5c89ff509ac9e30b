/**
 * Chromium writes the document title into the PDF but not the author. This adds an Info dictionary
 * with title and author as a PDF incremental update (a new object, xref section and trailer appended
 * after `%%EOF`), which every reader applies and which leaves the original bytes untouched.
 */

/** Metadata written into the PDF's Info dictionary. */
export interface PdfInfo {
  title: string;
  author: string;
  creator?: string;
}

/** A PDF text string: UTF-16BE with a byte-order mark, hex-encoded (no escaping pitfalls). */
export function pdfTextString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

/**
 * Returns the PDF with `info` as its document information. PDFs without a classic trailer
 * (cross-reference streams) are returned unchanged.
 */
export function withPdfInfo(pdf: Uint8Array, info: PdfInfo): Uint8Array {
  // Latin-1 keeps one character per byte, so string offsets are byte offsets.
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const tail = text.slice(Math.max(0, text.length - 4096));
  const trailerAt = tail.lastIndexOf('trailer');
  const startxrefMatch = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (trailerAt < 0 || !startxrefMatch) return pdf;
  const trailer = tail.slice(trailerAt);
  const size = /\/Size\s+(\d+)/.exec(trailer);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(trailer);
  if (!size || !root) return pdf;
  const objectNumber = Number(size[1]);
  const prev = Number(startxrefMatch[1]);
  const base = text.endsWith('\n') ? text : `${text}\n`;
  const objectOffset = base.length;
  const object =
    `${objectNumber} 0 obj\n<</Title ${pdfTextString(info.title)} /Author ${pdfTextString(info.author)}` +
    ` /Creator ${pdfTextString(info.creator ?? 'orgreport')} /Producer (Skia/PDF)>>\nendobj\n`;
  const xrefOffset = objectOffset + object.length;
  const update =
    object +
    `xref\n${objectNumber} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \n` +
    `trailer\n<</Size ${objectNumber + 1} /Root ${root[1]} /Info ${objectNumber} 0 R /Prev ${prev}>>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([Buffer.from(base, 'latin1'), Buffer.from(update, 'latin1')]));
}
