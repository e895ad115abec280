import auth from '../locales/en-US/auth.json';
import common from '../locales/en-US/common.json';
import signInErrors from '../locales/en-US/sign-in-errors.json';
import validation from '../locales/en-US/validation.json';
import type { Messages, StartupNamespace } from '../startup';

/** The en-US texts the web starts with (see startup.ts). */
export const texts: Record<StartupNamespace, Messages> = {
  common,
  auth,
  'sign-in-errors': signInErrors,
  validation,
};
