import { expect, test } from '@playwright/test';
import type { DebtClaimDetail, ListDebtClaimsResponse } from '@portal/contracts';
import { formatMoney } from '@portal/domain/money';
import { fillLoginIn, LOGIN_WORDS } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

/**
 * Issue #16: Sjöberg Snickeri AB (`demo-debt`) had charge backs that no payouts covered; the daily job
 * claimed the debt and the company paid it by BGMAX (the demo seed, docs/MONEY.md "Debt claims"). The
 * customer sees on the dashboard what it owes us apart from what we owe it, and under transfer costs
 * the claim's statement, paid.
 */
const LANGUAGES = [
  {
    ...LOGIN_WORDS['sv-SE'],
    owedByYou: 'Det du är skyldig oss',
    owedToYou: 'Det vi är skyldiga dig',
    section: 'Det du är skyldig oss',
    open: 'Visa fordran',
    claim: 'Fordran',
    rows: 'Rader i fordran',
    chargeBack: 'Återköp',
    paid: 'Betald',
    paidInFull: 'Betald i sin helhet',
    payments: 'Mottagna betalningar',
    close: 'Stäng',
  },
  {
    ...LOGIN_WORDS['fi-FI'],
    owedByYou: 'Velkasi meille',
    owedToYou: 'Velkamme sinulle',
    section: 'Velkasi meille',
    open: 'Näytä saatava',
    claim: 'Saatava',
    rows: 'Saatavan',
    chargeBack: 'Takaisinveloitus',
    paid: 'Maksettu',
    paidInFull: 'Maksettu kokonaan',
    payments: 'Saadut maksut',
    close: 'Sulje',
  },
] as const;

for (const l of LANGUAGES) {
  test(`a customer whose debt we claimed sees it on the dashboard and its paid statement under transfer costs (${l.lang})`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await fillLoginIn(page, l, 'demo-debt');
    await page.getByRole('button', { name: l.submit }).click();

    // The dashboard: what we owe it and what it owes us, apart; the claim is paid, so nothing is owed.
    const balance = page.getByTestId('dashboard-balance');
    await expect(balance).toBeVisible();
    const money = (minor: number) => formatMoney(minor, 'SEK', l.lang);
    await expect(balance).toContainText(l.owedToYou);
    await expect(balance).toContainText(`${l.owedByYou}${money(0)}`);

    const listed = page.waitForResponse((r) => r.url().endsWith('/api/limited/debtclaims') && r.ok());
    await page.goto('/transfercosts');
    const { items } = (await (await listed).json()) as ListDebtClaimsResponse;
    const [claim] = items;
    if (!claim) throw new Error('the demo has no debt claim');
    expect(claim.state).toBe('paid');
    const section = page.getByRole('region', { name: l.section });
    await expect(section).toBeVisible();
    const openName = `${l.open} ${claim.number}`;
    const row = section.getByRole('row').filter({ has: page.getByRole('button', { name: openName }) });
    await expect(row).toContainText(money(claim.amountMinor));
    await expect(row).toContainText(l.paid);

    const statement = page.waitForResponse(
      (r) => r.url().endsWith(`/api/limited/debtclaims/${claim.claimID}`) && r.ok(),
    );
    await section.getByRole('button', { name: openName }).click();
    const detail = (await (await statement).json()) as DebtClaimDetail;
    const dialog = page.getByRole('dialog', { name: `${l.claim} ${claim.number}` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(l.paidInFull);
    await expect(dialog.getByTestId('debt-claim-facts')).toContainText(claim.ocr);
    await expect(dialog.getByTestId('debt-claim-facts')).toContainText('5050-1055');
    const rows = dialog.getByRole('table', { name: new RegExp(`^${l.rows}`) });
    for (const r of detail.rows) {
      const line = rows.getByRole('row', { name: new RegExp(`^${r.invoiceNumber}\\b`) });
      await expect(line).toContainText(l.chargeBack);
      await expect(line).toContainText(r.recipientName);
      await expect(line).toContainText(money(r.netMinor));
    }
    const paid = dialog.getByRole('table', { name: l.payments });
    await expect(paid.getByRole('row')).toHaveCount(detail.payments.length + 1);
    expect(detail.payments.reduce((s, p) => s + p.amountMinor, 0)).toBe(claim.amountMinor);
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, testInfo, `debt-claim-statement-${l.lang}`);
    await dialog.getByRole('button', { name: l.close }).last().click();
    await expect(dialog).toBeHidden();
  });
}
