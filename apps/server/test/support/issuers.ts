import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { issuers, users } from '../../src/db/schema';

/** Sets (or with null removes) the collection bankgiro of the issuer of the user `username`. */
export async function setCollectionBankgiro(
  db: Db,
  username: string,
  bankgiro: string | null,
): Promise<void> {
  const [user] = await db
    .select({ issuerId: users.issuerId })
    .from(users)
    .where(eq(users.username, username));
  if (!user?.issuerId) throw new Error(`setCollectionBankgiro: no issuer user ${username}`);
  await db.update(issuers).set({ collectionBankgiro: bankgiro }).where(eq(issuers.id, user.issuerId));
}
