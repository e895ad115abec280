import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/support/pdf-text';
import { rejectionOf } from '../../../test/support/rejection';
import { samplePdf } from '../../../test/support/sample-pdf';
import { closeSandbox, listenSandbox, readBody } from '../../lib/sandbox-http';
import { createESigningClient } from './e-signing.client';
import { type ESigningSandbox, startESigningSandbox } from './e-signing.sandbox';
import {
  cancelSigning,
  ESigningError,
  type ESigningProvider,
  fetchSealedPdf,
  readSigningState,
  type Signee,
  type StartedSigning,
  signingCallbackToken,
  startSigning,
  stateAfterCallback,
} from './e-signing.service';

/**
 * The e-signing service with the real client against the sandbox over HTTP, as a signee meets it: the
 * links, the signing page's form (in order, with the personal number the eID proves), the callbacks
 * our receiver gets (retried after a failure, once out of order, once twice; never trusted beyond the
 * document id and our token), the sealed PDF read back by pdf.js, a refusal, a time-out, a withdrawal.
 */

const CREDENTIALS = { apiToken: 'tok_1', apiSecret: 'sec_1', accessToken: 'tok_2', accessSecret: 'sec_2' };

let clock = new Date('2026-03-02T08:00:00Z').getTime();
let sandbox: ESigningSandbox;
let provider: ESigningProvider;

/** Our callback receiver: what it got, and how many of the next deliveries it answers 500. */
let receiver: Server;
let receiverUrl = '';
const received: { token: string | undefined; body: string }[] = [];
let refuseNext = 0;

const ANNA: Signee = {
  name: 'Anna Andersson',
  email: 'anna@example.se',
  personalNumber: '19811218-9876',
  authentication: 'se_bankid',
  signOrder: 1,
};
const MATTI: Signee = {
  name: 'Matti Virtanen',
  email: 'matti@example.fi',
  mobile: '+358401234567',
  personalNumber: '010180-123A',
  authentication: 'fi_tupas',
  signOrder: 2,
};

function send(extra: Partial<Parameters<typeof startSigning>[1]> = {}): Promise<StartedSigning> {
  return samplePdf(2).then((pdf) =>
    startSigning(provider, {
      pdf,
      fileName: 'avbetalningsplan-1001.pdf',
      title: 'Avbetalningsplan 1001',
      language: 'sv-SE',
      signees: [ANNA, MATTI],
      callbackUrl: `${receiverUrl}/api/e-signing/callback`,
      ...extra,
    }),
  );
}

/** A signee's decision through the signing page's form, as the browser posts it. */
async function decide(link: string, form: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(link, { method: 'POST', body: new URLSearchParams(form) });
  return { status: res.status, text: await res.text() };
}

const linkOf = (started: StartedSigning, index: number) => started.signees[index]?.link ?? '';

/** The statuses of the callbacks our receiver got for a document, in the order they arrived. */
const receivedStatuses = (documentId: string) =>
  received
    .map((r) => new URLSearchParams(r.body))
    .filter((b) => b.get('document_id') === documentId)
    .map((b) => (JSON.parse(b.get('document_json') ?? '{}') as { status: string }).status);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push({
        token: new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? undefined,
        body,
      });
      res.writeHead(refuseNext > 0 ? 500 : 200);
      refuseNext = Math.max(0, refuseNext - 1);
      res.end();
    });
  });
  receiverUrl = await listenSandbox(receiver, {});
  sandbox = await startESigningSandbox({ ...CREDENTIALS, now: () => new Date(clock), callbackRetryMs: [20] });
  provider = {
    client: createESigningClient({ apiUrl: sandbox.apiUrl, ...CREDENTIALS, backoffMs: 5 }),
    demo: true,
    callbackKey: randomBytes(32),
  };
});
afterAll(async () => {
  await sandbox.close();
  await closeSandbox(receiver);
});
beforeEach(async () => {
  await sandbox.callbacksSettled();
  sandbox.setFailures([]);
  refuseNext = 0;
});

describe('sending an agreement for signing', () => {
  it('gives each signee a link of their own; the author (our account) is no signee', async () => {
    const started = await send();
    expect(started.status).toBe('pending');
    expect(started.signees.map((s) => s.name)).toEqual(['Anna Andersson', 'Matti Virtanen']);
    expect(new Set(started.signees.map((s) => s.link)).size).toBe(2);
    expect(started.signees.every((s) => s.link.startsWith(`${sandbox.url}/s/${started.documentId}/`))).toBe(
      true,
    );
    expect(started.timeoutAt).toBe(new Date(clock + 30 * 86_400_000).toISOString());
    const state = await readSigningState(provider, started.documentId);
    expect(state.signees.map((s) => [s.name, s.signedAt])).toEqual([
      ['Anna Andersson', null],
      ['Matti Virtanen', null],
    ]);
  });

  it("the signing page speaks the document's language and names the eID", async () => {
    const started = await send({ language: 'fi-FI' });
    const page = await (await fetch(linkOf(started, 1))).text();
    expect(page).toContain('<html lang="fi">');
    expect(page).toContain('Allekirjoita sopimus');
    expect(page).toContain('Voit allekirjoittaa, kun sinua ennen olevat osapuolet ovat allekirjoittaneet.');
    const first = await (await fetch(linkOf(started, 0))).text();
    expect(first).toContain('Ruotsalainen BankID');
    expect(first).toContain('name="personal_number"');
    const pdf = await fetch(`${linkOf(started, 0)}/document.pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await pdfText(new Uint8Array(await pdf.arrayBuffer()))).text).toContain(
      'Avbetalningsavtal sida 1',
    );
    expect((await fetch(`${linkOf(started, 0).slice(0, -4)}0000`)).status).toBe(404);
  });

  it('refuses no signees', async () => {
    const err = await rejectionOf(send({ signees: [] }), ESigningError);
    expect(err.failure).toBe('bad_request');
  });
});

describe('both signees sign: closed, called back, sealed', () => {
  it('in order, with the personal number the eID proves; the callbacks retried after a failure', async () => {
    refuseNext = 1;
    const started = await send();
    const { documentId } = started;
    // The start's callback (refused once, then retried) is through before anyone signs, so the refusal
    // meets it and not a signature's callback, however the machine schedules the deliveries.
    await sandbox.callbacksSettled();

    const early = await decide(linkOf(started, 1), {
      decision: 'sign',
      personal_number: MATTI.personalNumber ?? '',
    });
    expect(early.text).toContain('Du kan signera när parterna före dig har signerat.');
    const wrong = await decide(linkOf(started, 0), { decision: 'sign', personal_number: '19700101-0000' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Personnumret stämmer inte');
    expect((await readSigningState(provider, documentId)).signees.every((s) => s.signedAt === null)).toBe(
      true,
    );

    const anna = await decide(linkOf(started, 0), { decision: 'sign', personal_number: '198112189876' });
    expect(anna.text).toContain('Du har signerat avtalet.');
    const half = await readSigningState(provider, documentId);
    expect([half.status, half.signed, half.signees.map((s) => s.signedAt !== null)]).toEqual([
      'pending',
      false,
      [true, false],
    ]);
    await decide(linkOf(started, 1), { decision: 'sign', personal_number: '010180-123a' });
    const done = await readSigningState(provider, documentId);
    expect([done.status, done.signed, done.rejected]).toEqual(['closed', true, false]);

    await sandbox.callbacksSettled();
    const tries = sandbox.callbacks().filter((c) => c.documentId === documentId);
    // The start's callback was refused once and tried again; Anna's and the closing one went through.
    expect(tries.map((c) => [c.status, c.attempt, c.answer]).sort()).toEqual([
      ['closed', 1, 200],
      ['pending', 1, 200],
      ['pending', 1, 500],
      ['pending', 2, 200],
    ]);
    expect(tries[0]?.answer).toBe(500);
    const ours = received.filter((r) => new URLSearchParams(r.body).get('document_id') === documentId);
    expect(ours.every((r) => r.token === signingCallbackToken(provider.callbackKey, documentId))).toBe(true);
    const sealedFlags = ours.map((r) => new URLSearchParams(r.body).get('document_signed_and_sealed'));
    expect(sealedFlags.sort()).toEqual(['false', 'false', 'false', 'true']);

    sandbox.setFailures(['sealing']);
    const sealed = await fetchSealedPdf(provider, documentId);
    const read = await pdfText(sealed);
    expect(read.pages).toBe(3);
    expect(read.text).toContain('Avbetalningsavtal sida 2');
    const signaturePage = read.text.split('\n')[2] ?? '';
    expect(signaturePage).toContain('Signeringssida');
    expect(signaturePage).toContain('Anna Andersson');
    expect(signaturePage).toContain('Matti Virtanen');
    expect(signaturePage).toContain('Svenskt BankID');
    expect(signaturePage).toContain(documentId);
  });

  it('a callback out of order and one twice: the state is fetched each time, never read from the body', async () => {
    sandbox.setFailures(['callback_out_of_order']);
    const started = await send();
    const { documentId } = started;
    await decide(linkOf(started, 0), { decision: 'sign', personal_number: ANNA.personalNumber ?? '' });
    await sandbox.callbacksSettled();
    sandbox.setFailures(['callback_twice']);
    await decide(linkOf(started, 1), { decision: 'sign', personal_number: MATTI.personalNumber ?? '' });
    await sandbox.callbacksSettled();

    // The start's callback was held back behind Anna's signature, so it came second, and stale.
    const arrived = received.filter((r) => new URLSearchParams(r.body).get('document_id') === documentId);
    expect(receivedStatuses(documentId)).toEqual(['pending', 'pending', 'closed', 'closed']);
    const signedIn = (r: { body: string }) =>
      (
        JSON.parse(new URLSearchParams(r.body).get('document_json') ?? '{}') as {
          parties: { sign_time: string | null }[];
        }
      ).parties.filter((p) => p.sign_time).length;
    expect(arrived.map(signedIn)).toEqual([1, 0, 2, 2]);

    for (const callback of arrived) {
      const state = await stateAfterCallback(provider, callback);
      expect([state?.documentId, state?.status, state?.signed]).toEqual([documentId, 'closed', true]);
    }
  });

  it('asking for a callback again delivers the document as it is now', async () => {
    const started = await send();
    await sandbox.callbacksSettled();
    await provider.client.cancelDocument(started.documentId);
    await sandbox.callbacksSettled();
    await provider.client.triggerCallback(started.documentId);
    await sandbox.callbacksSettled();
    expect(receivedStatuses(started.documentId)).toEqual(['pending', 'canceled', 'canceled']);
  });

  it('a callback without our token, or with the token of another document, fetches nothing', async () => {
    const started = await send();
    const other = await send();
    const body = new URLSearchParams({
      document_id: started.documentId,
      document_json: '{"status":"closed"}',
    });
    expect(await stateAfterCallback(provider, { token: undefined, body: body.toString() })).toBeNull();
    expect(await stateAfterCallback(provider, { token: 'x', body: body.toString() })).toBeNull();
    const foreign = signingCallbackToken(provider.callbackKey, other.documentId);
    expect(await stateAfterCallback(provider, { token: foreign, body: body.toString() })).toBeNull();
    const own = signingCallbackToken(provider.callbackKey, started.documentId);
    expect((await stateAfterCallback(provider, { token: own, body: body.toString() }))?.status).toBe(
      'pending',
    );
  });
});

describe('orders that end unsigned', () => {
  it('one refusal rejects the agreement; the other signee can no longer sign; no sealed PDF', async () => {
    const started = await send();
    await decide(linkOf(started, 0), { decision: 'sign', personal_number: ANNA.personalNumber ?? '' });
    await decide(linkOf(started, 1), { decision: 'reject', reason: 'Fel belopp' });
    const state = await readSigningState(provider, started.documentId);
    expect([state.status, state.rejected, state.signed]).toEqual(['rejected', true, false]);
    expect(state.signees[1]?.rejectionReason).toBe('Fel belopp');
    expect(state.signees[1]?.rejectedAt).not.toBeNull();
    const page = await decide(linkOf(started, 1), {
      decision: 'sign',
      personal_number: MATTI.personalNumber ?? '',
    });
    expect(page.text).toContain('Avtalet har avböjts av en part.');
    expect((await readSigningState(provider, started.documentId)).signees[1]?.signedAt).toBeNull();
    const err = await rejectionOf(fetchSealedPdf(provider, started.documentId), ESigningError);
    expect(err.failure).toBe('conflict');
    await sandbox.callbacksSettled();
    expect(receivedStatuses(started.documentId)).toContain('rejected');
  });

  it('times out when its days pass, or when the sandbox is told to; called back as timedout', async () => {
    const late = await send({ daysToSign: 5 });
    clock += 5 * 86_400_000;
    expect((await readSigningState(provider, late.documentId)).status).toBe('timedout');
    const told = await send();
    sandbox.timeOut(told.documentId);
    expect((await readSigningState(provider, told.documentId)).status).toBe('timedout');
    const page = await decide(linkOf(told, 0), {
      decision: 'sign',
      personal_number: ANNA.personalNumber ?? '',
    });
    expect(page.text).toContain('Tiden för att signera avtalet har gått ut.');
    await sandbox.callbacksSettled();
    expect(receivedStatuses(late.documentId)).toContain('timedout');
    expect(receivedStatuses(told.documentId)).toContain('timedout');
  });

  it('a withdrawn order is canceled; withdrawing it again is a conflict', async () => {
    const started = await send();
    expect((await cancelSigning(provider, started.documentId)).status).toBe('canceled');
    const err = await rejectionOf(cancelSigning(provider, started.documentId), ESigningError);
    expect([err.failure, err.errorType]).toEqual(['conflict', 'document_state_error']);
    await sandbox.callbacksSettled();
    expect(receivedStatuses(started.documentId)).toContain('canceled');
  });

  it('an unknown document is not found', async () => {
    const err = await rejectionOf(readSigningState(provider, '1234567890123456789'), ESigningError);
    expect([err.failure, err.status]).toEqual(['not_found', 404]);
  });
});
