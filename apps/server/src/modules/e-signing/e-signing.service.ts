import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Language } from '@portal/contracts';
import {
  type DocumentStatus,
  type ESigningClient,
  ESigningError,
  type ScriveDocument,
  type ScriveParty,
  type SignAuthentication,
} from './e-signing.client';

/**
 * E-signing of agreements (issue #14, "Signing"; shared/domain/e-signing.md): what other modules use to
 * have a PDF signed by its signees through the provider (Scrive's Document API v2, or its sandbox in
 * the embedded demo). The rules: every signee gets a link of their own (`api` delivery, shown in our
 * UI), signs with the eID of their country, in the order given; the agreement is signed only when
 * every signee has signed, and one refusal ends it. A callback only says "something changed": its
 * body is never read beyond the document id, which must carry our token, and the state is then
 * fetched from the provider. The sealed PDF is fetched once the document is closed and handed over
 * unchanged. Storing orders is the caller's (no tables here).
 */

export { type DocumentStatus, ESigningError } from './e-signing.client';

/** The provider the portal signs with: the configured Scrive account or the demo's sandbox. */
export interface ESigningProvider {
  client: ESigningClient;
  /** The embedded demo's stand-in: pages show a demo badge. */
  demo: boolean;
  /** 32 bytes: the key of the callback URLs' tokens. */
  callbackKey: Buffer;
}

export interface Signee {
  name: string;
  email: string;
  mobile?: string;
  /** Swedish personnummer or Finnish henkilötunnus; the eID must prove this person. */
  personalNumber?: string;
  /** How the signee proves who signs: `se_bankid` (SE), `fi_tupas` (FI bank ID / FTN), or a plain link. */
  authentication: Extract<SignAuthentication, 'standard' | 'se_bankid' | 'fi_tupas'>;
  /** 1 signs first; equal numbers sign in any order. 1 by default. */
  signOrder?: number;
}

export interface StartedSigning {
  documentId: string;
  status: DocumentStatus;
  /** When the provider times the order out if not every signee has signed. */
  timeoutAt: string | null;
  /** In the order the signees were given. */
  signees: { partyId: string; name: string; link: string }[];
}

export interface SigneeState {
  partyId: string;
  name: string;
  signedAt: string | null;
  rejectedAt: string | null;
  rejectionReason: string | null;
  seenAt: string | null;
}

export interface SigningState {
  documentId: string;
  status: DocumentStatus;
  /** Every signee has signed (status `closed`); the sealed PDF may still be on its way (503, retried). */
  signed: boolean;
  /** A signee refused (status `rejected`). */
  rejected: boolean;
  timeoutAt: string | null;
  signees: SigneeState[];
}

/** The provider's language of the signing pages for ours. */
const PROVIDER_LANG: Record<Language, string> = { 'sv-SE': 'sv', 'en-US': 'en', 'fi-FI': 'fi' };

/** Scrive has a first and a last name field: the last word is the last name. */
function nameFields(name: string) {
  const words = name.trim().split(/\s+/);
  const last = words.length > 1 ? (words.pop() ?? '') : '';
  return [
    { type: 'name', order: 1, value: words.join(' '), is_obligatory: true },
    { type: 'name', order: 2, value: last, is_obligatory: false },
  ];
}

function partyOf(signee: Signee): ScriveParty {
  const fields: ScriveParty['fields'] = [
    ...nameFields(signee.name),
    { type: 'email', value: signee.email, is_obligatory: false },
    { type: 'mobile', value: signee.mobile ?? '', is_obligatory: false },
  ];
  if (signee.personalNumber)
    fields.push({ type: 'personal_number', value: signee.personalNumber, is_obligatory: true });
  return {
    signatory_role: 'signing_party',
    fields,
    sign_order: signee.signOrder ?? 1,
    delivery_method: 'api',
    authentication_method_to_sign: signee.authentication,
    confirmation_delivery_method: 'none',
  };
}

const fieldOf = (party: ScriveParty, type: string, order?: number) =>
  String(
    party.fields.find((f) => f.type === type && (order === undefined || f.order === order))?.value ?? '',
  );

const nameOf = (party: ScriveParty) =>
  [fieldOf(party, 'name', 1), fieldOf(party, 'name', 2)].filter(Boolean).join(' ');

/** The signees of a document: its signing parties other than our own account (the author). */
const signeesOf = (doc: ScriveDocument) =>
  doc.parties.filter((p) => !p.is_author && p.signatory_role === 'signing_party');

/** The token a callback URL carries for its document: HMAC-SHA256 of the id, base64url. */
export function signingCallbackToken(key: Buffer, documentId: string): string {
  return createHmac('sha256', key).update(`e-signing callback ${documentId}`).digest('base64url');
}

/**
 * Sends a PDF for signing: creates the document, sets its title, language, time limit, callback URL
 * and signees (our account, the author, becomes a viewer: it does not sign), and starts it.
 * `callbackUrl` is our receiving address; the document's token is added as `?token=`.
 */
export async function startSigning(
  provider: ESigningProvider,
  input: {
    pdf: Uint8Array;
    fileName: string;
    title: string;
    language: Language;
    signees: Signee[];
    callbackUrl: string | null;
    /** 30 by default. */
    daysToSign?: number;
  },
): Promise<StartedSigning> {
  if (input.signees.length === 0) throw new ESigningError('bad_request', null, 'no_signees');
  const { client } = provider;
  const created = await client.createDocument(input.pdf, input.fileName);
  const author = created.parties.find((p) => p.is_author);
  if (!author) throw new ESigningError('malformed', 201, null);
  let callback: string | null = null;
  if (input.callbackUrl) {
    const url = new URL(input.callbackUrl);
    url.searchParams.set('token', signingCallbackToken(provider.callbackKey, created.id));
    callback = url.toString();
  }
  const updated = await client.updateDocument({
    ...created,
    title: input.title,
    lang: PROVIDER_LANG[input.language],
    days_to_sign: input.daysToSign ?? 30,
    api_callback_url: callback,
    parties: [
      { ...author, signatory_role: 'viewer', delivery_method: 'email', confirmation_delivery_method: 'none' },
      ...input.signees.map(partyOf),
    ],
  });
  const started = await client.startDocument(updated.id);
  const parties = signeesOf(started);
  if (parties.length !== input.signees.length || parties.some((p) => !p.id || !p.api_delivery_url))
    throw new ESigningError('malformed', 200, null);
  return {
    documentId: started.id,
    status: started.status,
    timeoutAt: started.timeout_time,
    signees: parties.map((p) => ({
      partyId: p.id ?? '',
      name: nameOf(p),
      link: client.signingLink(p.api_delivery_url ?? ''),
    })),
  };
}

/** The order's state as the provider has it now. */
export async function readSigningState(
  provider: ESigningProvider,
  documentId: string,
): Promise<SigningState> {
  const doc = await provider.client.getDocument(documentId);
  return {
    documentId: doc.id,
    status: doc.status,
    signed: doc.status === 'closed',
    rejected: doc.status === 'rejected',
    timeoutAt: doc.timeout_time,
    signees: signeesOf(doc).map((p) => ({
      partyId: p.id ?? '',
      name: nameOf(p),
      signedAt: p.sign_time ?? null,
      rejectedAt: p.rejected_time ?? null,
      rejectionReason: p.rejection_reason ?? null,
      seenAt: p.seen_time ?? null,
    })),
  };
}

/** The sealed PDF of a closed order, as the provider made it; `conflict` while it is not closed. */
export async function fetchSealedPdf(provider: ESigningProvider, documentId: string): Promise<Buffer> {
  const state = await readSigningState(provider, documentId);
  if (!state.signed) throw new ESigningError('conflict', 409, 'document_state_error');
  return provider.client.downloadMainFile(documentId);
}

/** Withdraws a pending order (the plan was cancelled before every signee signed). */
export async function cancelSigning(provider: ESigningProvider, documentId: string): Promise<SigningState> {
  await provider.client.cancelDocument(documentId);
  return readSigningState(provider, documentId);
}

/**
 * A callback as it arrived (the URL's `token`, the form body): the document's state fetched from the
 * provider, or null when the token does not belong to the document id (nothing is fetched). Nothing
 * else of the body is used: its `document_json` may be stale (callbacks come late, twice, out of order).
 */
export async function stateAfterCallback(
  provider: ESigningProvider,
  callback: { token: string | undefined; body: string },
): Promise<SigningState | null> {
  const documentId = new URLSearchParams(callback.body).get('document_id') ?? '';
  if (!/^[0-9]{1,40}$/.test(documentId) || !callback.token) return null;
  const expected = Buffer.from(signingCallbackToken(provider.callbackKey, documentId));
  const given = Buffer.from(callback.token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return readSigningState(provider, documentId);
}
