import '@testing-library/jest-dom/vitest';
import { resources } from '@portal/i18n';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { addTexts, i18next, initI18n, WEB_NAMESPACES } from '../lib/i18n';
import { reloadSessionFromStorage } from '../lib/session-store';

// Pages in tests call the real server (test/real-api.ts): PGlite answers in tens of milliseconds, more on a
// loaded machine, so findBy/waitFor wait longer than Testing Library's default of one second.
configure({ asyncUtilTimeout: 5_000 });

initI18n();
// Tests render screens without the chunks that add the deferred namespaces: add every text up front.
for (const namespace of WEB_NAMESPACES) {
  addTexts(namespace, {
    'sv-SE': resources['sv-SE'][namespace],
    'en-US': resources['en-US'][namespace],
    'fi-FI': resources['fi-FI'][namespace],
  });
}

beforeEach(async () => {
  // Assertions read the English texts; the default language (sv-SE) has its own test.
  await i18next.changeLanguage('en-US');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  reloadSessionFromStorage();
});
