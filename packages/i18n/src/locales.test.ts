import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resources } from './index';
import { FALLBACK_LOCALE, LOCALES, type Messages, NAMESPACES } from './startup';

/**
 * Every namespace file on disk, web and server alike (e-mails, documents, notices and reports are
 * written by the server too), read as it is rather than through `resources`, so that a file nobody
 * imports is checked as well.
 */
const LOCALES_DIR = join(import.meta.dirname, 'locales');

function namespaceFiles(locale: string): string[] {
  return readdirSync(join(LOCALES_DIR, locale))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

function readNamespace(locale: string, namespace: string): unknown {
  return JSON.parse(readFileSync(join(LOCALES_DIR, locale, `${namespace}.json`), 'utf8'));
}

/** Dotted key → value of every leaf; an object is walked into, anything else is a leaf. */
function leaves(node: unknown, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      Object.assign(out, leaves(value, path));
    else out[path] = value;
  }
  return out;
}

/** The `{{name}}` placeholders of a text, sorted, each once. */
function placeholders(text: unknown): string[] {
  return [...new Set([...String(text).matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1] ?? ''))].sort();
}

const FILES = namespaceFiles(FALLBACK_LOCALE);

describe('the locale files', () => {
  it('are the same namespaces in every locale, exactly the declared ones', () => {
    expect(FILES).toEqual([...NAMESPACES].sort());
    for (const locale of LOCALES) expect(namespaceFiles(locale), locale).toEqual(FILES);
  });

  it.each(LOCALES.flatMap((locale) => FILES.map((namespace) => [locale, namespace] as const)))(
    '%s %s is what resources serves',
    (locale, namespace) => {
      expect(resources[locale][namespace as keyof (typeof resources)[typeof locale]] as Messages).toEqual(
        readNamespace(locale, namespace),
      );
    },
  );

  it.each(FILES)('%s has the same keys in the three locales', (namespace) => {
    const reference = Object.keys(leaves(readNamespace(FALLBACK_LOCALE, namespace))).sort();
    expect(reference.length, namespace).toBeGreaterThan(0);
    for (const locale of LOCALES) {
      const keys = Object.keys(leaves(readNamespace(locale, namespace))).sort();
      expect(
        {
          missing: reference.filter((k) => !keys.includes(k)),
          extra: keys.filter((k) => !reference.includes(k)),
        },
        `${locale} ${namespace}`,
      ).toEqual({ missing: [], extra: [] });
    }
  });

  it.each(FILES)('%s holds a non-empty string at every key in the three locales', (namespace) => {
    for (const locale of LOCALES) {
      const bad = Object.entries(leaves(readNamespace(locale, namespace)))
        .filter(([, value]) => typeof value !== 'string' || value.trim().length === 0)
        .map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
      expect(bad, `${locale} ${namespace}`).toEqual([]);
    }
  });

  it.each(FILES)('%s has the same placeholders per key in the three locales', (namespace) => {
    const reference = leaves(readNamespace(FALLBACK_LOCALE, namespace));
    for (const locale of LOCALES) {
      const texts = leaves(readNamespace(locale, namespace));
      const differing = Object.entries(reference)
        .filter(([key]) => key in texts)
        .filter(([key, text]) => placeholders(texts[key]).join() !== placeholders(text).join())
        .map(([key, text]) => `${key}: ${placeholders(text).join()} ≠ ${placeholders(texts[key]).join()}`);
      expect(differing, `${locale} ${namespace}`).toEqual([]);
    }
  });
});
