import { parseArgs } from 'node:util';
import {
  backofficeLogin2faResponseSchema,
  backofficeLoginResponseSchema,
  buildPath,
  creditDecisionResponseSchema,
  listPendingDecisionsResponseSchema,
  type PendingDecision,
  ROUTES,
} from '@portal/contracts';
import { CliError, type CliIo, call, EXIT, pageOptions, refusal, table } from './backoffice-http';
import { MONEY_COMMANDS } from './backoffice-money';

export { EXIT } from './backoffice-http';

export const DEFAULT_URL = 'http://localhost:8080';

export const USAGE = `Usage: npm run backoffice -- <command> [options]

Commands:
  pending [--page N] [--page-size N]     invoices awaiting a credit decision (state 9)
  approve <invoiceId>                    approve the credit: the invoice moves to 2 (notPaid)
  reject <invoiceId> --reason "..."      reject with a reason the customer sees (max 500)
  plan-decision <planId> approved|rejected
                                         our credit decision on a signed installment plan (state 9):
                                         approved makes it active and pays it out in the next payout run
  payout [--date YYYY-MM-DD]             pay out what we owe the issuers: one settlement per issuer
                                         and currency (docs/MONEY.md)
  import-bgmax <file>                    import a BGMAX file of incoming payments (all or nothing, once)
  unmatched [--page N] [--page-size N]   incoming payments no invoice claimed (a split payment's
            [--information]              parts one by one); --information: zero amounts kept as such
  assign <paymentId> <invoiceId>         assign an unmatched payment to an invoice
  deductions [--page N] [--page-size N]  BGMAX deductions (TK21) no operator has resolved, oldest first
  resolve-deduction <paymentId> charge-issuer
                                         charge a deduction to the issuer: a negative row of its next settlement
  resolve-deduction <paymentId> settle-invoice <invoiceId>
                                         settle a deduction against an invoice: its paid amount goes down
  daily [--date YYYY-MM-DD]              run the daily job: distribution, reminders, interest, recourse
  held                                   issuers whose payouts are held, and why
  check-books                            check the double-entry book (exit 1 when it finds faults)
  claims [--state open|paid]             debt claims on issuers: what each owes us, paid and left
  claim-debts [--issuer <id>] [--date YYYY-MM-DD]
                                         claim issuers' debts no payouts covered: one issuer's at
                                         once, or (without --issuer) every debt older than its
                                         issuer's days, and the reminders due (docs/MONEY.md)
  fees <issuerId>                        an issuer's fees per service and currency, and its days
                                         before a debt is claimed
  claim-days <issuerId> --days N         set the days (1-365) after which an issuer's debt is claimed
  set-fee <issuerId> <service> <currency> --percent-bp N --fixed-minor N
                                         set one fee of an issuer (the others stay)

Options:
  --url <base>          the portal's address (default ${DEFAULT_URL})
  --user <username>     operator (default: $BACKOFFICE_USER)
  --password <secret>   password (default: $BACKOFFICE_PASSWORD; prefer the variable)
  --code <123456>       the current TOTP code, for an operator with two-factor
                        (default: $BACKOFFICE_TOTP_CODE)
  --help                this text

Exit codes: 0 done, 1 refused by the server (e.g. 409 not awaiting a decision), 2 usage error,
3 sign-in failed, 4 server unreachable or broken.`;

const formatMinor = (minor: number, currency: string) =>
  `${(minor / 100).toLocaleString('sv-SE', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;

function pendingTable(items: PendingDecision[]): string[] {
  return table(
    ['INVOICE ID', 'NUMBER', 'ISSUER', 'RECIPIENT', 'AMOUNT', 'INVOICE DATE', 'DUE DATE', 'SENT'],
    items.map((i) => [
      i.invoiceID,
      i.invoiceNumber,
      i.issuerName,
      i.recipientName,
      formatMinor(i.grossMinor, i.currency),
      i.invoiceDate,
      i.dueDate,
      i.sentAt?.slice(0, 10) ?? '',
    ]),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Runs one command of the back-office CLI against a running server and returns the exit code. Signs
 * in, does the work, and signs out again, so no operator session outlives the command.
 */
export async function runBackoffice(
  argv: string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  try {
    const { values, positionals } = (() => {
      try {
        return parseArgs({
          args: argv,
          allowPositionals: true,
          options: {
            url: { type: 'string' },
            user: { type: 'string' },
            password: { type: 'string' },
            code: { type: 'string' },
            reason: { type: 'string' },
            date: { type: 'string' },
            'percent-bp': { type: 'string' },
            'fixed-minor': { type: 'string' },
            issuer: { type: 'string' },
            state: { type: 'string' },
            days: { type: 'string' },
            page: { type: 'string' },
            'page-size': { type: 'string' },
            information: { type: 'boolean' },
            help: { type: 'boolean', short: 'h' },
          },
        });
      } catch (err) {
        throw new CliError((err as Error).message, EXIT.usage);
      }
    })();
    const [command, ...rest] = positionals;
    if (values.help || !command) {
      (values.help ? io.out : io.err)(USAGE);
      return values.help ? EXIT.ok : EXIT.usage;
    }
    const money = MONEY_COMMANDS[command];
    if (!['pending', 'approve', 'reject'].includes(command) && !money)
      throw new CliError(`unknown command "${command}"\n\n${USAGE}`, EXIT.usage);
    const invoiceId = rest[0];
    if (money) money.check(rest, values);
    else if (command !== 'pending') {
      if (!invoiceId || !UUID.test(invoiceId) || rest.length > 1)
        throw new CliError(`${command} needs exactly one invoice id (a UUID)`, EXIT.usage);
    } else if (rest.length > 0) throw new CliError('pending takes no arguments', EXIT.usage);
    if (command === 'reject' && !values.reason?.trim())
      throw new CliError('reject needs --reason "..." (shown to the customer)', EXIT.usage);
    const { page, pageSize } = pageOptions(values);
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
      throw new CliError('--page must be 1 or more and --page-size 1 to 100', EXIT.usage);

    const base = values.url ?? env.BACKOFFICE_URL ?? DEFAULT_URL;
    try {
      new URL(base);
    } catch {
      throw new CliError(`--url is not a URL: ${base}`, EXIT.usage);
    }
    const username = values.user ?? env.BACKOFFICE_USER;
    const password = values.password ?? env.BACKOFFICE_PASSWORD;
    if (!username || !password)
      throw new CliError(
        'set BACKOFFICE_USER and BACKOFFICE_PASSWORD (or --user and --password)',
        EXIT.usage,
      );

    const login = await call(base, 'POST', ROUTES.backofficeLogin.path, undefined, { username, password });
    if (login.status !== 200) throw refusal(login.status, login.json);
    const step = backofficeLoginResponseSchema.parse(login.json);
    let token = step.token;
    if (step.requireTwoFactor) {
      const code = values.code ?? env.BACKOFFICE_TOTP_CODE;
      if (!code)
        throw new CliError(
          'this operator signs in with two-factor: give the current code with --code or BACKOFFICE_TOTP_CODE',
          EXIT.auth,
        );
      const second = await call(base, 'POST', ROUTES.backofficeLogin2fa.path, undefined, {
        token: step.token,
        code,
      });
      if (second.status !== 200) throw refusal(second.status, second.json);
      token = backofficeLogin2faResponseSchema.parse(second.json).token;
    }
    try {
      if (money) return await money.run({ base, token, rest, values, io });
      if (command === 'pending') {
        const res = await call(
          base,
          'GET',
          `${ROUTES.listPendingDecisions.path}?page=${page}&pageSize=${pageSize}`,
          token,
        );
        if (res.status !== 200) throw refusal(res.status, res.json);
        const list = listPendingDecisionsResponseSchema.parse(res.json);
        if (list.items.length === 0) io.out('No invoices await a credit decision.');
        else for (const line of pendingTable(list.items)) io.out(line);
        const from = (list.page - 1) * list.pageSize;
        if (list.total > 0)
          io.out(`\n${from + 1}-${from + list.items.length} of ${list.total} awaiting a decision.`);
        return EXIT.ok;
      }
      const route = command === 'approve' ? ROUTES.approveInvoice : ROUTES.rejectInvoice;
      const res = await call(
        base,
        'POST',
        buildPath(route.path, { id: invoiceId ?? '' }),
        token,
        command === 'reject' ? { reason: values.reason } : undefined,
      );
      if (res.status !== 200) throw refusal(res.status, res.json);
      const done = creditDecisionResponseSchema.parse(res.json);
      io.out(`Invoice ${done.invoiceID} ${done.decision}; it is now in state ${done.state}.`);
      return EXIT.ok;
    } finally {
      await call(base, 'POST', ROUTES.backofficeLogout.path, token).catch(() => undefined);
    }
  } catch (err) {
    if (err instanceof CliError) {
      io.err(`backoffice: ${err.message}`);
      return err.exitCode;
    }
    io.err(`backoffice: ${(err as Error).message}`);
    return EXIT.unreachable;
  }
}
