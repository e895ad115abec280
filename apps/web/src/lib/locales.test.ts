import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  ERROR_CODES,
  IMPORT_ISSUE_CODES,
  LANGUAGES,
  REPORT_FILE_TYPES,
  VALIDATION_CODES,
} from '@portal/contracts';
import { LOCALES, type Messages, resources } from '@portal/i18n';
import { describe, expect, it } from 'vitest';
import { i18next, WEB_NAMESPACES } from './i18n';

function flatten(node: Messages, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') Object.assign(out, flatten(value as Messages, path));
    else out[path] = value;
  }
  return out;
}

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every `ns:key` literal in the web's source (t() calls and label keys held in data). */
function usedKeys(): Set<string> {
  const pattern = new RegExp(`['"\`]((?:${WEB_NAMESPACES.join('|')}):[A-Za-z0-9_.-]+)['"\`]`, 'g');
  const keys = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) if (match[1]) keys.add(match[1]);
  }
  return keys;
}

/**
 * Keys built at run time, so the static scan cannot see them. Each family is listed with the values
 * it can take: error codes (lib/messages.ts), rule codes (contracts/rules.ts), language names
 * (language-flags.tsx), report file types and issuer field labels (account details form).
 */
const DYNAMIC_KEYS = [
  ...ERROR_CODES.map((code) => `errors:${code}`),
  ...IMPORT_ISSUE_CODES.map((code) => `errors:import.${code}`),
  ...VALIDATION_CODES.map((code) => `validation:${code}`),
  ...LANGUAGES.map((language) => `common:language.names.${language}`),
  ...REPORT_FILE_TYPES.map((type) => `layout:regress.file_types.${type}`),
  ...['organizationNo', 'name', 'email', 'VAT', 'telephone', 'address', 'zipcode', 'city'].map(
    (field) => `account:details.fields.${field}`,
  ),
];

function allKeys(locale: (typeof LOCALES)[number]): string[] {
  return WEB_NAMESPACES.flatMap((ns) =>
    Object.keys(flatten(resources[locale][ns])).map((key) => `${ns}:${key}`),
  );
}

/**
 * The key `t()` is called with: i18next picks `x_one`, `x_other`, ... by the `count` it is given, and
 * every plural family has an `_other` form (a key such as `select_at_least_one` is not a plural).
 */
const PLURAL_BASES = new Set(
  LOCALES.flatMap((locale) => allKeys(locale))
    .filter((key) => key.endsWith('_other'))
    .map((key) => key.slice(0, -'_other'.length)),
);
function baseKey(key: string): string {
  const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
  return base !== key && PLURAL_BASES.has(base) ? base : key;
}

describe('locales', () => {
  it.each(WEB_NAMESPACES)('the three locales have the same keys in %s', (ns) => {
    const reference = Object.keys(flatten(resources['sv-SE'][ns])).sort();
    for (const locale of LOCALES)
      expect(Object.keys(flatten(resources[locale][ns])).sort()).toEqual(reference);
  });

  it.each(LOCALES)('every value in %s is a non-empty string', (locale) => {
    for (const ns of WEB_NAMESPACES) {
      for (const [key, value] of Object.entries(flatten(resources[locale][ns]))) {
        expect(typeof value === 'string' && value.trim().length > 0, `${locale} ${ns}:${key}`).toBe(true);
      }
    }
  });

  it('every key the source uses exists', () => {
    const known = new Set(allKeys('sv-SE').map(baseKey));
    const missing = [...usedKeys(), ...DYNAMIC_KEYS].filter((key) => !known.has(key));
    expect(missing).toEqual([]);
  });

  it('every error code of the contract has a translation', () => {
    for (const code of ERROR_CODES) expect(i18next.exists(`errors:${code}`), code).toBe(true);
  });

  it('no key is unused', () => {
    const used = new Set([...usedKeys(), ...DYNAMIC_KEYS]);
    expect(allKeys('sv-SE').filter((key) => !used.has(baseKey(key)))).toEqual([]);
  });

  it('placeholders are the same in every locale', () => {
    for (const ns of WEB_NAMESPACES) {
      const sv = flatten(resources['sv-SE'][ns]);
      for (const locale of LOCALES) {
        const other = flatten(resources[locale][ns]);
        for (const [key, value] of Object.entries(sv)) {
          const names = (text: unknown) =>
            [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
          expect(names(other[key]), `${locale} ${ns}:${key}`).toEqual(names(value));
        }
      }
    }
  });
});
