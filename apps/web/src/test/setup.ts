import '@testing-library/jest-dom/vitest';
import { resources } from '@portal/i18n';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { addTexts, i18next, initI18n, WEB_NAMESPACES } from '../lib/i18n';
import { reloadSessionFromStorage } from '../lib/session-store';

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
