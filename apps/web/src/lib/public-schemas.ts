/**
 * The contract schemas of the pages a visitor sees before signing in (login, group login, password
 * reset) and the error answer every call may get. Only ever imported dynamically (loadPublicSchemas):
 * the login page fetches it once its form is on screen, so zod never delays the form, and none of the
 * signed-in screens' schemas (lib/schemas.ts) comes with it.
 */
export {
  errorResponseSchema,
  getGroupResponseSchema,
  login2faResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  okResponseSchema,
  requestPasswordResetBodySchema,
} from '@portal/contracts';
