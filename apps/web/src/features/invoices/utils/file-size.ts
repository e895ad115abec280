import type { Language } from '@portal/contracts';

/** A file size for people: bytes, kB or MB (1 kB = 1024 bytes) with the language's number format. */
export function formatFileSize(bytes: number, language: Language): string {
  const unit = (value: number, digits: number) =>
    new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);
  if (bytes < 1024) return `${unit(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${unit(bytes / 1024, 0)} kB`;
  return `${unit(bytes / (1024 * 1024), 1)} MB`;
}
