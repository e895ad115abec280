import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import type { InvoiceFile } from '../api/upload-file';
import { PdfFiles } from './file-picker';

const FILE_ID = '3c1f8e2a-6b7d-4e59-8a21-9f0d4c3b2a10';

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

const pdf = (name: string) => new File(['%PDF-1.7\n1 0 obj\n'], name, { type: 'application/pdf' });

describe('the PDF attachments of the invoice form', () => {
  it('uploads a chosen PDF as the raw body, lists it with its size and removes it again', async () => {
    const api = installFakeApi({
      'POST /api/limited/files': (request) => ({
        status: 200,
        body: {
          fileID: FILE_ID,
          role: request.query.get('role'),
          filename: request.query.get('filename'),
          size: 3072,
          sha256: 'abc',
        },
      }),
    });
    let ids: string[] = [];
    renderWithProviders(<Harness onIDs={(next) => (ids = next)} />);
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Attach PDF files'), pdf('contract.pdf'));
    expect(await screen.findByText('contract.pdf')).toBeInTheDocument();
    expect(screen.getByText('3 kB')).toBeInTheDocument();
    expect(ids).toEqual([FILE_ID]);
    const upload = api.calls.find((c) => c.method === 'POST');
    expect(upload?.query.get('role')).toBe('attachment');
    expect(upload?.query.get('filename')).toBe('contract.pdf');
    expect(upload?.headers['Content-Type']).toBe('application/pdf');
    const init = api.fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBeInstanceOf(Blob);
    await user.click(screen.getByRole('button', { name: 'Remove contract.pdf' }));
    expect(screen.queryByText('contract.pdf')).not.toBeInTheDocument();
    expect(ids).toEqual([]);
  });

  it('refuses a file that is not a PDF before uploading it', async () => {
    const api = installFakeApi({});
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

  it('shows the server refusal translated', async () => {
    installFakeApi({
      'POST /api/limited/files': () => ({ status: 413, body: { code: 'files.too_large' } }),
    });
    renderWithProviders(<Harness onIDs={() => undefined} />);
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Attach PDF files'), pdf('big.pdf'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'big.pdf: The file is too large. The largest allowed size is 10 MB.',
    );
  });
});
