import { DEFAULT_LANGUAGE, type Language } from '@portal/contracts';
import {
  isLocale,
  LOCALES,
  loadStartupTexts,
  type Messages,
  NAMESPACES,
  type Namespace,
} from '@portal/i18n/startup';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { updateSession } from './session-store';
import { readStored, STORAGE_KEYS, writeStored } from './storage';

/**
 * The namespaces i18next is set up with: all but the server's own (e-mails, documents, notices) and
 * `reports`, which it shares with the server and whose screens add it with their chunk (addTexts).
 */
const NOT_WEB: readonly Namespace[] = ['email', 'documents', 'notices', 'reports'];

/** The namespaces the web uses (see NOT_WEB). */
export const WEB_NAMESPACES = NAMESPACES.filter((namespace) => !NOT_WEB.includes(namespace));

/**
 * The language at startup (spec §9): a saved `default_language`, else the persisted `language`,
 * else sv-SE.
 */
export function startupLanguage(): Language {
  const saved = readStored<unknown>(STORAGE_KEYS.defaultLanguage);
  if (isLocale(saved)) return saved;
  const persisted = readStored<unknown>(STORAGE_KEYS.language);
  return isLocale(persisted) ? persisted : DEFAULT_LANGUAGE;
}

/** The portal language an i18next language string names; sv-SE for anything else. */
export function toLanguage(value: string | undefined): Language {
  return isLocale(value) ? value : DEFAULT_LANGUAGE;
}

let initialised = false;
const textsOf = new Map<Language, Promise<void>>();

/**
 * Loads the startup texts of one language once (a chunk per language): the first page downloads only
 * the language it shows, and a language flag loads its texts before switching.
 */
export function loadLanguage(language: Language): Promise<void> {
  let loading = textsOf.get(language);
  if (!loading) {
    loading = loadStartupTexts(language).then((texts) => {
      for (const [namespace, bundle] of Object.entries(texts))
        i18next.addResourceBundle(language, namespace, bundle, true, false);
    });
    // A failed load (offline) may be tried again by the next caller.
    loading.catch(() => textsOf.delete(language));
    textsOf.set(language, loading);
  }
  return loading;
}

/** Resolves once the startup texts of the language the app started in are there. */
export function startupTextsLoaded(): Promise<void> {
  initI18n();
  return loadLanguage(toLanguage(i18next.language));
}

export function initI18n(): typeof i18next {
  if (initialised) return i18next;
  initialised = true;
  const lng = startupLanguage();
  void i18next.use(initReactI18next).init({
    // The startup texts of the language come with loadLanguage (the first route waits for them); the
    // deferred namespaces (@portal/i18n DEFERRED_NAMESPACES) are added by their screens' chunks.
    resources: {},
    lng,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LOCALES],
    ns: [...WEB_NAMESPACES],
    defaultNS: 'common',
    // `errors:<code>` of a page before sign-in is found in the startup namespace `sign-in-errors`
    // (@portal/i18n DEFERRED_NAMESPACES): a key missing from its namespace is looked up there.
    fallbackNS: 'sign-in-errors',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    showSupportNotice: false,
  });
  document.documentElement.lang = lng;
  i18next.on('languageChanged', (language) => {
    document.documentElement.lang = language;
  });
  return i18next;
}

/**
 * Adds a deferred namespace (@portal/i18n DEFERRED_NAMESPACES) in every locale. The chunk that needs
 * it calls this when it loads, before its screen renders, so the login page does not carry the texts.
 */
export function addTexts(namespace: string, texts: Readonly<Record<Language, Messages>>): void {
  initI18n();
  for (const language of LOCALES) i18next.addResourceBundle(language, namespace, texts[language], true, true);
}

/** The language flags: switch, update `<html lang>` and persist the choice (spec §3, §9). */
export async function setLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
  updateSession({ language });
  writeStored(STORAGE_KEYS.defaultLanguage, language);
}

export { i18next };
