import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session-store';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import type { InvoiceFile } from '../api/upload-file';
import { PdfFiles } from './file-picker';

// One real server for the whole file; each test starts from the demo seed.
const api = startRealApi();

beforeEach(async () => {
  await api.signIn('demo');
});

function Harness({ onIDs }: { onIDs: (ids: string[]) => void }) {
  const [files, setFiles] = useState<InvoiceFile[]>([]);
  return (
    <PdfFiles
      fileRole="attachment"
      label="Attach PDF files"
      files={files}
      max={10}
      onChange={(next) => {
        setFiles(next);
        onIDs(next.map((f) => f.fileID));
      }}
    />
  );
}

const pdf = async (name: string) =>
  new File([(await api.demoPdf()) as BlobPart], name, { type: 'application/pdf' });

describe('the PDF attachments of the invoice form', () => {
  it('uploads a chosen PDF as the raw body, lists it with its size and removes it again', async () => {
    const file = await pdf('contract.pdf');
    let ids: string[] = [];
    renderWithProviders(<Harness onIDs={(next) => (ids = next)} />);
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Attach PDF files'), file);
    // The chosen name shows beside the button while it uploads, then in the list of stored files.
    const list = await screen.findByRole('list', { name: 'Attach PDF files' });
    expect(within(list).getByText('contract.pdf')).toBeInTheDocument();
    expect(screen.getByLabelText('Attach PDF files', { selector: 'input' })).toHaveAccessibleDescription(
      'No file chosen',
    );
    expect(within(list).getByText(`${Math.round(file.size / 1024)} kB`)).toBeInTheDocument();
    expect(ids).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    // The server stored the very bytes: it gives them back under the id.
    const back = await api.server.app.inject({
      method: 'GET',
      url: `/api/limited/files/${ids[0]}`,
      headers: { authorization: `Bearer ${getSession().token}` },
    });
    expect(back.rawPayload.length).toBe(file.size);
    const upload = api.calls.find((c) => c.method === 'POST');
    expect(upload?.query.get('role')).toBe('attachment');
    expect(upload?.query.get('filename')).toBe('contract.pdf');
    expect(upload?.headers['content-type']).toBe('application/pdf');
    const init = vi.mocked(fetch).mock.calls[0]?.[1];
    expect(init?.body).toBeInstanceOf(Blob);
    await user.click(screen.getByRole('button', { name: 'Remove contract.pdf' }));
    expect(screen.queryByText('contract.pdf')).not.toBeInTheDocument();
    expect(ids).toEqual([]);
  });

  it('refuses a file that is not a PDF before uploading it', async () => {
    renderWithProviders(<Harness onIDs={() => undefined} />);
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(
      screen.getByLabelText('Attach PDF files'),
      new File(['hello'], 'notes.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'notes.pdf: Only PDF files are allowed as an invoice or attachment.',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('shows the server refusal of a file that only starts like a PDF', async () => {
    renderWithProviders(<Harness onIDs={() => undefined} />);
    const user = userEvent.setup();
    await user.upload(
      screen.getByLabelText('Attach PDF files'),
      new File(['%PDF-1.7\n1 0 obj\n'], 'broken.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'broken.pdf: Only PDF files are allowed as an invoice or attachment.',
    );
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('refuses a file over 10 MB before uploading it', async () => {
    renderWithProviders(<Harness onIDs={() => undefined} />);
    const user = userEvent.setup();
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(new TextEncoder().encode('%PDF-1.7\n'));
    await user.upload(
      screen.getByLabelText('Attach PDF files'),
      new File([big as BlobPart], 'big.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'big.pdf: The file is too large. The largest allowed size is 10 MB.',
    );
    expect(api.calls).toHaveLength(0);
  });
});
