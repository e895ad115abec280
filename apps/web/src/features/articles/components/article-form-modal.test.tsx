import type { Article, TaxRate } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecipientPickerProps } from '../../../components/ui/picker-slots';
import { i18next } from '../../../lib/i18n';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { ArticleFormModal } from './article-form-modal';

const ARTICLE: Article = {
  articleID: '2d3c7a4e-8f1b-4c2d-9e3f-0a1b2c3d4e5f',
  articleNumber: 'A-100',
  name: 'Konsulttimme',
  description: '',
  priceMinor: 123_450,
  currency: 'SEK',
  unit: 'h',
  vatBasisPoints: 2500,
  recipientID: null,
  recipientName: null,
  updated: '2026-03-02T10:00:00.000Z',
};

// One real server for the whole file; each test starts from the demo seed.
const api = startRealApi();
/** A demo recipient, the one the picker stand-in chooses. */
let demoRecipient: { recipientID: string; name: string };

beforeEach(async () => {
  await api.signIn('demo');
  const list = await api.call<{ items: { recipientID: string; name: string }[] }>(
    'GET',
    '/api/limited/recipients?sort=name&order=asc&pageSize=1',
  );
  demoRecipient = list.items[0] as { recipientID: string; name: string };
});

/** The recipients feature's chooser is handed in by the route; here a button stands in for it. */
function PickerStandIn({ label, value, onChange }: RecipientPickerProps) {
  return (
    <button
      type="button"
      onClick={() => onChange({ recipientID: demoRecipient.recipientID, name: 'Kund AB' })}
    >
      {label}: {value?.name ?? '-'}
    </button>
  );
}

const SE_RATES: TaxRate[] = [2500, 1200, 600, 0].map((rateBasisPoints) => ({ rateBasisPoints }));

function renderForm({
  article = null,
  taxRates = SE_RATES,
}: {
  article?: Article | null;
  taxRates?: TaxRate[];
} = {}) {
  const onSaved = vi.fn();
  renderWithProviders(
    <ArticleFormModal
      article={article}
      taxRates={taxRates}
      currency="SEK"
      RecipientPicker={PickerStandIn}
      onClose={() => undefined}
      onSaved={onSaved}
    />,
  );
  return { onSaved, user: userEvent.setup() };
}

const dialog = () => screen.getByRole('dialog');

async function fillRequired(user: ReturnType<typeof userEvent.setup>, price: string, labels = EN) {
  await user.type(screen.getByRole('textbox', { name: labels.number }), 'A-100');
  await user.type(screen.getByRole('textbox', { name: labels.name }), 'Konsulttimme');
  await user.type(screen.getByRole('textbox', { name: labels.price }), price);
}

const EN = { number: 'Article number', name: 'Name', price: 'Price (SEK)', save: 'Save' };
const SV = { number: 'Artikelnummer', name: 'Benämning', price: 'Pris (SEK)', save: 'Spara' };

describe('ArticleFormModal', () => {
  it('shows the rules of the contract and calls nothing', async () => {
    const { user } = renderForm();
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('This field is required.')).toHaveLength(3);
    expect(screen.getByRole('textbox', { name: 'Article number' })).toHaveAccessibleDescription(
      'This field is required.',
    );
    expect(screen.getByRole('textbox', { name: 'Price (SEK)' })).toHaveAccessibleDescription(
      'This field is required. Per unit, e.g. 1,234.50',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('reads a Swedish price "1 234,50" as 123450 öre and sends the body of the contract', async () => {
    await i18next.changeLanguage('sv-SE');
    const { user, onSaved } = renderForm();
    await fillRequired(user, '1 234,50', SV);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Enhet' }), 'h');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Moms' }), '1200');
    await user.click(screen.getByRole('button', { name: 'Kund: -' }));
    await user.click(within(dialog()).getByRole('button', { name: SV.save }));

    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledWith(
        expect.objectContaining({
          articleNumber: 'A-100',
          priceMinor: 123_450,
          recipientName: demoRecipient.name,
        }),
        true,
      ),
    );
    expect(api.calls[0]?.body).toEqual({
      articleNumber: 'A-100',
      name: 'Konsulttimme',
      description: '',
      priceMinor: 123_450,
      unit: 'h',
      vatBasisPoints: 1200,
      recipientID: demoRecipient.recipientID,
    });
  });

  it.each([
    ['1,234.50', 123_450],
    ['1234.5', 123_450],
    ['0.29', 29],
    ['-19.99', -1999],
  ])('reads the English price %j as %i cents', async (typed, minor) => {
    const { user, onSaved } = renderForm();
    await fillRequired(user, typed);
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const stored = await api.call<{ items: Article[] }>('GET', '/api/limited/articles?search=A-100');
    expect(stored.items[0]?.priceMinor).toBe(minor);
    expect(api.calls[0]?.body).toMatchObject({
      priceMinor: minor,
      unit: 'st',
      vatBasisPoints: 2500,
      recipientID: null,
    });
  });

  it.each([
    ['12,50', 'Enter the price as a number, e.g. 1,234.50.'],
    ['abc', 'Enter the price as a number, e.g. 1,234.50.'],
    ['1.005', 'The amount may have at most two decimals.'],
    ['20,000,000', 'The amount is too large.'],
  ])('refuses the English price %j', async (typed, message) => {
    const { user } = renderForm();
    await fillRequired(user, typed);
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('shows the VAT rates of self in Swedish as "25 %" with the first one chosen', async () => {
    await i18next.changeLanguage('sv-SE');
    renderForm();
    const vat = screen.getByRole('combobox', { name: 'Moms' });
    expect(
      within(vat)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['25\u00a0%', '12\u00a0%', '6\u00a0%', '0\u00a0%']);
    expect(vat).toHaveValue('2500');
  });

  it('shows a Finnish rate of 2550 basis points as "25,5 %"', async () => {
    await i18next.changeLanguage('fi-FI');
    renderForm({ taxRates: [2550, 1400, 1000, 0].map((rateBasisPoints) => ({ rateBasisPoints })) });
    const vat = screen.getByRole('combobox', { name: 'ALV' });
    expect(within(vat).getAllByRole('option')[0]?.textContent).toBe('25,5\u00a0%');
    expect(vat).toHaveValue('2550');
  });

  it('translates the unit names', async () => {
    renderForm();
    const units = within(screen.getByRole('combobox', { name: 'Unit' })).getAllByRole('option');
    expect(units.map((o) => o.textContent)).toEqual([
      'Piece (pcs)',
      'Hour (h)',
      'Kilometer (km)',
      'Package (pkg)',
      'Expense (exp.)',
    ]);
  });

  it('shows a duplicate article number on its field and keeps what was typed', async () => {
    await api.call('POST', '/api/limited/articles', {
      articleNumber: 'A-100',
      name: 'Befintlig',
      priceMinor: 100,
      unit: 'st',
      vatBasisPoints: 2500,
    });
    const { user, onSaved } = renderForm();
    await fillRequired(user, '1,234.50');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));

    const number = screen.getByRole('textbox', { name: 'Article number' });
    await waitFor(() =>
      expect(number).toHaveAccessibleDescription('An article with that article number already exists.'),
    );
    expect(number).toHaveFocus();
    expect(screen.getByText('The article could not be created.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Price (SEK)' })).toHaveValue('1,234.50');
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('opens an article with its price written in the language', async () => {
    renderForm({ article: ARTICLE });
    expect(screen.getByRole('heading', { name: 'Edit article' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Price (SEK)' })).toHaveValue('1,234.50');
    expect(screen.getByRole('combobox', { name: 'Unit' })).toHaveValue('h');
  });
});
