import type { Ability } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { userAbilities, users } from '../../src/db/schema';

/**
 * Gives a user exactly `abilities` (nothing in the portal changes them yet). The server reads the
 * abilities at every request, so the user's next call, on a session already open, sees the change.
 */
export async function setAbilities(db: Db, username: string, abilities: readonly Ability[]): Promise<void> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) throw new Error(`setAbilities: no user ${username}`);
  await db.transaction(async (tx) => {
    await tx.delete(userAbilities).where(eq(userAbilities.userId, user.id));
    if (abilities.length > 0)
      await tx.insert(userAbilities).values(abilities.map((ability) => ({ userId: user.id, ability })));
  });
}
