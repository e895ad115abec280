/** Longest stored file name, in code points (the extension included). */
export const FILE_NAME_MAX_LENGTH = 120;

/** The name of a file whose given name leaves nothing. */
const FALLBACK_STEM = 'dokument';

// Names Windows reserves for devices, with or without an extension (`CON`, `con.pdf`, `LPT1.txt`).
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

/** Characters Windows refuses in a name, besides the path separators. */
const WINDOWS_FORBIDDEN = new Set(['<', '>', ':', '"', '|', '?', '*']);

function isControl(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/**
 * The name an uploaded file is stored and served under, from the name the client gave. Only the last
 * part of a path is kept (`../../etc/passwd` → `passwd`, `C:\x\y.pdf` → `y.pdf`); control characters
 * go, the characters Windows refuses become `_`, leading and trailing dots and spaces go, a Windows
 * device name (`CON`, `lpt1.pdf`) gets a `_` in front, and the name is cut to FILE_NAME_MAX_LENGTH
 * code points keeping its extension. With `extension` (`.pdf` for what we serve as a PDF) the name
 * always ends in it, in any letter case (`bild.png` → `bild.png.pdf`). Nothing left → `dokument`.
 * The bytes are stored under a server-made key (services/file-store.ts), never under this name.
 */
export function normaliseFileName(given: string, extension = ''): string {
  const last =
    given
      .normalize('NFC')
      .split(/[/\\]/)
      .filter((part) => part.trim() !== '')
      .pop() ?? '';
  let name = '';
  for (const ch of last) {
    const c = ch.codePointAt(0) ?? 0;
    if (isControl(c) || (c >= 0xd800 && c <= 0xdfff)) continue;
    name += WINDOWS_FORBIDDEN.has(ch) ? '_' : ch;
  }
  name = name.replace(/^[\s.]+|[\s.]+$/g, '');
  const hasExtension = extension === '' || name.toLowerCase().endsWith(extension.toLowerCase());
  let stem = hasExtension ? name.slice(0, name.length - extension.length) : name;
  let ext = hasExtension ? name.slice(name.length - extension.length) : extension;
  stem = stem.replace(/[\s.]+$/, '');
  if (stem === '') {
    stem = FALLBACK_STEM;
    ext = extension;
  }
  if (WINDOWS_RESERVED.test(stem)) stem = `_${stem}`;
  const room = FILE_NAME_MAX_LENGTH - [...ext].length;
  const points = [...stem];
  if (points.length > room)
    stem = points
      .slice(0, room)
      .join('')
      .replace(/[\s.]+$/, '');
  return `${stem}${ext}`;
}

/** A file name for Content-Disposition: the plain ASCII form and the UTF-8 one of RFC 6266. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
