import { z } from 'zod';
import { isoDateSchema } from './rules';

/** File formats of the regress report (spec §2, §7). */
export const REPORT_FILE_TYPES = ['pdf', 'excel'] as const;

/**
 * A report's required date range (spec §5): `to` may not be before `from`; the error, on `to`, is
 * `reports.wrong_date_range`.
 */
export function withDatesInOrder<T extends z.ZodType<{ from: string; to: string }>>(query: T): T {
  return query.refine((v) => v.to >= v.from, { path: ['to'], message: 'reports.wrong_date_range' });
}

/** `GET limited/reports/activeRegress&from=&to=&fileType=` (spec §7), its dates in order. */
export const activeRegressQuerySchema = withDatesInOrder(
  z.object({ from: isoDateSchema, to: isoDateSchema, fileType: z.enum(REPORT_FILE_TYPES) }),
);
export type ActiveRegressQuery = z.infer<typeof activeRegressQuerySchema>;
