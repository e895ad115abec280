import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/support/rejection';
import { samplePdf } from '../../../test/support/sample-pdf';
import {
  createESigningClient,
  type ESigningClient,
  ESigningError,
  personalAccessHeader,
  type ScriveDocument,
} from './e-signing.client';
import { type ESigningSandbox, startESigningSandbox } from './e-signing.sandbox';

/**
 * The real client against the sandbox over HTTP (shared/domain/e-signing.md): the Document API's calls
 * as the client sends them (multipart upload, the form field `document`, PLAINTEXT credentials), the
 * statuses, Scrive's error bodies, retries of 429 and 5xx, and the sandbox's own checks.
 */

const CREDENTIALS = {
  apiToken: 'a1b2c3d4e5f6a7b8_101',
  apiSecret: 'c47b87126dsacbhb',
  accessToken: '2d1287dassg22jke_114',
  accessSecret: '12876adsdhght665',
};

let sandbox: ESigningSandbox;
let client: ESigningClient;
const sleeps: number[] = [];

function makeClient(extra: Partial<Parameters<typeof createESigningClient>[0]> = {}) {
  return createESigningClient({
    apiUrl: sandbox.apiUrl,
    ...CREDENTIALS,
    timeoutMs: 2000,
    backoffMs: 5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
}

const failureOf = (p: Promise<unknown>) => rejectionOf(p, ESigningError);

/** A new document with one signee (api delivery, Swedish BankID) and our account as a viewer. */
async function preparedDocument(): Promise<ScriveDocument> {
  const created = await client.createDocument(await samplePdf(), 'avtal.pdf');
  const author = created.parties[0];
  if (!author) throw new Error('no author');
  return client.updateDocument({
    ...created,
    title: 'Avbetalningsplan 1001',
    parties: [
      { ...author, signatory_role: 'viewer' },
      {
        signatory_role: 'signing_party',
        delivery_method: 'api',
        authentication_method_to_sign: 'se_bankid',
        fields: [
          { type: 'name', order: 1, value: 'Anna' },
          { type: 'name', order: 2, value: 'Andersson' },
          { type: 'personal_number', value: '19811218-9876' },
        ],
      },
    ],
  });
}

beforeAll(async () => {
  sandbox = await startESigningSandbox({ ...CREDENTIALS });
  client = makeClient();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.setFailures([]);
  sleeps.length = 0;
});

describe('personal access credentials', () => {
  it('are sent as Scrive documents them: PLAINTEXT, consumer key, token, "apisecret&accesssecret"', () => {
    expect(
      personalAccessHeader({ apiToken: '123', apiSecret: 'abc', accessToken: '456', accessSecret: 'cde' }),
    ).toBe(
      'oauth_signature_method="PLAINTEXT", oauth_consumer_key="123", oauth_token="456", oauth_signature="abc&cde"',
    );
  });

  it('wrong credentials: 401 invalid_authorisation', async () => {
    const err = await failureOf(
      makeClient({ accessSecret: 'wrong' }).createDocument(await samplePdf(), 'a.pdf'),
    );
    expect([err.failure, err.status, err.errorType]).toEqual(['unauthorized', 401, 'invalid_authorisation']);
    const raw = await fetch(`${sandbox.apiUrl}/documents/1/get`);
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({
      error_type: 'invalid_authorisation',
      error_message: 'No valid access credentials were provided.',
      http_code: 401,
    });
  });
});

describe('the document life cycle', () => {
  it('new: a document in preparation with the PDF as its file and the author as its first party', async () => {
    const doc = await client.createDocument(await samplePdf(), 'avtal.pdf');
    expect(doc.id).toMatch(/^[1-9][0-9]{18}$/);
    expect(doc.status).toBe('preparation');
    expect(doc.file?.name).toBe('avtal.pdf');
    expect(doc.sealed_file).toBeNull();
    expect(doc.parties).toHaveLength(1);
    expect(doc.parties[0]?.is_author).toBe(true);
    expect((await client.getDocument(doc.id)).status).toBe('preparation');
  });

  it('update sets title and parties; start makes it pending with a relative signing link per api party', async () => {
    const prepared = await preparedDocument();
    expect(prepared.title).toBe('Avbetalningsplan 1001');
    expect(prepared.parties.map((p) => p.signatory_role)).toEqual(['viewer', 'signing_party']);
    expect(prepared.parties[1]?.id).toMatch(/^[0-9]+$/);
    expect(prepared.parties[1]?.api_delivery_url).toBeNull();
    const started = await client.startDocument(prepared.id);
    expect(started.status).toBe('pending');
    expect(started.timeout_time).not.toBeNull();
    const url = started.parties[1]?.api_delivery_url ?? '';
    expect(url).toMatch(/^\/s\/[0-9]+\/[0-9]+\/[0-9a-f]+$/);
    expect(client.signingLink(url)).toBe(`${sandbox.url}${url}`);
    const page = await fetch(client.signingLink(url));
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Avbetalningsplan 1001');
    expect(text).toContain('Anna Andersson');
    expect(text).toContain('Svenskt BankID');
  });

  it('the main file of a pending document is the PDF as uploaded', async () => {
    const prepared = await preparedDocument();
    await client.startDocument(prepared.id);
    const file = await client.downloadMainFile(prepared.id);
    expect((await PDFDocument.load(file)).getPageCount()).toBe(2);
  });

  it('cancel: canceled; a second cancel and a start of a started document are 409 document_state_error', async () => {
    const prepared = await preparedDocument();
    await client.startDocument(prepared.id);
    expect((await failureOf(client.startDocument(prepared.id))).errorType).toBe('document_state_error');
    expect((await client.cancelDocument(prepared.id)).status).toBe('canceled');
    const again = await failureOf(client.cancelDocument(prepared.id));
    expect([again.failure, again.status, again.errorType]).toEqual(['conflict', 409, 'document_state_error']);
    const update = await failureOf(client.updateDocument({ ...prepared, title: 'x' }));
    expect(update.failure).toBe('conflict');
  });

  it('an unknown document is 404 resource_not_found', async () => {
    const err = await failureOf(client.getDocument('1234567890123456789'));
    expect([err.failure, err.status, err.errorType]).toEqual(['not_found', 404, 'resource_not_found']);
    expect((await failureOf(client.getDocument('../x'))).failure).toBe('not_found');
  });
});

describe("the sandbox's checks (Scrive's 400s)", () => {
  it('refuses a file that is not a PDF, and a request without the file', async () => {
    const err = await failureOf(client.createDocument(new TextEncoder().encode('hello'), 'a.pdf'));
    expect([err.failure, err.errorType]).toEqual(['bad_request', 'request_parameters_invalid']);
    const raw = await fetch(`${sandbox.apiUrl}/documents/new`, {
      method: 'POST',
      headers: { authorization: personalAccessHeader(CREDENTIALS) },
      body: new FormData(),
    });
    expect(((await raw.json()) as { error_type: string }).error_type).toBe('request_parameters_missing');
  });

  it('refuses an unknown authentication method, dropping the author, and a start without a signee', async () => {
    const created = await client.createDocument(await samplePdf(), 'a.pdf');
    const author = created.parties[0];
    if (!author) throw new Error('no author');
    const bad = await failureOf(
      client.updateDocument({
        ...created,
        parties: [author, { fields: [], authentication_method_to_sign: 'carrier_pigeon' }],
      }),
    );
    expect([bad.failure, bad.errorType]).toEqual(['bad_request', 'request_parameters_invalid']);
    expect((await failureOf(client.updateDocument({ ...created, parties: [] }))).failure).toBe('bad_request');
    await client.updateDocument({ ...created, parties: [{ ...author, signatory_role: 'viewer' }] });
    expect((await failureOf(client.startDocument(created.id))).errorType).toBe('request_parameters_invalid');
  });

  it('refuses an update with a stale object_version (409)', async () => {
    const created = await client.createDocument(await samplePdf(), 'a.pdf');
    await client.updateDocument({ ...created, title: 'first' });
    const err = await failureOf(client.updateDocument({ ...created, title: 'second' }));
    expect([err.failure, err.errorType]).toEqual(['conflict', 'document_object_version_mismatch']);
  });
});

describe('retries', () => {
  it('a 429 is waited out and tried again (Retry-After, else a doubling back-off)', async () => {
    const prepared = await preparedDocument();
    sandbox.failNext(429, 2);
    expect((await client.getDocument(prepared.id)).id).toBe(prepared.id);
    expect(sleeps).toHaveLength(2);
  });

  it('a 5xx of a read is tried again; of a start it is not (the first try may have started it)', async () => {
    const prepared = await preparedDocument();
    sandbox.failNext(503, 2);
    expect((await client.getDocument(prepared.id)).status).toBe('preparation');
    expect(sleeps).toEqual([5, 10]);
    sandbox.failNext(500, 1);
    const err = await failureOf(client.startDocument(prepared.id));
    expect([err.failure, err.status, err.errorType]).toEqual(['server_error', 500, 'server_error']);
    expect((await client.getDocument(prepared.id)).status).toBe('preparation');
  });

  it('gives up after the retries', async () => {
    sandbox.setFailures(['api']);
    const err = await failureOf(client.getDocument('1234567890123456789'));
    expect(err.failure).toBe('server_error');
    expect(sleeps).toHaveLength(3);
  });

  it('a slow answer is a time-out; no answer at all is a network failure', async () => {
    const slow = await startESigningSandbox({ ...CREDENTIALS, failures: ['slow'], slowMs: 400 });
    try {
      const impatient = createESigningClient({
        apiUrl: slow.apiUrl,
        ...CREDENTIALS,
        timeoutMs: 100,
        retries: 0,
      });
      expect((await failureOf(impatient.getDocument('1'))).failure).toBe('timeout');
    } finally {
      await slow.close();
    }
    const nowhere = createESigningClient({ apiUrl: 'http://127.0.0.1:9/api/v2', ...CREDENTIALS, retries: 0 });
    expect((await failureOf(nowhere.getDocument('1'))).failure).toBe('network');
  });
});
