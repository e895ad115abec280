import { expect, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './env';
import { sessionToken } from './tokens';

/**
 * Switches the language with its button, as a user would, and waits until the switch is done: the
 * language's texts load first, and only then is the choice shown (`aria-pressed`) and kept for the next
 * page. A test that navigated at once could load the next page in the old language.
 */
export async function chooseLanguage(page: Page, button: 'Svenska' | 'English' | 'Suomi'): Promise<void> {
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByRole('button', { name: button })).toHaveAttribute('aria-pressed', 'true');
}

/** Switches to English with the language buttons (`chooseLanguage`). */
export async function chooseEnglish(page: Page): Promise<void> {
  await chooseLanguage(page, 'English');
}

/** Signs in on the plain login page in English and waits for the signed-in shell. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await chooseEnglish(page);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The login page's words in each language: the language's button, the two fields and the button that signs in. */
export const LOGIN_WORDS = {
  'sv-SE': {
    lang: 'sv-SE',
    button: 'Svenska',
    user: 'Användarnamn',
    password: 'Lösenord',
    submit: 'Logga in',
  },
  'en-US': { lang: 'en-US', button: 'English', user: 'Username', password: 'Password', submit: 'Sign in' },
  'fi-FI': {
    lang: 'fi-FI',
    button: 'Suomi',
    user: 'Käyttäjätunnus',
    password: 'Salasana',
    submit: 'Kirjaudu sisään',
  },
} as const;

/** The login page's words in one language: its language button, its two fields. */
export interface LoginWords {
  button: string;
  user: string;
  password: string;
}

/** Opens the login page in the language of `l` (with its button) and fills in the user's name and password. */
export async function fillLoginIn(page: Page, l: LoginWords, username = 'demo'): Promise<void> {
  await page.goto('/login');
  await page.getByRole('button', { name: l.button }).click();
  await page.getByLabel(l.user).fill(username);
  await page.getByLabel(l.password, { exact: true }).fill(DEMO_PASSWORD);
}

export async function expectSignedIn(page: Page, fullName: string): Promise<void> {
  await expect(page.getByRole('button', { name: `User menu for ${fullName}` })).toBeVisible();
}

/**
 * Signs in as the demo customer (Dana Demosson), waits for the signed-in shell and returns the
 * Authorization header of the session, for the calls a spec makes over the API.
 */
export async function signInAsDemo(page: Page): Promise<{ Authorization: string }> {
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');
  return { Authorization: `Bearer ${await sessionToken(page)}` };
}

/** Signs in as `username`, waits for the shell with `fullName`'s user menu and gives the main menu. */
export async function signInToMenu(page: Page, username: string, fullName: string): Promise<Locator> {
  await signIn(page, username);
  await expectSignedIn(page, fullName);
  return page.getByRole('navigation', { name: 'Main menu' });
}

export async function signOut(page: Page, fullName: string): Promise<void> {
  await page.getByRole('button', { name: `User menu for ${fullName}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
}

/** Closes the open error dialog (role alertdialog) with its footer button. */
export async function closeDialog(page: Page): Promise<void> {
  await page.getByRole('alertdialog').getByRole('contentinfo').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('alertdialog')).toBeHidden();
}

/** Waits for the success dialog with this title and closes it with its footer button. */
export async function closeSuccess(page: Page, title: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('contentinfo').getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}
