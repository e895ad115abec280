import { TWO_FACTOR_CODE_LENGTH } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { WarningIcon } from '../../../components/ui/icons';
import { MessageDialog } from '../../../components/ui/message-dialog';
import { Modal } from '../../../components/ui/modal';
import { CodeInput } from '../../../components/ui/text-input';
import { trackFormSubmit } from '../../../lib/analytics';
import { ApiError } from '../../../lib/api-client';
import { errorText, retryMinutes } from '../../../lib/messages';
import { useCancelTwoFactorSetup } from '../api/cancel-two-factor-setup';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { useVerifyTwoFactor } from '../api/verify-two-factor';

interface Setup {
  qrCodeUrl: string;
  secret: string;
}

/**
 * The two-factor tab (spec §4): off → setup (QR image fetched) → on after a verified code. Cancelling
 * setup calls the GET disable; turning an enabled account off needs a warning confirmation and a
 * current code of the app (the server refuses it without one).
 */
export function TwoFactorSettings({ enabled, required = false }: { enabled: boolean; required?: boolean }) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const [confirmDisable, setConfirmDisable] = useState(false);
  const [disableCode, setDisableCode] = useState('');
  const [disableError, setDisableError] = useState<unknown>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const enable = useEnableTwoFactor();
  const verify = useVerifyTwoFactor();
  const cancelSetup = useCancelTwoFactorSetup();
  const disable = useDisableTwoFactor();

  const errorDialog = failure !== null && (
    <MessageDialog
      title={t('account:two_factor.error_title')}
      message={errorText(t, failure)}
      onHide={() => setFailure(null)}
    />
  );
  const noticeDialog = notice && (
    <MessageDialog
      tone="success"
      title={t('account:two_factor.title')}
      message={notice}
      onHide={() => setNotice(null)}
    />
  );

  // The code of the last failure to turn off, shown at the code field; a network failure is generic.
  const disableErrorCode =
    disableError === null
      ? undefined
      : disableError instanceof ApiError
        ? disableError.code
        : 'client.generic';

  function closeDisable() {
    setConfirmDisable(false);
    setDisableCode('');
    setDisableError(null);
  }

  if (enabled && !setup) {
    return (
      <div className="stack">
        <p className="status-line status-line--ok">{t('account:two_factor.status_on')}</p>
        {/* An account that must use two-factor cannot turn it off (the server refuses it too). */}
        {required ? (
          <p className="muted">{t('errors:twoFactor.required')}</p>
        ) : (
          <div>
            <Button
              variant="danger"
              label={t('account:two_factor.disable')}
              onClick={() => setConfirmDisable(true)}
            />
          </div>
        )}
        {confirmDisable && (
          <Modal
            alert
            title={t('account:two_factor.disable_confirm_title')}
            submitLabel={t('account:two_factor.disable')}
            submitVariant="danger"
            disableSubmit={disableCode.length !== TWO_FACTOR_CODE_LENGTH}
            submitOnEnter
            loading={disable.isPending}
            onHide={closeDisable}
            onSubmit={() => {
              if (disableCode.length !== TWO_FACTOR_CODE_LENGTH) return;
              disable.mutate(
                { code: disableCode },
                {
                  onSuccess: () => {
                    closeDisable();
                    setNotice(t('account:two_factor.disabled_text'));
                  },
                  // A wrong code (or too many) is shown at the field; the dialog stays for another try.
                  onError: (error) => {
                    setDisableCode('');
                    setDisableError(error);
                  },
                },
              );
            }}
          >
            <p className="notice notice--warning">
              <WarningIcon size={18} /> {t('account:two_factor.disable_confirm_text')}
            </p>
            <p className="muted">{t('account:two_factor.disable_code_text')}</p>
            <CodeInput
              label={t('account:two_factor.code')}
              name="disableCode"
              value={disableCode}
              error={disableErrorCode}
              errorParams={
                disableError instanceof ApiError ? { minutes: retryMinutes(disableError, 15) } : undefined
              }
              onChange={(value) => {
                setDisableError(null);
                setDisableCode(value);
              }}
            />
          </Modal>
        )}
        {errorDialog}
        {noticeDialog}
      </div>
    );
  }

  if (!setup) {
    return (
      <div className="stack">
        <p className="status-line">{t('account:two_factor.status_off')}</p>
        <p className="muted">{t('account:two_factor.intro')}</p>
        <div>
          <Button
            label={t('account:two_factor.set_up')}
            loading={enable.isPending}
            onClick={() =>
              enable.mutate(undefined, {
                onSuccess: (answer) => {
                  setCode('');
                  setSetup(answer);
                },
                onError: setFailure,
              })
            }
          />
        </div>
        {errorDialog}
        {noticeDialog}
      </div>
    );
  }

  const isComplete = code.length === TWO_FACTOR_CODE_LENGTH;
  return (
    <form
      className="stack"
      noValidate
      aria-label={t('account:two_factor.setup_title')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!isComplete) return;
        trackFormSubmit('two_factor_verify', ['code']);
        verify.mutate(
          { code },
          {
            onSuccess: () => {
              setSetup(null);
              setNotice(t('account:two_factor.enabled_text'));
            },
            onError: setFailure,
          },
        );
      }}
    >
      <h3 className="section-title">{t('account:two_factor.setup_title')}</h3>
      <p className="muted">{t('account:two_factor.scan_text')}</p>
      <img
        className="qr-code"
        src={setup.qrCodeUrl}
        alt={t('account:two_factor.qr_alt')}
        width={180}
        height={180}
      />
      <p>
        {t('account:two_factor.secret_label')} <code className="secret">{setup.secret}</code>
      </p>
      <CodeInput label={t('account:two_factor.code')} name="code" value={code} onChange={setCode} />
      <div className="button-row">
        <Button
          type="submit"
          disabled={!isComplete}
          loading={verify.isPending}
          label={t('account:two_factor.verify')}
        />
        <Button
          variant="secondary"
          label={t('account:two_factor.cancel_setup')}
          loading={cancelSetup.isPending}
          onClick={() =>
            cancelSetup.mutate(undefined, {
              onSettled: () => setSetup(null),
              onError: setFailure,
            })
          }
        />
      </div>
      {errorDialog}
    </form>
  );
}
