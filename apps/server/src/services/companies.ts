import { COMPANY_SEARCH_LIMIT, type Company } from '@portal/contracts';
import { asc, count, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import { ApiError } from '../lib/errors';
import { containsPattern } from '../lib/sql-search';

/**
 * Company search over the embedded register (`companies` table). A real registry provider (see
 * ../shared/domain/company-search.md) fits behind this function: same input, same answers, and the
 * same refusal when a search matches more than COMPANY_SEARCH_LIMIT companies.
 */
export async function searchCompanies(db: Db, query: string): Promise<Company[]> {
  const digits = query.replace(/[-\s]/g, '');
  const where = /^\d{6,}$/.test(digits)
    ? sql`replace(${companies.organizationNumber}, '-', '') like ${`${digits}%`}`
    : or(ilike(companies.name, containsPattern(query)), ilike(companies.city, containsPattern(query)));
  const [total] = await db.select({ n: count() }).from(companies).where(where);
  if ((total?.n ?? 0) > COMPANY_SEARCH_LIMIT) throw new ApiError('company.too_many_results');
  const rows = await db
    .select()
    .from(companies)
    .where(where)
    .orderBy(asc(companies.name))
    .limit(COMPANY_SEARCH_LIMIT);
  return rows.map((r) => ({
    organizationNumber: r.organizationNumber,
    name: r.name,
    address: r.address,
    zipcode: r.zipcode,
    city: r.city,
    country: r.country,
    vat: r.vat,
  }));
}
