import auth from '../locales/fi-FI/auth.json';
import common from '../locales/fi-FI/common.json';
import errors from '../locales/fi-FI/errors.json';
import validation from '../locales/fi-FI/validation.json';
import type { Messages, StartupNamespace } from '../startup';

/** The fi-FI texts the web starts with (see startup.ts). */
export const texts: Record<StartupNamespace, Messages> = { common, auth, errors, validation };
