import type { Message } from '@portal/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { invoiceIDOf, MessagesPage } from './messages-page';

describe('the messages page (/invoice/messages)', () => {
  const api = startRealApi();

  beforeEach(async () => {
    await api.signIn('demo');
  });

  it('lists one invoice’s messages, marks an opened unread one read and reads the list again', async () => {
    // The demo seed's thread of invoice 10037: our reminder (unread) and Dana's own answer, which is
    // never unread for her; the count above the list is the thread's.
    const invoice = await api.invoiceID('10037');
    renderWithProviders(<MessagesPage invoiceID={invoice} canViewInvoice={false} />);
    expect(await screen.findByRole('heading', { name: 'Messages about invoice 10037' })).toBeInTheDocument();
    expect(screen.getByText('1 unread message')).toBeInTheDocument();
    expect(screen.getAllByText('Unread')).toHaveLength(1);
    expect(api.calls[0]?.query.get('invoiceID')).toBe(invoice);
    // Our notice comes worded in the screen's language (the client sends it as Accept-Language).
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Invoice 10037: payment reminder sent/ }));
    expect(
      screen.getByText(/has not paid invoice 10037 on time\. We have sent a first reminder\./),
    ).toBeInTheDocument();
    expect(await screen.findByText('0 unread messages')).toBeInTheDocument();
    expect(screen.queryByText('Unread')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    const after = await api.call<{ items: Message[]; unread: number }>(
      'GET',
      `/api/limited/messages?invoiceID=${invoice}`,
    );
    expect(after.items.filter((m) => !m.read)).toEqual([]);
    expect(after.unread).toBe(0);
  });

  it('checks the contract rules, then writes a message about the invoice', async () => {
    const invoice = await api.invoiceID('10005');
    renderWithProviders(<MessagesPage invoiceID={invoice} canViewInvoice={false} />);
    expect(await screen.findByText('There are no messages.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findAllByText('This field is required.')).toHaveLength(2);
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(screen.getByLabelText(/Subject/), 'Delivery');
    await user.type(screen.getByLabelText(/^Message/), 'Sent yesterday.');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Your message has been sent.')).toBeInTheDocument();
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ invoiceID: invoice, title: 'Delivery', message: 'Sent yesterday.' });
    await waitFor(() => expect(screen.getByLabelText(/Subject/)).toHaveValue(''));
    const stored = await api.call<{ items: Message[] }>('GET', `/api/limited/messages?invoiceID=${invoice}`);
    expect(stored.items).toEqual([
      expect.objectContaining({ title: 'Delivery', message: 'Sent yesterday.', invoiceNumber: '10005' }),
    ]);
    // The page shows what the server stored once it reads the list again.
    expect(await screen.findByRole('button', { name: /Delivery/ })).toBeInTheDocument();
  });

  it('reads only a well-formed invoice id from the address', () => {
    const id = '7e0c1f5a-0d1e-4a57-9d33-2f0e6f0e9b10';
    expect(invoiceIDOf(id)).toBe(id);
    expect(invoiceIDOf('7')).toBeNull();
    expect(invoiceIDOf(null)).toBeNull();
  });
});
