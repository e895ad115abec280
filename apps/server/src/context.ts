import type { Ability } from '@portal/contracts';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Mailer } from './mail/mailer';
import type { BankVerificationClient } from './modules/bank-verification/bank-verification.client';
import type { ESigningProvider } from './modules/e-signing/e-signing.service';
import type { FortnoxClient } from './modules/fortnox/fortnox.client';
import type { FileStore } from './services/file-store';

export interface ThrottleLimits {
  perUsername: number;
  perIp: number;
  windowMinutes: number;
}

/** What every route handler may use; tests build it with their own database, clock and limits. */
export interface AppContext {
  db: Db;
  config: Config;
  mailer: Mailer;
  now: () => Date;
  throttle: ThrottleLimits;
  /** Uploaded file bytes; the database when not given. */
  files?: FileStore;
  /** The open-banking provider of bank-account verification; none: its routes answer 502 (issue #13). */
  bankProvider?: BankProvider;
  /** Fortnox (issue #13): the configured app or the embedded demo's sandbox; none: its routes answer 502. */
  fortnox?: FortnoxProvider;
  /** The e-signing provider (issue #14): the configured Scrive account or the demo's sandbox; none: signing is unavailable. */
  eSigning?: ESigningProvider;
}

/** The Fortnox the portal talks to. */
export interface FortnoxProvider {
  client: FortnoxClient;
  /** The embedded demo's stand-in: the page shows a demo badge. */
  demo: boolean;
}

/** The provider a bank verification talks to, with what the portal needs to know of it. */
export interface BankProvider {
  /** Stored with each attempt: `sandbox` or the real provider's host. */
  name: string;
  client: BankVerificationClient;
  /** The shared secret its webhooks are signed with. */
  webhookSecret: string;
  /** The embedded demo's stand-in: the pages show a demo badge. */
  demo: boolean;
}

/** The signed-in caller, set by the auth hook on session routes. */
export interface AuthContext {
  sessionId: string;
  userId: string;
  issuerId: string;
  username: string;
  abilities: Ability[];
  setupRequired: boolean;
}

/** The signed-in operator, set by the auth hook on back-office routes (docs/BACKOFFICE.md). */
export interface OperatorContext {
  sessionId: string;
  operatorId: string;
  username: string;
  name: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /**
     * Resolves once every request handler has sent its answer, or after `timeoutMs`, with whether it
     * got there. A stop waits for this before it closes the database (see `buildApp`).
     */
    whenHandlersDone(timeoutMs: number): Promise<boolean>;
    /** How many request handlers have not sent their answer yet. */
    handlersAtWork(): number;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    operator: OperatorContext | null;
  }
  interface FastifyContextConfig {
    operationId?: string;
    /** The error code of a body that fails validation on this route (default `validation.invalid`). */
    validationCode?: import('@portal/contracts').ErrorCode;
  }
}
