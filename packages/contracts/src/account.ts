import { z } from 'zod';
import { ABILITIES } from './abilities';
import { currentPasswordField, groupSchema, userSchema } from './auth';
import { ISSUER_LIMITS } from './constants';
import { newPasswordSchema, requiredEmail, requiredText, twoFactorCodeSchema } from './rules';

/** The issuer (the customer company) of spec §3. organizationNo is read-only. */
export const issuerSchema = z.object({
  issuerID: z.string(),
  name: z.string(),
  email: z.string(),
  organizationNo: z.string(),
  vat: z.string(),
  telephone: z.string(),
  address: z.object({ address1: z.string(), city: z.string(), zipcode: z.string() }),
  country: z.enum(['SE', 'FI']),
  bankAccountVerified: z.boolean(),
});
export type Issuer = z.infer<typeof issuerSchema>;

/** `POST limited/issuerInfo`: the saved payload fields of spec §3 with the limits of spec §5. */
export const saveIssuerInfoBodySchema = z.object({
  name: requiredText(ISSUER_LIMITS.name),
  email: requiredEmail(ISSUER_LIMITS.email),
  VAT: requiredText(ISSUER_LIMITS.vat),
  telephone: requiredText(ISSUER_LIMITS.telephone),
  address: requiredText(ISSUER_LIMITS.address),
  city: requiredText(ISSUER_LIMITS.city),
  zipcode: requiredText(ISSUER_LIMITS.zipcode),
});
export type SaveIssuerInfoBody = z.infer<typeof saveIssuerInfoBodySchema>;
export const saveIssuerInfoResponseSchema = issuerSchema;

/** `POST limited/account` changes the password (spec §7): 412 wrong old, 400 invalid new. */
export const changePasswordBodySchema = z.object({
  old: currentPasswordField(),
  new: newPasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** The browser's password form: the same rule plus the confirmation (spec §5). */
export const changePasswordFormSchema = z
  .object({
    old: z.string().min(1, 'validation.required'),
    new: newPasswordSchema,
    confirm: z.string().min(1, 'validation.required'),
  })
  .refine((v) => v.new === v.confirm, { path: ['confirm'], message: 'validation.password_mismatch' });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

/** `GET /limited/2fa/enable`: the QR image of the otpauth URI as a data URL, and the secret for typing. */
export const enableTwoFactorResponseSchema = z.object({ qrCodeUrl: z.string(), secret: z.string() });

/** `POST /limited/2fa/verify` (spec §7). */
export const verifyTwoFactorBodySchema = z.object({ code: twoFactorCodeSchema });

/** `POST /limited/2fa/disable`: a current code of the app, so a session alone cannot turn it off. */
export const disableTwoFactorBodySchema = z.object({ code: twoFactorCodeSchema });
export type DisableTwoFactorBody = z.infer<typeof disableTwoFactorBodySchema>;

/** A message to or from us (spec §3). The header counts unread type '4' not written by the user. */
export const messageSchema = z.object({
  messageID: z.string(),
  messageType: z.string(),
  authorID: z.string().nullable(),
  invoiceID: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  author: z.string(),
  date: z.string(),
  title: z.string(),
  message: z.string(),
  read: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;

/** A VAT rate the issuer may use, in basis points (2500 = 25 %, 2550 = 25.5 %). */
export const taxRateSchema = z.object({ rateBasisPoints: z.number().int().min(0).max(10000) });
export type TaxRate = z.infer<typeof taxRateSchema>;

/** `GET self`: the user's fields plus abilities, issuer, taxRates, currencies, messages (spec §3, §7). */
export const getSelfResponseSchema = userSchema.extend({
  abilities: z.array(z.enum(ABILITIES)),
  issuer: issuerSchema,
  group: groupSchema.nullable(),
  taxRates: z.array(taxRateSchema),
  currencies: z.array(z.string().length(3)),
  messages: z.array(messageSchema),
});
export type Self = z.infer<typeof getSelfResponseSchema>;
