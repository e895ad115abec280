import { expect } from 'vitest';

/**
 * A CSV file read strictly, as these tests expect the server to write it, with a reader of its own
 * (not the importer's): the BOM's bytes first, RFC 4180 quoting with `separator`, and every line
 * ending in CRLF (a bare CR or LF outside quotes fails).
 */
export function readCsv(bytes: Buffer, separator: ';' | ','): string[][] {
  expect([...bytes.subarray(0, 3)], 'UTF-8 byte order mark').toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  expect(text.endsWith('\r\n'), 'the last line ends in CRLF').toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') {
      expect(
        cell === '' && !wasQuoted,
        `a quote opens a field only at its start (line ${rows.length + 1})`,
      ).toBe(true);
      quoted = true;
      wasQuoted = true;
    } else if (c === separator) {
      row.push(cell);
      cell = '';
      wasQuoted = false;
    } else if (c === '\r' || c === '\n') {
      expect(c === '\r' && text[i + 1] === '\n', `CRLF ends line ${rows.length + 1}`).toBe(true);
      i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      wasQuoted = false;
    } else cell += c;
  }
  expect(quoted, 'no quote left open').toBe(false);
  return rows;
}
