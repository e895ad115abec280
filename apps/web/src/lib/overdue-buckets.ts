import type { OverdueBucket } from '@portal/contracts';

const KEYS: Record<OverdueBucket, string> = {
  '1-5': 'dashboard:overview.bucket.1_5',
  '6-15': 'dashboard:overview.bucket.6_15',
  '16-30': 'dashboard:overview.bucket.16_30',
  '30+': 'dashboard:overview.bucket.over_30',
};

/** The translation key of an overdue bucket's name ("1–5 days"). */
export function bucketLabelKey(bucket: OverdueBucket): string {
  return KEYS[bucket];
}
