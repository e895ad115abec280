import { ABILITIES, type Ability, REPORT_ABILITIES } from '@portal/contracts';
import { setAbilities } from '@portal/server/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import posthog from 'posthog-js';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { initAnalytics, resetAnalyticsForTests } from '../../lib/analytics';
import { i18next } from '../../lib/i18n';
import { startRealApi } from '../../test/real-api';
import { renderApp } from '../../test/render';

// The menu's two report downloads (spec §2) through the whole shell, against the real server.
const api = startRealApi();

const ACTIVE_INVOICES = '/api/limited/reports/activeInvoices';
const ACTIVE_REGRESS = '/api/limited/reports/activeRegress';

/** Every ability but the two that open the reports. */
const WITHOUT_REPORTS: Ability[] = ABILITIES.filter(
  (a) => !(REPORT_ABILITIES as readonly Ability[]).includes(a),
);

let capture: MockInstance<typeof posthog.capture>;
let saved: { name: string; blob: Blob }[];

beforeEach(async () => {
  // posthog's servers cannot be reached here: its init and capture are replaced at the library's edge,
  // so our wrapper (lib/analytics.ts) runs as it does in the browser.
  resetAnalyticsForTests();
  vi.spyOn(posthog, 'init').mockImplementation(() => posthog);
  capture = vi.spyOn(posthog, 'capture').mockImplementation(() => undefined);
  await initAnalytics('phc_test_key');

  // The browser's save: jsdom has no object URLs and does not download on a click.
  saved = [];
  let lastBlob: Blob | undefined;
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    lastBlob = blob as Blob;
    return 'blob:test';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (lastBlob) saved.push({ name: this.download, blob: lastBlob });
  });

  await api.signIn('demo');
});

afterEach(() => resetAnalyticsForTests());

/**
 * The shell of a signed-in user, once the home page has mounted and every call has answered: the
 * home page reads `self` again when it mounts, and an answer still on its way when a test withdraws
 * abilities on the server would already lack them.
 */
async function openShell() {
  const { queryClient } = renderApp('/');
  const nav = await screen.findByRole('navigation', { name: i18next.t('layout:menu.label') });
  await screen.findByRole('heading', { level: 1 });
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return nav;
}

async function chooseFromReports(nav: HTMLElement, entry: string) {
  const user = userEvent.setup();
  const trigger = within(nav).getByRole('button', { name: i18next.t('layout:menu.reports') });
  // The page under the shell is still loading when the menu first shows; on a loaded machine its
  // late render can close the dropdown again, so open it until the entry stands (as a person would).
  const item = await waitFor(
    async () => {
      if (trigger.getAttribute('aria-expanded') !== 'true') await user.click(trigger);
      return within(nav).getByRole('button', { name: entry });
    },
    { timeout: 10_000 },
  );
  await user.click(item);
}

/** The answer the server gave to the page's call of `path` (the real-api fetch keeps it). */
async function answerTo(path: string): Promise<Response> {
  const fetchMock = vi.mocked(fetch);
  const index = fetchMock.mock.calls.findIndex(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );
  if (index < 0) throw new Error(`no call of ${path}`);
  return (await fetchMock.mock.results[index]?.value) as Response;
}

/** The name a Content-Disposition header gives (its UTF-8 `filename*`, as the server writes it). */
function nameIn(disposition: string | null): string {
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition ?? '')?.[1];
  if (!encoded) throw new Error(`no file name in ${disposition}`);
  return decodeURIComponent(encoded);
}

const failureEvents = () => capture.mock.calls.filter(([event]) => event === 'report_download_failed');

/** Nothing tells the user: no dialog, no alert, no error text (spec §8: the failure is silent). */
async function expectNothingShown() {
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
  const page = document.body.textContent ?? '';
  for (const key of ['errors:client.generic', 'errors:auth.forbidden', 'errors:server.internal'])
    expect(page).not.toContain(i18next.t(key));
}

describe('download active invoices (spec §7, §8)', () => {
  it('saves the file under the name of the content-disposition header', async () => {
    const nav = await openShell();
    await chooseFromReports(nav, i18next.t('layout:menu.active_invoices_download'));
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });

    const answer = await answerTo(ACTIVE_INVOICES);
    expect(answer.status).toBe(200);
    const name = nameIn(answer.headers.get('content-disposition'));
    expect(saved[0]?.name).toBe(name);
    // The server names the file in the user's stored language (none for demo: Swedish), not the
    // web's fallback name.
    expect(name).toMatch(/^aktiva-fakturor-\d{4}-\d{2}-\d{2}\.xlsx$/);
    // An Excel workbook is a zip archive.
    expect((await saved[0]?.blob.text())?.startsWith('PK')).toBe(true);
    expect(failureEvents()).toEqual([]);
  });

  it('sends the failure analytics event and shows nothing when the server refuses the file', async () => {
    const nav = await openShell();
    // The report abilities are withdrawn while the menu still shows the entry: the server answers 403.
    await setAbilities(api.server.db, 'demo', WITHOUT_REPORTS);
    await chooseFromReports(nav, i18next.t('layout:menu.active_invoices_download'));

    await waitFor(() =>
      expect(failureEvents()).toEqual([['report_download_failed', { report: 'active_invoices' }]]),
    );
    const answer = await answerTo(ACTIVE_INVOICES);
    expect(answer.status).toBe(403);
    expect(saved).toEqual([]);
    await expectNothingShown();
  });
});

describe('download active recourse (spec §7, §8)', () => {
  async function downloadRegress(nav: HTMLElement) {
    await chooseFromReports(nav, i18next.t('layout:menu.active_regress_download'));
    const dialog = await screen.findByRole('dialog', { name: i18next.t('layout:regress.title') });
    const user = userEvent.setup();
    await user.click(
      within(dialog).getByRole('radio', { name: i18next.t('layout:regress.file_types.excel') }),
    );
    await user.click(within(dialog).getByRole('button', { name: i18next.t('layout:regress.download') }));
  }

  it('saves the file under the name of the content-disposition header', async () => {
    const nav = await openShell();
    await downloadRegress(nav);
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });

    const answer = await answerTo(ACTIVE_REGRESS);
    expect(answer.status).toBe(200);
    const call = api.calls.find((c) => c.path === ACTIVE_REGRESS);
    const [from, to] = [call?.query.get('from'), call?.query.get('to')];
    expect(call?.query.get('fileType')).toBe('excel');
    const name = nameIn(answer.headers.get('content-disposition'));
    expect(saved[0]?.name).toBe(name);
    expect(name).toBe(`aktiv-regress-${from}-${to}.xlsx`);
    expect((await saved[0]?.blob.text())?.startsWith('PK')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('fails silently: no message and no failure event when the server refuses the file', async () => {
    const nav = await openShell();
    await setAbilities(api.server.db, 'demo', WITHOUT_REPORTS);
    await downloadRegress(nav);

    await waitFor(() => expect(api.calls.some((c) => c.path === ACTIVE_REGRESS)).toBe(true));
    const answer = await answerTo(ACTIVE_REGRESS);
    expect(answer.status).toBe(403);
    // The modal closes as after a download, and nothing else happens.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(saved).toEqual([]);
    await expectNothingShown();
    expect(failureEvents()).toEqual([]);
  });
});
