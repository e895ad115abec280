import type { Recipient } from '@portal/contracts';
import type { recipients } from '../db/schema';

type RecipientRow = typeof recipients.$inferSelect;

/** A recipient row as the API answers it. */
export function toRecipient(r: RecipientRow): Recipient {
  return {
    recipientID: r.id,
    name: r.name,
    address: r.address,
    address2: r.address2,
    zipcode: r.zipcode,
    city: r.city,
    country: r.country,
    email: r.email,
    phone: r.phone,
    organizationNumber: r.organizationNumber,
    vat: r.vat,
    documentLanguage: r.documentLanguage,
    updated: r.updatedAt.toISOString(),
  };
}
