import enus from '../locales/en-US/articles.json';
import fifi from '../locales/fi-FI/articles.json';
import svse from '../locales/sv-SE/articles.json';

/** The `articles` namespace in every locale; the web adds it with the signed-in shell's chunk. */
export const articlesTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
