// Over 500 lines on purpose: the reader of both import file kinds (CSV with its dialects, and Excel's
// zipped XML read as a stream within the limits), with one shared cell model.
import { createInflateRaw } from 'node:zlib';
import { IMPORT_MAX_LINES } from '@portal/contracts';
import { ApiError } from '../../lib/errors';

/**
 * Reading an import file (CSV or .xlsx) into text cells with every limit held WHILE reading, so that a
 * hostile or just huge file costs a bounded amount of memory and time (docs/SECURITY.md, "Large
 * spreadsheet uploads"). The request body itself is bounded by FILE_MAX_BYTES before this runs.
 *
 * The .xlsx reader is our own, not ExcelJS: ExcelJS's `load` builds the whole workbook (2.1 GB for a
 * 9.9 MB file of 280,000 rows) before the row limit can be checked, and its streaming WorkbookReader
 * inflates entries through `unzipper` with no bound on their inflated size, trusts the order of the
 * entries in the archive and cannot be stopped cleanly mid-sheet. Here the archive is already in memory
 * (the body), so the central directory is read first (entry count), only the five parts a sheet needs
 * are inflated, each through node:zlib with its inflated bytes counted as they come (a zip bomb stops
 * at the limit, whatever size its headers claim), and the sheet's XML is scanned as it inflates and
 * dropped at the first line past the row limit.
 */
export const IMPORT_READ_LIMITS = {
  /** Non-blank lines after the header: reading stops at the next one (the preview's too_many_lines). */
  lines: IMPORT_MAX_LINES,
  /** Rows of a sheet or records of a CSV, blank ones included: Excel's own last row. */
  rows: 1_048_576,
  /** Columns a row may have a value in; the template has 14. */
  columns: 256,
  /** Characters of one cell: Excel's own limit. */
  cellChars: 32_767,
  zipEntries: 1_000,
  /** Inflated bytes of one part of the workbook, and of all the parts read together. */
  entryBytes: 32 * 1024 * 1024,
  totalBytes: 64 * 1024 * 1024,
  sharedStrings: 1_000_000,
  /** Longest single tag (with its attributes) the XML scanner keeps while waiting for its end. */
  markupChars: 64 * 1024,
};

export function tooLarge(limit: keyof typeof IMPORT_READ_LIMITS): ApiError {
  return new ApiError('import.too_large', { details: { limit, max: IMPORT_READ_LIMITS[limit] } });
}

const unreadable = () => new ApiError('import.unreadable');

/** Blank records share one empty array: a file of a million blank lines costs pointers, not arrays. */
const BLANK: string[] = [];

function isBlank(row: readonly string[]): boolean {
  return row.every((v) => v.trim() === '');
}

/**
 * Collects the records of a file in order. Record `i` is row `i + 1` as a spreadsheet shows it (blank
 * ones kept as `[]`), so the preview's line numbers are right. Once the lines after the header exceed
 * the limit by one, `put` answers false and the caller stops reading: the table then holds exactly what
 * the preview needs to say "too many lines" at the right line.
 */
class TableBuilder {
  readonly rows: string[][] = [];
  private lines = 0;

  put(index: number, cells: string[]): boolean {
    if (index >= IMPORT_READ_LIMITS.rows) throw tooLarge('rows');
    if (index < this.rows.length) throw unreadable();
    while (this.rows.length < index) this.rows.push(BLANK);
    const blank = isBlank(cells);
    this.rows.push(blank ? BLANK : cells);
    if (!blank && index > 0) this.lines++;
    return this.lines <= IMPORT_READ_LIMITS.lines;
  }

  table(): string[][] {
    let end = this.rows.length;
    while (end > 0 && isBlank(this.rows[end - 1] as string[])) end--;
    return this.rows.slice(0, end);
  }
}

/** Puts a cell's text at its column, refusing a value past the column limit or longer than a cell. */
function setCell(cells: string[], column: number, text: string): void {
  if (text === '') return;
  if (column >= IMPORT_READ_LIMITS.columns) throw tooLarge('columns');
  if (text.length > IMPORT_READ_LIMITS.cellChars) throw tooLarge('cellChars');
  while (cells.length < column) cells.push('');
  cells[column] = text;
}

/**
 * RFC 4180 CSV with `;` or `,` as separator (Swedish Excel writes `;`), quotes, and a UTF-8 BOM. Blank
 * records are kept as `[]`, so that record `i` is row `i + 1` as a spreadsheet program shows it and the
 * preview's line numbers point at the right row; trailing blank records are dropped. Reading stops at
 * the first line past the line limit.
 */
export function parseCsv(text: string): string[][] {
  const body = text.replace(/^\ufeff/, '');
  const firstLine = body.split(/\r?\n/, 1)[0] ?? '';
  const sep = (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const table = new TableBuilder();
  let row: string[] = [];
  let column = 0;
  let field = '';
  let quoted = false;
  const endField = () => {
    setCell(row, column++, field);
    field = '';
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === sep) endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      endField();
      const more = table.put(table.rows.length, row);
      row = [];
      column = 0;
      if (!more) return table.table();
    } else field += c;
    if (field.length > IMPORT_READ_LIMITS.cellChars) throw tooLarge('cellChars');
  }
  if (field !== '' || column > 0) {
    endField();
    table.put(table.rows.length, row);
  }
  return table.table();
}

/**
 * The text of a CSV file: UTF-8 as the template is written, or Windows-1252 when the bytes are not
 * valid UTF-8, which is what Excel on a Swedish or Finnish Windows saves as "CSV (semicolon
 * separated)". Without the fallback, "Åkesson" would arrive as "�kesson" and match no recipient.
 */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** A CSV import file's table (NUL bytes mean it is no text file). */
export function readCsvTable(bytes: Uint8Array): string[][] {
  const text = decodeCsv(bytes);
  if (text.includes('\u0000')) throw unreadable();
  return parseCsv(text);
}

// ---------------------------------------------------------------------------------------------------
// Zip

interface ZipPart {
  method: number;
  start: number;
  packedSize: number;
}

/** The parts of a zip archive by name, from its central directory; sizes and offsets checked. */
function zipDirectory(bytes: Buffer): Map<string, ZipPart> {
  const min = Math.max(0, bytes.length - 22 - 0xffff);
  let end = -1;
  for (let i = bytes.length - 22; i >= min; i--)
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  if (end < 0) throw unreadable();
  const count = bytes.readUInt16LE(end + 10);
  const dirSize = bytes.readUInt32LE(end + 12);
  const dirStart = bytes.readUInt32LE(end + 16);
  // ZIP64 (markers 0xffff / 0xffffffff) is for archives far beyond the upload limit.
  if (count === 0xffff || dirStart === 0xffffffff) throw unreadable();
  if (count > IMPORT_READ_LIMITS.zipEntries) throw tooLarge('zipEntries');
  if (dirStart + dirSize > end) throw unreadable();
  const parts = new Map<string, ZipPart>();
  let at = dirStart;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== 0x02014b50) throw unreadable();
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const packedSize = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    if (at + 46 + nameLength > end) throw unreadable();
    const name = bytes.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + skip;
    if (local + 30 > dirStart || bytes.readUInt32LE(local) !== 0x04034b50) throw unreadable();
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + packedSize > dirStart) throw unreadable();
    // Encrypted parts (bit 0) cannot be read; only stored (0) and deflated (8) ones are Excel's.
    if (flags & 1 || (method !== 0 && method !== 8)) continue;
    parts.set(name.replace(/^\//, ''), { method, start, packedSize });
  }
  return parts;
}

/**
 * Inflates zip parts with their inflated bytes counted as they come, each part and all together. The
 * zlib stream is pulled chunk by chunk, so a reader that stops early (the sheet at the line limit)
 * leaves the rest of the part deflated.
 */
class ZipReader {
  private readonly parts: Map<string, ZipPart>;
  private total = 0;

  constructor(private readonly bytes: Buffer) {
    this.parts = zipDirectory(bytes);
  }

  has(name: string): boolean {
    return this.parts.has(name);
  }

  /** Feeds the part's text to `take` chunk by chunk until it answers false; false if there is no part. */
  async read(name: string, take: (text: string) => boolean): Promise<boolean> {
    const part = this.parts.get(name);
    if (!part) return false;
    // The size the headers claim is not checked: it may lie, and a sheet of 280,000 rows is read only
    // up to its line 5,002. The bytes are counted as they inflate instead.
    const packed = this.bytes.subarray(part.start, part.start + part.packedSize);
    const decoder = new TextDecoder('utf-8');
    let size = 0;
    const count = (chunk: Uint8Array) => {
      size += chunk.length;
      this.total += chunk.length;
      if (size > IMPORT_READ_LIMITS.entryBytes) throw tooLarge('entryBytes');
      if (this.total > IMPORT_READ_LIMITS.totalBytes) throw tooLarge('totalBytes');
      return decoder.decode(chunk, { stream: true });
    };
    if (part.method === 0) {
      for (let at = 0; at < packed.length; at += 65536)
        if (!take(count(packed.subarray(at, at + 65536)))) return true;
      take(decoder.decode());
      return true;
    }
    const inflate = createInflateRaw({ chunkSize: 65536 });
    inflate.end(packed);
    try {
      for await (const chunk of inflate) if (!take(count(chunk as Buffer))) return true;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw unreadable();
    } finally {
      inflate.destroy();
    }
    take(decoder.decode());
    return true;
  }
}

// ---------------------------------------------------------------------------------------------------
// XML

interface XmlHandler {
  /** A start tag (`raw` is its attributes' text); an empty element calls `close` right after. */
  open(name: string, raw: string): void;
  close(name: string): void;
  text(text: string): void;
  /** Set to stop the scan: the rest of the part is not wanted. */
  done?: boolean;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (_m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e] as string;
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    if (code > 0x10ffff) throw unreadable();
    return String.fromCodePoint(code);
  });
}

const attrPatterns = new Map<string, RegExp>();

/** The value of an attribute in a start tag's text (`name` is a regular expression source). */
function attr(raw: string, name: string): string | undefined {
  let re = attrPatterns.get(name);
  if (!re) {
    re = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attrPatterns.set(name, re);
  }
  const m = re.exec(raw);
  return m ? decodeXml(m[1] ?? m[2] ?? '') : undefined;
}

/**
 * A streaming scanner of the XML Office writes: start, end and empty tags, text, comments, CDATA and
 * processing instructions. A DOCTYPE is refused (no entity expansion, ever). Text is handed on as it
 * comes, still escaped; a tag waits for its end, up to `markupChars`.
 */
class XmlScanner {
  private pending = '';

  constructor(private readonly h: XmlHandler) {}

  /** Scans a chunk; false once the handler is done. */
  feed(chunk: string): boolean {
    const b = this.pending + chunk;
    const h = this.h;
    let i = 0;
    while (i < b.length && !h.done) {
      const lt = b.indexOf('<', i);
      if (lt < 0) {
        // Keep an entity cut in two by the chunk's end for the next chunk.
        const amp = b.lastIndexOf('&');
        const end = amp >= i && b.indexOf(';', amp) < 0 ? amp : b.length;
        if (end > i) h.text(b.slice(i, end));
        i = end;
        break;
      }
      if (lt > i) h.text(b.slice(i, lt));
      i = lt;
      let close: number;
      if (b.startsWith('<!--', lt)) {
        close = b.indexOf('-->', lt + 4);
        if (close < 0) break;
        i = close + 3;
      } else if (b.startsWith('<![CDATA[', lt)) {
        close = b.indexOf(']]>', lt + 9);
        if (close < 0) break;
        h.text(
          b
            .slice(lt + 9, close)
            .replace(/&/g, '&amp;')
            .replace(/</g, '&lt;'),
        );
        i = close + 3;
      } else if (b.startsWith('<?', lt)) {
        close = b.indexOf('?>', lt + 2);
        if (close < 0) break;
        i = close + 2;
      } else if (b.startsWith('<!', lt)) {
        if (b.length - lt < 9) break;
        throw unreadable();
      } else {
        let quote = 0;
        let j = lt + 1;
        for (; j < b.length; j++) {
          const c = b.charCodeAt(j);
          if (quote) {
            if (c === quote) quote = 0;
          } else if (c === 34 || c === 39) quote = c;
          else if (c === 62) break;
        }
        if (j >= b.length) break;
        this.tag(b.slice(lt + 1, j));
        i = j + 1;
      }
    }
    this.pending = h.done ? '' : b.slice(i);
    if (this.pending.length > IMPORT_READ_LIMITS.markupChars) throw tooLarge('markupChars');
    return !h.done;
  }

  end(): void {
    if (!this.h.done && this.pending.trim() !== '') throw unreadable();
  }

  private tag(body: string): void {
    if (body[0] === '/') {
      this.h.close(localName(body.slice(1).trim()));
      return;
    }
    const empty = body.endsWith('/');
    const inner = empty ? body.slice(0, -1) : body;
    const space = inner.search(/\s/);
    const name = localName(space < 0 ? inner : inner.slice(0, space));
    this.h.open(name, space < 0 ? '' : inner.slice(space));
    if (empty) this.h.close(name);
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

async function scan(zip: ZipReader, name: string, h: XmlHandler): Promise<boolean> {
  const scanner = new XmlScanner(h);
  const found = await zip.read(name, (text) => scanner.feed(text));
  if (found) scanner.end();
  return found;
}

// ---------------------------------------------------------------------------------------------------
// Workbook

interface Relationship {
  id: string;
  type: string;
  target: string;
}

/** A part's relationships (`xl/_rels/workbook.xml.rels` for `xl/workbook.xml`), targets resolved. */
async function relationships(zip: ZipReader, part: string): Promise<Relationship[]> {
  const slash = part.lastIndexOf('/');
  const dir = part.slice(0, slash + 1);
  const found: Relationship[] = [];
  await scan(zip, `${dir}_rels/${part.slice(slash + 1)}.rels`, {
    open(name, raw) {
      if (name !== 'Relationship' || attr(raw, 'TargetMode') === 'External') return;
      const target = attr(raw, 'Target') ?? '';
      found.push({
        id: attr(raw, 'Id') ?? '',
        type: attr(raw, 'Type') ?? '',
        target: target.startsWith('/') ? target.slice(1) : resolvePath(dir + target),
      });
    },
    close() {},
    text() {},
  });
  return found;
}

function resolvePath(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/'))
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  return out.join('/');
}

/** Number formats Excel knows by id whose codes are dates or times (ExcelJS reads these as dates). */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** As ExcelJS decides: a format with y, m, d, h, s, M or b outside quotes and brackets is a date. */
function isDateFormat(code: string): boolean {
  return /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** For each cell style index (`s` of a cell), whether its number format shows a date. */
async function dateStyles(zip: ZipReader, part: string | undefined): Promise<boolean[]> {
  if (!part) return [];
  const custom = new Map<number, boolean>();
  const styles: boolean[] = [];
  let inCellXfs = false;
  await scan(zip, part, {
    open(name, raw) {
      if (name === 'numFmt')
        custom.set(Number(attr(raw, 'numFmtId')), isDateFormat(attr(raw, 'formatCode') ?? ''));
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        if (styles.length >= 65_536) throw tooLarge('entryBytes');
        const id = Number(attr(raw, 'numFmtId') ?? 0);
        styles.push(custom.get(id) ?? BUILT_IN_DATE_FORMATS.has(id));
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
    text() {},
  });
  return styles;
}

/**
 * Collects the text of `<t>` elements (rich text runs included, phonetic runs `rPh` left out) inside
 * each element `item` (`si` of the shared strings, `is` of an inline string).
 */
class RichText {
  private inT = false;
  private inPhonetic = 0;
  private raw = '';

  open(name: string): void {
    if (name === 'rPh') this.inPhonetic++;
    else if (name === 't' && this.inPhonetic === 0) this.inT = true;
  }

  close(name: string): void {
    if (name === 'rPh') this.inPhonetic--;
    else if (name === 't') this.inT = false;
  }

  text(text: string): void {
    if (!this.inT) return;
    this.raw += text;
    // Escaped text is at most ten times its characters (&#x10FFFF;); beyond that no cell can hold it.
    if (this.raw.length > IMPORT_READ_LIMITS.cellChars * 10) throw tooLarge('cellChars');
  }

  take(): string {
    const text = decodeXml(this.raw);
    this.raw = '';
    this.inT = false;
    this.inPhonetic = 0;
    if (text.length > IMPORT_READ_LIMITS.cellChars) throw tooLarge('cellChars');
    return text;
  }
}

async function sharedStrings(zip: ZipReader, part: string | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!part) return strings;
  const rich = new RichText();
  let inItem = false;
  await scan(zip, part, {
    open(name) {
      if (name === 'si') inItem = true;
      else if (inItem) rich.open(name);
    },
    close(name) {
      if (name === 'si') {
        inItem = false;
        if (strings.length >= IMPORT_READ_LIMITS.sharedStrings) throw tooLarge('sharedStrings');
        strings.push(rich.take());
      } else if (inItem) rich.close(name);
    },
    text(text) {
      if (inItem) rich.text(text);
    },
  });
  return strings;
}

function columnIndex(ref: string): number {
  const m = /^\$?([A-Za-z]{1,3})/.exec(ref);
  if (!m) throw unreadable();
  let n = 0;
  for (const ch of (m[1] as string).toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n - 1;
}

function excelDate(serial: number, date1904: boolean): string {
  const ms = Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000);
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(serial) : date.toISOString().slice(0, 10);
}

/**
 * The first worksheet of an .xlsx file as text cells (dates as YYYY-MM-DD, numbers as typed), one
 * record per sheet row; empty rows are `[]`. The cells read as ExcelJS read them: shared, inline and
 * formula strings as text, rich text joined, numbers as JavaScript writes them, numbers in a date
 * format as the date, booleans as `true`/`false`, errors as their code (`#N/A`).
 */
export async function readXlsxTable(bytes: Buffer): Promise<string[][]> {
  const zip = new ZipReader(bytes);
  const root = await relationships(zip, '');
  const workbook =
    root.find((r) => r.type.endsWith('/officeDocument'))?.target ??
    (zip.has('xl/workbook.xml') ? 'xl/workbook.xml' : undefined);
  if (!workbook) throw unreadable();
  let firstSheet: string | undefined;
  let date1904 = false;
  const found = await scan(zip, workbook, {
    open(name, raw) {
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attr(raw, 'date1904') ?? '');
      else if (name === 'sheet' && firstSheet === undefined) firstSheet = attr(raw, '[\\w.-]+:id') ?? '';
    },
    close() {},
    text() {},
  });
  if (!found || firstSheet === undefined) throw unreadable();
  const rels = await relationships(zip, workbook);
  const sheet = rels.find((r) => r.id === firstSheet)?.target;
  if (!sheet || !zip.has(sheet)) throw unreadable();
  const isDate = await dateStyles(zip, rels.find((r) => r.type.endsWith('/styles'))?.target);
  const strings = await sharedStrings(zip, rels.find((r) => r.type.endsWith('/sharedStrings'))?.target);

  const table = new TableBuilder();
  const rich = new RichText();
  let rowIndex = -1;
  let cells: string[] = [];
  let column = -1;
  let cell: { type: string; date: boolean; value: string; inValue: boolean; inline: boolean } | null = null;
  const h: XmlHandler = {
    open(name, raw) {
      if (cell) {
        if (name === 'v') cell.inValue = true;
        else if (name === 'is') cell.inline = true;
        else if (cell.inline) rich.open(name);
      } else if (name === 'row') {
        const r = attr(raw, 'r');
        const index = r === undefined ? rowIndex + 1 : Number(r) - 1;
        if (!Number.isInteger(index) || index <= rowIndex) throw unreadable();
        if (index >= IMPORT_READ_LIMITS.rows) throw tooLarge('rows');
        rowIndex = index;
        cells = [];
        column = -1;
      } else if (name === 'c') {
        const r = attr(raw, 'r');
        column = r === undefined ? column + 1 : columnIndex(r);
        const style = Number(attr(raw, 's') ?? 0);
        cell = {
          type: attr(raw, 't') ?? 'n',
          date: isDate[style] ?? false,
          value: '',
          inValue: false,
          inline: false,
        };
      }
    },
    close(name) {
      if (cell && name === 'c') {
        setCell(cells, column, cellText(cell, rich, strings, date1904));
        cell = null;
      } else if (cell) {
        if (name === 'v') cell.inValue = false;
        else if (name === 'is') cell.inline = false;
        else if (cell.inline) rich.close(name);
      } else if (name === 'row') {
        if (!table.put(rowIndex, cells)) h.done = true;
      }
    },
    text(text) {
      if (!cell) return;
      if (cell.inline) rich.text(text);
      else if (cell.inValue) {
        cell.value += text;
        if (cell.value.length > IMPORT_READ_LIMITS.cellChars * 10) throw tooLarge('cellChars');
      }
    },
  };
  await scan(zip, sheet, h);
  return table.table();
}

function cellText(
  cell: { type: string; date: boolean; value: string; inline: boolean },
  rich: RichText,
  strings: readonly string[],
  date1904: boolean,
): string {
  const inline = rich.take();
  const value = decodeXml(cell.value);
  switch (cell.type) {
    case 's':
      return strings[Number(value)] ?? '';
    case 'inlineStr':
      return inline;
    case 'str':
    case 'e':
      return value;
    case 'b':
      return value === '' ? '' : String(value === '1' || value === 'true');
    case 'd': {
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : date.toISOString().slice(0, 10);
    }
    default: {
      if (value.trim() === '') return '';
      const number = Number.parseFloat(value);
      if (Number.isNaN(number)) return value;
      return cell.date ? excelDate(number, date1904) : String(number);
    }
  }
}
