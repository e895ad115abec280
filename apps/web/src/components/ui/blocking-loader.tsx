import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOCKING_LOADER_EVENT, type BlockingLoaderDetail } from '../../lib/events';
import { Spinner } from './spinner';

/**
 * The blocking loader dialog of spec §2: shown and hidden by the `portal:blocking-loader` event
 * (see lib/events.ts), with "Please wait" as the default text.
 */
export function BlockingLoader() {
  const { t } = useTranslation();
  const [state, setState] = useState<BlockingLoaderDetail>({ show: false });

  useEffect(() => {
    const onEvent = (event: Event) => setState((event as CustomEvent<BlockingLoaderDetail>).detail);
    window.addEventListener(BLOCKING_LOADER_EVENT, onEvent);
    return () => window.removeEventListener(BLOCKING_LOADER_EVENT, onEvent);
  }, []);

  if (!state.show) return null;
  const text = state.text ?? t('common:status.please_wait');
  return (
    <div className="modal-backdrop modal-backdrop--loader">
      <div role="alertdialog" aria-modal="true" aria-label={text} className="blocking-loader">
        <Spinner size="small" label={text} />
        <p aria-hidden="true">{text}</p>
      </div>
    </div>
  );
}
