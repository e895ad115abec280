import { z } from 'zod';
import { LANGUAGES, PASSWORD_MAX_LENGTH } from './constants';
import { newPasswordSchema, plainText, twoFactorCodeSchema } from './rules';

/** A branded login group (spec §3). Logo and background are image URLs (data: or same-origin). */
export const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  logo: z.string().nullable(),
  background: z.string().nullable(),
});
export type Group = z.infer<typeof groupSchema>;

/** `GET limited/group&group={groupid}` (spec §7); `?group=` works the same. */
export const getGroupQuerySchema = z.object({ group: plainText().min(1).max(64) });
export const getGroupResponseSchema = groupSchema;

/** ERP integration of the user; an inactive one shows an explanatory message (spec §6). */
export const fortnoxSettingSchema = z.object({ active: z.boolean() });
export type FortnoxSetting = z.infer<typeof fortnoxSettingSchema>;

/** The user record of spec §3. `lastPasswordChange` null means the initial password is in use. */
export const userSchema = z.object({
  userID: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  lastPasswordChange: z.string().nullable(),
  force2fa: z.boolean(),
  twoFactorEnabled: z.boolean(),
  fortnoxSetting: fortnoxSettingSchema.nullable(),
  groupID: z.string().nullable(),
  language: z.enum(LANGUAGES).nullable(),
});
export type User = z.infer<typeof userSchema>;

/** A sign-in's user name, as the login and the reset request take it (customers' and operators'). */
export const usernameField = () =>
  plainText('validation.required').trim().min(1, 'validation.required').max(254);
/** A password as typed at sign-in or to confirm a change: only required and bounded, not checked against the rules. */
export const currentPasswordField = () =>
  plainText('validation.required').min(1, 'validation.required').max(PASSWORD_MAX_LENGTH);
/** The second step of a sign-in: the password step's short-lived token and the six-digit TOTP code. */
export const twoFactorStepBody = () =>
  z.object({ token: plainText().min(1).max(200), code: twoFactorCodeSchema });

/** `POST login/limited` (spec §7). */
export const loginBodySchema = z.object({
  username: usernameField(),
  password: currentPasswordField(),
  group: plainText().max(64).optional(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/**
 * With two-factor on, `requireTwoFactor` is true and `token` may only be used for
 * `login/limited-2fa`; otherwise `token` is the session and `user` is set (spec §3, §4).
 */
export const loginResponseSchema = z.object({
  requireTwoFactor: z.boolean(),
  token: z.string(),
  user: userSchema.optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** `POST login/limited-2fa` (spec §7). */
export const login2faBodySchema = twoFactorStepBody();
export const login2faResponseSchema = z.object({ token: z.string(), user: userSchema });

/** `POST limited/password` asks for a reset link by e-mail (spec §7). */
export const requestPasswordResetBodySchema = z.object({ username: usernameField() });

/** Checks that a reset link is still usable before the page asks for a new password. */
export const checkPasswordResetParamsSchema = z.object({ hash: plainText().min(1).max(200) });

/** Sets the new password through a reset link; `new` follows the policy of spec §5. */
export const resetPasswordBodySchema = z.object({
  hash: plainText().min(1).max(200),
  new: newPasswordSchema,
});

/** Answer of the calls whose answer the spec does not show. */
export const okResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;

/** The answer to a provider's callback or webhook that was taken: `{ received: true }`. */
export const receivedResponseSchema = z.object({ received: z.literal(true) });
