import { userSchema } from '@portal/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import type { AccountTab } from '../../features/account/components/account-modal';
import { SetupBanners, SetupOverlay } from '../../features/account/components/setup-notices';
import { useLogout } from '../../features/auth/api/logout';
import { messageKeys } from '../../features/invoices/api/messages';
import { TopMenu } from '../../features/navigation/components/top-menu';
import type { MenuAction } from '../../features/navigation/menu-model';
import { downloadActiveInvoices } from '../../features/reports/api/download-active-invoices';
import { hideBlockingLoader, RELOAD_ABILITIES_EVENT, showBlockingLoader } from '../../lib/events';
import { errorText } from '../../lib/messages';
import { selfKeys, useSelf } from '../../lib/self';
import { clearSession, getSession, updateSession } from '../../lib/session-store';
import { AbilitiesContext } from '../abilities';
import { QueryScope } from '../query-scope';
import './shell-texts';

// The account's forms and the recourse report's dialog open on a click: their code (and the form library)
// is fetched then, not with every signed-in page.
const AccountModal = lazy(() =>
  import('../../features/account/components/account-modal').then((m) => ({ default: m.AccountModal })),
);
const ActiveRegressModal = lazy(() =>
  import('../../features/reports/components/active-regress-modal').then((m) => ({
    default: m.ActiveRegressModal,
  })),
);

/** A 403 from any call makes the API client emit this event; abilities come from `self` (spec §4). */
function ReloadAbilitiesListener() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const reload = () => void queryClient.invalidateQueries({ queryKey: selfKeys.all });
    window.addEventListener(RELOAD_ABILITIES_EVENT, reload);
    return () => window.removeEventListener(RELOAD_ABILITIES_EVENT, reload);
  }, [queryClient]);
  return null;
}

/** Our messages are worded in the screen's language by the server: a new language reads them again. */
function LanguageListener() {
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  useEffect(() => {
    const reload = () => {
      void queryClient.invalidateQueries({ queryKey: selfKeys.all });
      void queryClient.invalidateQueries({ queryKey: messageKeys.all });
    };
    i18n.on('languageChanged', reload);
    return () => i18n.off('languageChanged', reload);
  }, [queryClient, i18n]);
  return null;
}

/** The signed-in part of the app, with the react-query client its screens fetch with. */
export function RootLayout() {
  return (
    <QueryScope>
      <ReloadAbilitiesListener />
      <LanguageListener />
      <Shell />
    </QueryScope>
  );
}

/**
 * The root layout of spec §2: loads `self` first behind the 50 px spinner, then shows the top menu,
 * the warning banners, the page and the blocking setup overlay.
 */
function Shell() {
  const { t } = useTranslation();
  const self = useSelf();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = useLogout();
  const [accountTab, setAccountTab] = useState<AccountTab | null>(null);
  const [regressOpen, setRegressOpen] = useState(false);

  const data = self.data;
  useEffect(() => {
    if (!data) return;
    // Shared state of spec §3: the user and messages persist; abilities and issuer stay in `self`.
    updateSession({ user: userSchema.parse(data), messages: data.messages });
  }, [data]);

  if (self.isPending) {
    return (
      <div className="page page--center page--full">
        <Spinner size="large" label={t('common:status.loading')} />
      </div>
    );
  }
  if (self.isError || !data) {
    return (
      <main className="page page--center page--full" role="alert">
        <h1 className="page__title">{t('common:errors.title')}</h1>
        <p>{errorText(t, self.error)}</p>
        <Button label={t('common:actions.retry')} onClick={() => void self.refetch()} />
      </main>
    );
  }

  function signOut() {
    const group = getSession().group;
    const finish = () => {
      clearSession();
      queryClient.clear();
      // Spec §4: back to the group login when a group is set, otherwise the plain login.
      void navigate(group ? paths.groupLogin.getHref(group.id) : paths.login.getHref(), { replace: true });
    };
    logout.mutate(undefined, { onSettled: finish });
  }

  async function onAction(action: MenuAction) {
    if (action === 'openActiveRegress') {
      setRegressOpen(true);
      return;
    }
    showBlockingLoader();
    await downloadActiveInvoices();
    hideBlockingLoader();
  }

  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('layout:skip_to_content')}
      </a>
      <TopMenu
        user={data}
        abilities={data.abilities}
        fortnoxSetting={data.fortnoxSetting}
        messages={data.messages}
        brand={data.group?.name ?? t('common:app.name')}
        onAction={(action) => void onAction(action)}
        onOpenAccount={() => setAccountTab('details')}
        onLogout={signOut}
      />
      <SetupBanners self={data} onOpenAccount={setAccountTab} />
      <main id="main" className="app-main" tabIndex={-1}>
        <AbilitiesContext.Provider value={data.abilities}>
          <Outlet />
        </AbilitiesContext.Provider>
        <SetupOverlay self={data} onOpenAccount={setAccountTab} />
      </main>
      <Suspense fallback={null}>
        {accountTab && (
          <AccountModal self={data} initialTab={accountTab} onClose={() => setAccountTab(null)} />
        )}
        {regressOpen && <ActiveRegressModal onClose={() => setRegressOpen(false)} />}
      </Suspense>
    </div>
  );
}
