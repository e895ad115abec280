import {
  documentLanguageForCountry,
  type ListRecipientsQuery,
  type ParsedRecipientBody,
  RECIPIENT_ISSUES,
  type Recipient,
} from '@portal/contracts';
import { partyNumberKey } from '@portal/domain/party-number';
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import * as repo from './recipients.repository';

/**
 * The recipients module's service: the issuer's register of invoice recipients (spec §5). Within an
 * issuer no two recipients share a party number; a recipient an article or invoice names stays.
 * Outside this folder, import from this file only (ARCHITECTURE.md "Modules").
 */

export { searchCompanies } from '../../services/companies';
export { toRecipient } from './recipients.repository';

export async function listRecipients(db: Db, issuerId: string, query: ListRecipientsQuery) {
  const page = await repo.listRecipients(db, issuerId, query);
  return { ...page, page: query.page, pageSize: query.pageSize };
}

export async function getRecipient(db: Db, issuerId: string, id: string): Promise<Recipient> {
  const row = await repo.findRecipient(db, issuerId, id);
  if (!row) throw new ApiError('recipient.not_found');
  return repo.toRecipient(row);
}

/**
 * Adds a recipient (`id` null; without a document language, its country's) or changes the issuer's
 * recipient `id` (without a document language the stored one is kept).
 */
export async function saveRecipient(
  db: Db,
  issuerId: string,
  id: string | null,
  body: ParsedRecipientBody,
  now: Date,
): Promise<Recipient> {
  const values = normalise(body);
  const row = await guardPartyNumber(db, issuerId, values.organizationNumber, id, () =>
    id === null
      ? repo.insertRecipient(db, issuerId, {
          ...values,
          documentLanguage: values.documentLanguage ?? documentLanguageForCountry(values.country),
        })
      : repo.updateRecipient(db, issuerId, id, values, now),
  );
  if (!row) throw new ApiError(id === null ? 'server.internal' : 'recipient.not_found');
  return repo.toRecipient(row);
}

/** Removes the issuer's recipient; refused (`recipient.in_use`) while articles or invoices name it. */
export async function deleteRecipient(db: Db, issuerId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await repo.lockRecipient(tx, issuerId, id))) throw new ApiError('recipient.not_found');
    if (await repo.recipientInUse(tx, issuerId, id)) throw new ApiError('recipient.in_use');
    await repo.deleteRecipient(tx, issuerId, id);
  });
}

/**
 * Runs `write` unless another recipient of the issuer (not `self`) has the same party number; then,
 * and when the unique index refuses a write that raced with another one, answers 400
 * `recipient.invalid` with the issue `recipient.org_number_taken` on the field and that recipient's
 * id, name and number as it is stored in `details`, for the form's link to it.
 */
async function guardPartyNumber<T>(
  db: Db,
  issuerId: string,
  organizationNumber: string,
  self: string | null,
  write: () => Promise<T>,
): Promise<T> {
  await refuseTaken(db, issuerId, organizationNumber, self);
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err, 'recipients_issuer_party_number_idx')) throw err;
    await refuseTaken(db, issuerId, organizationNumber, self);
    throw err;
  }
}

async function refuseTaken(db: Db, issuerId: string, organizationNumber: string, self: string | null) {
  const key = partyNumberKey(organizationNumber);
  if (key === '') return;
  const taken = await repo.recipientWithPartyNumber(db, issuerId, key, self);
  if (taken) {
    throw new ApiError('recipient.invalid', {
      issues: [{ path: 'organizationNumber', code: RECIPIENT_ISSUES.orgNumberTaken }],
      details: {
        recipientID: taken.id,
        recipientName: taken.name,
        recipientOrganizationNumber: taken.number,
      },
    });
  }
}

// The contract has already put the party number in its one form and the phone number in E.164.
function normalise<T extends { vat: string }>(body: T): T {
  return { ...body, vat: body.vat.replace(/\s/g, '').toUpperCase() };
}
