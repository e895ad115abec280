import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Minimal .xlsx files written byte by byte, for the import's limits: a sheet of hundreds of thousands
 * of rows in a second, or an entry that inflates far past what it claims. ExcelJS would take minutes
 * and gigabytes to write what these tests need, and cannot write a hostile file at all.
 */
export interface ZipEntry {
  name: string;
  data: Buffer;
  /** The uncompressed size written in the headers; the real one unless a test lies on purpose. */
  declaredSize?: number;
}

/** A zip archive of deflated entries (no ZIP64, no data descriptors). */
export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const packed = deflateRawSync(entry.data, { level: 6 });
    const crc = crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A1-style column letters of a 0-based column. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * The sheet XML of rows of text cells (shared strings when `strings` is given, else inline). `compact`
 * leaves out the cells' references (allowed: a cell without one follows the one before), as some
 * writers do, so that 280,000 rows fit in an upload.
 */
export function sheetXml(
  rows: Iterable<readonly string[]>,
  strings?: Map<string, number>,
  compact = false,
): Buffer {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
  ];
  let r = 0;
  for (const row of rows) {
    r++;
    parts.push(`<row r="${r}">`);
    row.forEach((text, c) => {
      if (text === '') {
        if (compact) parts.push('<c/>');
        return;
      }
      const ref = compact ? '' : ` r="${columnName(c)}${r}"`;
      if (strings) {
        let index = strings.get(text);
        if (index === undefined) {
          index = strings.size;
          strings.set(text, index);
        }
        parts.push(`<c${ref} t="s"><v>${index}</v></c>`);
      } else parts.push(`<c${ref} t="inlineStr"><is><t>${esc(text)}</t></is></c>`);
    });
    parts.push('</row>');
  }
  parts.push('</sheetData></worksheet>');
  return Buffer.from(parts.join(''), 'utf8');
}

function sharedStringsXml(strings: Map<string, number>): Buffer {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.size}" uniqueCount="${strings.size}">`,
  ];
  for (const text of strings.keys()) parts.push(`<si><t>${esc(text)}</t></si>`);
  parts.push('</sst>');
  return Buffer.from(parts.join(''), 'utf8');
}

/** An .xlsx workbook of one sheet; `sheet` replaces the sheet XML (a hostile one). */
export function xlsxFile(opts: {
  rows?: Iterable<readonly string[]>;
  sharedStrings?: boolean;
  compact?: boolean;
  sheet?: ZipEntry['data'];
  sheetDeclaredSize?: number;
  extraEntries?: number;
}): Buffer {
  const strings = opts.sharedStrings ? new Map<string, number>() : undefined;
  const sheet = opts.sheet ?? sheetXml(opts.rows ?? [], strings, opts.compact);
  const ns = 'http://schemas.openxmlformats.org';
  const entries: ZipEntry[] = [
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${strings ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets><sheet name="Fakturor" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>${strings ? `<Relationship Id="rId2" Type="${ns}/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize: opts.sheetDeclaredSize },
  ];
  if (strings) entries.push({ name: 'xl/sharedStrings.xml', data: sharedStringsXml(strings) });
  for (let i = 0; i < (opts.extraEntries ?? 0); i++)
    entries.push({ name: `xl/media/extra${i}.xml`, data: Buffer.from('<x/>') });
  return zip(entries);
}
