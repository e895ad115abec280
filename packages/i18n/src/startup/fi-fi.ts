import auth from '../locales/fi-FI/auth.json';
import common from '../locales/fi-FI/common.json';
import signInErrors from '../locales/fi-FI/sign-in-errors.json';
import validation from '../locales/fi-FI/validation.json';
import type { Messages, StartupNamespace } from '../startup';

/** The fi-FI texts the web starts with (see startup.ts). */
export const texts: Record<StartupNamespace, Messages> = {
  common,
  auth,
  'sign-in-errors': signInErrors,
  validation,
};
