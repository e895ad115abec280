import { isPageAllowed, PAGES, type PageDef, type PageName } from '@portal/contracts';
import { matchPath } from 'react-router';

/** A page of the app: its route pattern and abilities from the contracts' `PAGES`, plus its link builder. */
export type AppPath = PageDef;

/** A page's link builder: its path, or for a path with a parameter (`:id`) the path with the value in. */
type Linked<P extends PageDef> = P & {
  getHref: P['path'] extends `${string}:${string}` ? (value: string) => string : () => string;
};

function linked<P extends PageDef>(page: P): Linked<P> {
  const getHref = (value = '') => page.path.replace(/:\w+/, () => encodeURIComponent(value));
  return { ...page, getHref } as Linked<P>;
}

type LinkedPages = { [K in PageName]: Linked<(typeof PAGES)[K]> };

const linkedPages = {} as LinkedPages;
for (const name of Object.keys(PAGES) as PageName[]) {
  (linkedPages as Record<PageName, PageDef>)[name] = linked(PAGES[name]);
}

/**
 * Every route of spec §2 with its link builder, one per page of `PAGES` (packages/contracts/src/pages.ts),
 * the table the menu reads as well: the pattern and the abilities that open each page come from there.
 */
export const paths = {
  ...linkedPages,
  /** Named `password.reset` in spec §2; the request view (`password.reset.request`) is part of the login. */
  passwordReset: { ...linkedPages.passwordReset, name: 'password.reset' },
  invoiceMessages: {
    ...PAGES.invoiceMessages,
    /** The optional invoice of spec §2 is a query parameter: `/invoice/messages?invoiceID=…`. */
    getHref: (invoiceID?: string) =>
      invoiceID ? `/invoice/messages?invoiceID=${encodeURIComponent(invoiceID)}` : '/invoice/messages',
  },
};

export type PathName = keyof typeof paths;

/** The known route a concrete pathname belongs to, if any. */
export function findAppPath(pathname: string): AppPath | undefined {
  return Object.values(paths).find((p) => matchPath({ path: p.path, end: true }, pathname) !== null);
}

/**
 * What the catch-all shows for a path that has no screen yet: 403 when it is a known gated route the
 * abilities lack (spec §2 navigation guard), otherwise 404.
 */
export function catchAllOutcome(pathname: string, abilities: readonly string[]): 'forbidden' | 'not-found' {
  const known = findAppPath(pathname);
  if (known && !isPageAllowed(abilities, known)) return 'forbidden';
  return 'not-found';
}
