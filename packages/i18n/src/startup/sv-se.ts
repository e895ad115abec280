import auth from '../locales/sv-SE/auth.json';
import common from '../locales/sv-SE/common.json';
import signInErrors from '../locales/sv-SE/sign-in-errors.json';
import validation from '../locales/sv-SE/validation.json';
import type { Messages, StartupNamespace } from '../startup';

/** The sv-SE texts the web starts with (see startup.ts). */
export const texts: Record<StartupNamespace, Messages> = {
  common,
  auth,
  'sign-in-errors': signInErrors,
  validation,
};
