import { z } from 'zod';
import { isoDateSchema } from './rules';

/** File formats of the regress report (spec §2, §7). */
export const REPORT_FILE_TYPES = ['pdf', 'excel'] as const;

/**
 * `GET limited/reports/activeRegress&from=&to=&fileType=` (spec §7). `to` may not be before `from`
 * (spec §5): the error is `reports.wrong_date_range`.
 */
export const activeRegressQuerySchema = z
  .object({ from: isoDateSchema, to: isoDateSchema, fileType: z.enum(REPORT_FILE_TYPES) })
  .refine((v) => v.to >= v.from, { path: ['to'], message: 'reports.wrong_date_range' });
export type ActiveRegressQuery = z.infer<typeof activeRegressQuerySchema>;
