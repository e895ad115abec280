import type { InstallmentPlanDetail, Recipient } from '@portal/contracts';
import { approveInstallmentPlan } from '@portal/server/testing';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, type Location, Route, RouterProvider, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18next } from '../../lib/i18n';
import { dateField, typeDate } from '../../test/date-field';
import { startRealApi } from '../../test/real-api';
import { renderWithProviders, testQueryClient } from '../../test/render';
import InstallmentPlansRoute, {
  InstallmentPlanDetailRoute,
  InstallmentRegisterRoute,
} from './installment-plans';

// One real server for the whole file; each test starts from the demo seed.
const api = startRealApi();

/** An active plan: registered, signed on the e-signing sandbox's page and approved (the real paths). */
async function activePlan(description: string): Promise<InstallmentPlanDetail> {
  const plan = await registerPlan(description);
  await approveInstallmentPlan(api.server, plan.installmentPlanID, { identityNumber: SIGNEE.identityNumber });
  return plan;
}

beforeEach(async () => {
  await api.signIn('demo');
  await i18next.changeLanguage('en-US');
});

const SIGNEE = {
  name: 'Anna Andersson',
  identityNumber: '19811218-9876',
  email: 'anna@example.se',
  phone: '',
};

/** An amount in kronor as en-US shows it (the screen's space is a no-break one). */
const sek = (amount: string) => new RegExp(`^SEK\\s${amount.replace('.', '\\.')}$`);

async function firstRecipient(): Promise<Recipient> {
  const page = await api.call<{ items: Recipient[] }>('GET', '/api/limited/recipients?sort=name&order=asc');
  return page.items[0] as Recipient;
}

/** The first of the demo's plans in `state` (by its number): its id and its detail. */
async function firstPlanIn(state: number): Promise<{ id: string; plan: InstallmentPlanDetail }> {
  const list = await api.call<{ items: { installmentPlanID: string }[] }>(
    'GET',
    `/api/limited/installmentplans?state=${state}`,
  );
  const id = list.items[0]?.installmentPlanID ?? '';
  return { id, plan: await api.call<InstallmentPlanDetail>('GET', `/api/limited/installmentplans/${id}`) };
}

async function registerPlan(description: string): Promise<InstallmentPlanDetail> {
  const recipient = await firstRecipient();
  return api.call<InstallmentPlanDetail>('POST', '/api/limited/installmentplans', {
    description,
    recipientID: recipient.recipientID,
    currency: 'SEK',
    financedAmountMinor: 1_000_000,
    startDate: '2030-01-31',
    noOfInstallments: 3,
    monthlyFee: 0,
    initialFee: 10_000,
    administrationFee: 2_500,
    signees: [SIGNEE],
    securities: [],
  });
}

function renderPlans(path: string) {
  renderWithProviders(
    <Routes>
      <Route path="/installmentplans" element={<InstallmentPlansRoute />} />
      <Route path="/installmentplans/:id" element={<InstallmentPlanDetailRoute />} />
      <Route path="/installment/register" element={<InstallmentRegisterRoute />} />
    </Routes>,
    { path },
  );
}

describe('the installment plans (/installmentplans)', () => {
  it('lists, searches and filters by state, and a row opens the plan', async () => {
    const plan = await registerPlan('Köksrenovering Testvägen');
    renderPlans('/installmentplans');
    const user = userEvent.setup();
    const link = await screen.findByRole('link', { name: plan.loanNumber });
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('Köksrenovering Testvägen')).toBeInTheDocument();
    expect(within(row).getByText('Registered')).toBeInTheDocument();
    // 10 000 kr financed + 100 kr initial fee + 3 × 25 kr administration fee.
    expect(within(row).getAllByText(sek('10,175.00'))).toHaveLength(2);

    await user.selectOptions(screen.getByLabelText('Status'), 'Active');
    await waitFor(() => expect(screen.queryByRole('link', { name: plan.loanNumber })).toBeNull());
    await user.selectOptions(screen.getByLabelText('Status'), 'Registered');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'Testvägen');
    await user.click(await screen.findByRole('link', { name: plan.loanNumber }));
    expect(await screen.findByRole('heading', { level: 1, name: /Installment plan/ })).toBeInTheDocument();
  });

  it('shows a plan with its schedule, signees and actions, and cancels it', async () => {
    const plan = await registerPlan('Altan');
    renderPlans(`/installmentplans/${plan.installmentPlanID}`);
    const user = userEvent.setup();
    const schedule = await screen.findByRole('table', { name: 'Payment schedule' });
    const rows = within(schedule).getAllByRole('row');
    // Header, three installments, the totals; the principal's rest goes to the last installment.
    expect(rows).toHaveLength(5);
    expect(within(rows[1] as HTMLElement).getByText('Feb 28, 2030')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText(sek('3,458.33'))).toBeInTheDocument();
    expect(within(rows[3] as HTMLElement).getByText(sek('3,358.34'))).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('Not invoiced yet')).toBeInTheDocument();
    expect(within(rows[4] as HTMLElement).getByText(sek('10,175.00'))).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: SIGNEE.name })).toBeInTheDocument();
    expect(screen.getByText('No securities.')).toBeInTheDocument();

    // Sending for signing goes to the e-signing provider's sandbox, which the Playwright journey
    // (e2e/installment-plans.spec.ts) reaches; here the registered plan's actions and the cancel.
    expect(screen.getByRole('button', { name: 'Send for signing' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download signed agreement' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel plan' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel the installment plan?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel plan' }));
    expect(await screen.findByText('The installment plan has been cancelled.')).toBeInTheDocument();
    expect(screen.getByText('Nothing can be done to the plan in its current status.')).toBeInTheDocument();
    expect(screen.getByText('Cancelled', { selector: '.timeline__event' })).toBeInTheDocument();
    const stored = await api.call<InstallmentPlanDetail>(
      'GET',
      `/api/limited/installmentplans/${plan.installmentPlanID}`,
    );
    expect(stored.state).toBe(4);
  });

  it('registers a plan from the form with its live schedule, once per form', async () => {
    const recipient = await firstRecipient();
    renderPlans('/installment/register');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Register installment plan' });
    expect(screen.getByText(/Fill in the amount/)).toBeInTheDocument();

    await user.type(screen.getByRole('combobox', { name: /Buyer/ }), recipient.name.slice(0, 5));
    await user.click(await screen.findByRole('option', { name: new RegExp(recipient.name) }));
    await user.type(screen.getByLabelText(/Description/), 'Solpaneler');
    await user.type(screen.getByLabelText(/Financed amount/), '10,000');
    await typeDate(user, dateField(/Start date/), '2030-01-31');
    await user.clear(screen.getByLabelText(/Number of installments/));
    await user.type(screen.getByLabelText(/Number of installments/), '3');
    await user.type(screen.getByLabelText(/Initial fee/), '100');
    await user.type(screen.getByLabelText(/Administration fee/), '25');
    const preview = await screen.findByTestId('live-schedule');
    expect(within(preview).getAllByRole('row')).toHaveLength(5);
    expect(within(preview).getByText(sek('10,175.00'))).toBeInTheDocument();
    expect(within(preview).getByText(sek('3,358.34'))).toBeInTheDocument();

    // The signee's rows, then the import makes the signee a security as well.
    await user.type(screen.getByLabelText(/^Name/), SIGNEE.name);
    await user.type(screen.getByLabelText(/^Personal or organisation number/), SIGNEE.identityNumber);
    await user.type(screen.getByLabelText(/^E-mail/), SIGNEE.email);
    await user.click(screen.getByRole('button', { name: 'Import signees as securities' }));
    expect(screen.getAllByLabelText(/^Name/)).toHaveLength(2);

    const calls = api.calls;
    await user.click(screen.getByRole('button', { name: 'Register plan' }));
    expect(await screen.findByText(/The installment plan is registered/)).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/limited/installmentplans');
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(post?.body).toMatchObject({
      financedAmountMinor: 1_000_000,
      initialFee: 10_000,
      noOfInstallments: 3,
    });
    expect(screen.getByText('Solpaneler')).toBeInTheDocument();
  });

  it('shows a signee who signed as "Signed <date>", the word once (the demo’s signed plan)', async () => {
    const { id, plan } = await firstPlanIn(9);
    const signee = plan.signees[0];
    if (!signee?.signedAt) throw new Error('the demo’s signed plan has no signed signee');
    renderPlans(`/installmentplans/${id}`);
    const row = (await screen.findByRole('rowheader', { name: signee.name })).closest('tr') as HTMLElement;
    const status = row.lastElementChild?.textContent ?? '';
    expect(status).toMatch(/^Signed \S/);
    expect(status.match(/Signed/g)).toHaveLength(1);
    expect(within(row).queryByRole('link', { name: 'Open signing' })).toBeNull();
  });

  it('offers the signee’s signing page while the plan waits for signing (the demo’s plan sent for signing)', async () => {
    // Sending is the e-signing sandbox's (the Playwright journey's); the demo seed has a plan waiting.
    const { id, plan } = await firstPlanIn(8);
    const link = plan.signees[0]?.signingLink;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\//);
    renderPlans(`/installmentplans/${id}`);
    const open = await screen.findByRole('link', { name: 'Open signing' });
    expect(open.getAttribute('href')).toBe(link);
    expect(open.getAttribute('target')).toBe('_blank');
    expect(screen.getByText('Waiting for signature')).toBeInTheDocument();
  });

  it('says "registered" on arrival from the form only, not again after a reload', async () => {
    const plan = await registerPlan('Carport');
    const path = `/installmentplans/${plan.installmentPlanID}`;
    // A reload opens the same history entry again, its state included: the page must have taken the
    // notice out of it.
    const open = (entry: Partial<Location>) => {
      const router = createMemoryRouter(
        [{ path: '/installmentplans/:id', element: <InstallmentPlanDetailRoute /> }],
        { initialEntries: [entry] },
      );
      const view = render(
        <I18nextProvider i18n={i18next}>
          <QueryClientProvider client={testQueryClient()}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </I18nextProvider>,
      );
      return { router, view };
    };
    const first = open({ pathname: path, state: { notice: 'registered' } });
    expect(await screen.findByText(/The installment plan is registered/)).toBeInTheDocument();
    await waitFor(() => expect(first.router.state.location.state).toBeNull());
    // Still said on the page that was arrived at.
    expect(screen.getByText(/The installment plan is registered/)).toBeInTheDocument();
    const entry = first.router.state.location;
    first.view.unmount();
    open(entry);
    await screen.findByRole('table', { name: 'Payment schedule' });
    expect(screen.queryByText(/The installment plan is registered/)).toBeNull();
  });

  it('refuses an empty form on its fields and warns of a start date in the past', async () => {
    renderPlans('/installment/register');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Register installment plan' });
    await typeDate(user, dateField(/Start date/), '2020-01-15');
    expect(await screen.findByTestId('start-date-warning')).toHaveTextContent(/start date has passed/);
    await user.click(screen.getByRole('button', { name: 'Register plan' }));
    expect(await screen.findByText('Please check the marked fields.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/limited/installmentplans')).toBe(
      false,
    );
  });

  it('offers an active plan’s replacement on its page, which opens the form filled from it', async () => {
    const old = await activePlan('Värmepump');

    // The active plan's page offers its replacement.
    renderPlans(`/installmentplans/${old.installmentPlanID}`);
    const replace = await screen.findByRole('link', { name: 'Replace plan' });
    expect(replace).toHaveAttribute('href', `/installment/register?replaces=${old.installmentPlanID}`);
    expect(screen.getByText('Open principal')).toBeInTheDocument();

    // The link opens the form as this plan's replacement, its terms taken over.
    await userEvent.setup().click(replace);
    await screen.findByRole('heading', { level: 1, name: 'Register installment plan' });
    await waitFor(() => expect(screen.getByLabelText(/Financed amount/)).toHaveValue('10,000.00'));
    expect(screen.getByLabelText('Replaces plan')).toHaveValue(old.installmentPlanID);
    // Signing on the sandbox and the approval take a few seconds of their own.
  }, 40_000);

  it('fills the replacing plan from the chosen plan and shows the server’s refusal of another amount', async () => {
    const old = await activePlan('Värmepump');
    const recipient = await firstRecipient();
    renderPlans('/installment/register');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Register installment plan' });
    const choice = screen.getByLabelText('Replaces plan');
    const option = await within(choice).findByRole('option', { name: new RegExp(old.loanNumber) });
    expect(option).toHaveTextContent(`${old.loanNumber} · ${recipient.name} · Active`);
    await user.selectOptions(choice, option);
    // The open principal of the active plan, nothing invoiced yet: the whole 10 000 kr.
    await waitFor(() => expect(screen.getByLabelText(/Financed amount/)).toHaveValue('10,000.00'));
    expect(screen.getByRole('combobox', { name: /Buyer/ })).toHaveValue(recipient.name);
    expect(screen.getByTestId('replaces-hint')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/Description/), 'Värmepump, ny plan');
    await typeDate(user, dateField(/Start date/), '2030-03-31');
    await user.type(screen.getByLabelText(/^Name/), SIGNEE.name);
    await user.type(screen.getByLabelText(/^Personal or organisation number/), SIGNEE.identityNumber);
    await user.type(screen.getByLabelText(/^E-mail/), SIGNEE.email);

    // One öre off: the server refuses it, and the form says so at the amount.
    await user.clear(screen.getByLabelText(/Financed amount/));
    await user.type(screen.getByLabelText(/Financed amount/), '9,999.99');
    await user.click(screen.getByRole('button', { name: 'Register plan' }));
    const refusal = 'The financed amount must be exactly the open principal of the plan it replaces.';
    expect(await screen.findByText(refusal, { selector: '.field__error' })).toBeInTheDocument();
    expect(screen.getByText('The plan could not be registered.').closest('[role="alert"]')).toHaveTextContent(
      refusal,
    );
    expect(screen.getByLabelText(/Financed amount/)).toHaveAttribute('aria-invalid', 'true');

    await user.clear(screen.getByLabelText(/Financed amount/));
    await user.type(screen.getByLabelText(/Financed amount/), '10,000');
    await user.click(screen.getByRole('button', { name: 'Register plan' }));
    expect(await screen.findByText(/The installment plan is registered/)).toBeInTheDocument();
    const posts = api.calls.filter((c) => c.method === 'POST' && c.path === '/api/limited/installmentplans');
    expect(posts.at(-1)?.body).toMatchObject({
      replacesPlanID: old.installmentPlanID,
      recipientID: recipient.recipientID,
      financedAmountMinor: 1_000_000,
    });
    // The new plan's page links to the plan it replaces, by its loan number.
    expect(await screen.findByRole('link', { name: `Plan ${old.loanNumber}` })).toHaveAttribute(
      'href',
      `/installmentplans/${old.installmentPlanID}`,
    );
  }, 60_000);
});
