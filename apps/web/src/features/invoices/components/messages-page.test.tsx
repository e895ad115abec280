import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { invoiceIDOf, MessagesPage } from './messages-page';

const INVOICE = '7e0c1f5a-0d1e-4a57-9d33-2f0e6f0e9b10';

function message(overrides: object = {}) {
  return {
    messageID: 'm1',
    messageType: 'message',
    authorID: null,
    invoiceID: INVOICE,
    invoiceNumber: '5001',
    author: 'Acme Finans',
    date: '2026-03-03T14:30:00.000Z',
    title: 'Question about 5001',
    message: 'Please send the delivery note.',
    read: false,
    ...overrides,
  };
}

describe('the messages page (/invoice/messages)', () => {
  it('lists one invoice’s messages, marks an opened unread one read and reads the list again', async () => {
    let read = false;
    const api = installFakeApi({
      'GET /api/limited/messages': () => ({
        status: 200,
        body: { items: [message({ read })], total: 1, page: 1, pageSize: 25, unread: read ? 0 : 1 },
      }),
      'POST /api/limited/messages/m1/read': () => {
        read = true;
        return { status: 200, body: { ok: true } };
      },
    });
    renderWithProviders(<MessagesPage invoiceID={INVOICE} canViewInvoice={false} />);
    expect(await screen.findByRole('heading', { name: 'Messages about invoice 5001' })).toBeInTheDocument();
    expect(screen.getByText('1 unread message')).toBeInTheDocument();
    expect(api.calls[0]?.query.get('invoiceID')).toBe(INVOICE);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Question about 5001/ }));
    expect(screen.getByText('Please send the delivery note.')).toBeInTheDocument();
    expect(await screen.findByText('0 unread messages')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.queryByText('Unread')).not.toBeInTheDocument();
  });

  it('checks the contract rules, then writes a message about the invoice', async () => {
    const api = installFakeApi({
      'GET /api/limited/messages': () => ({
        status: 200,
        body: { items: [], total: 0, page: 1, pageSize: 25, unread: 0 },
      }),
      'POST /api/limited/messages': (request) => ({
        status: 200,
        body: message({ ...(request.body as object), messageID: 'm2', read: true }),
      }),
    });
    renderWithProviders(<MessagesPage invoiceID={INVOICE} canViewInvoice={false} />);
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
    expect(post?.body).toEqual({ invoiceID: INVOICE, title: 'Delivery', message: 'Sent yesterday.' });
    await waitFor(() => expect(screen.getByLabelText(/Subject/)).toHaveValue(''));
  });

  it('reads only a well-formed invoice id from the address', () => {
    expect(invoiceIDOf(INVOICE)).toBe(INVOICE);
    expect(invoiceIDOf('7')).toBeNull();
    expect(invoiceIDOf(null)).toBeNull();
  });
});
