import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';

/**
 * Runs `act` while the database refuses the inserts into `table` whose new row satisfies `when` (SQL
 * over `new`), as a failing write half-way would; the trigger is gone afterwards. Table and condition
 * come from the test's own code.
 */
export async function whileRefusing(
  db: Db,
  table: string,
  when: string,
  act: () => Promise<void>,
): Promise<void> {
  await db.execute(
    sql.raw(`create function refuse_for_test() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test'; end $$`),
  );
  await db.execute(
    sql.raw(`create trigger refuse_for_test before insert on ${table} for each row
      when (${when}) execute function refuse_for_test()`),
  );
  try {
    await act();
  } finally {
    await db.execute(sql.raw(`drop trigger refuse_for_test on ${table}`));
    await db.execute(sql.raw('drop function refuse_for_test()'));
  }
}
