import { activeRegressQuerySchema, REGRESS_DEFAULT_RANGE_DAYS, REPORT_FILE_TYPES } from '@portal/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../components/ui/date-field';
import { Modal } from '../../../components/ui/modal';
import { trackFormSubmit } from '../../../lib/analytics';
import { addDays, toIsoDate } from '../../../lib/format';
import { downloadActiveRegress } from '../api/download-active-regress';

type FileType = (typeof REPORT_FILE_TYPES)[number];

/** The default range of spec §9: the last 30 days up to today, as YYYY-MM-DD. */
export function defaultRegressRange(today: Date = new Date()): { from: string; to: string } {
  return { from: toIsoDate(addDays(today, -REGRESS_DEFAULT_RANGE_DAYS)), to: toIsoDate(today) };
}

/** The active regress modal of spec §2: from/to, pdf or excel, download. */
export function ActiveRegressModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [range, setRange] = useState(defaultRegressRange);
  const [fileType, setFileType] = useState<FileType>('pdf');
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});
  const [busy, setBusy] = useState(false);
  const legendId = useId();

  async function submit() {
    const parsed = activeRegressQuerySchema.safeParse({ ...range, fileType });
    if (!parsed.success) {
      const next: { from?: string; to?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'from' || field === 'to') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    trackFormSubmit('active_regress', ['from', 'to', 'fileType']);
    setBusy(true);
    await downloadActiveRegress(parsed.data);
    setBusy(false);
    onClose();
  }

  return (
    <Modal
      title={t('layout:regress.title')}
      submitLabel={t('layout:regress.download')}
      submitOnEnter
      loading={busy}
      onHide={onClose}
      onSubmit={() => void submit()}
    >
      <div className="form-grid">
        <DateField
          autoFocus
          label={t('layout:regress.from')}
          name="from"
          value={range.from}
          error={errors.from}
          onChange={(from) => setRange((r) => ({ ...r, from }))}
        />
        <DateField
          label={t('layout:regress.to')}
          name="to"
          value={range.to}
          error={errors.to}
          onChange={(to) => setRange((r) => ({ ...r, to }))}
        />
        <fieldset className="radio-group form-grid__full" aria-labelledby={legendId}>
          <legend id={legendId}>{t('layout:regress.file_type')}</legend>
          {REPORT_FILE_TYPES.map((type) => (
            <label key={type} className="radio">
              <input
                type="radio"
                name="fileType"
                value={type}
                checked={fileType === type}
                onChange={() => setFileType(type)}
              />
              {t(`layout:regress.file_types.${type}`)}
            </label>
          ))}
        </fieldset>
      </div>
    </Modal>
  );
}
