import type { ComponentType } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { paths } from '../config/paths';
import { startupTextsLoaded } from '../lib/i18n';
import { type LazyRoute, lazyRoute as lazyChunk } from '../lib/lazy-route';
import { PublicOnly, RequireAuth, RequirePermission } from './guards';
import { LazyElement } from './lazy-element';

/**
 * A code-split screen: its chunk and the startup texts of the language (a chunk of their own, fetched
 * alongside) both loaded before it renders.
 */
function lazyRoute(factory: () => Promise<{ default: ComponentType }>): LazyRoute {
  return lazyChunk(() => Promise.all([factory(), startupTextsLoaded()]).then(([chunk]) => chunk));
}

// Every screen is code-split (spec §9); what /login downloads is what the size check measures.
// The signed-in shell too, so that the login page does not load the menu, account and report code.
const rootLayoutRoute = lazyRoute(() =>
  import('./layouts/root-layout').then((m) => ({ default: m.RootLayout })),
);
const loginRoute = lazyRoute(() => import('./routes/login'));
const groupLoginRoute = lazyRoute(() => import('./routes/group-login'));
const passwordResetRoute = lazyRoute(() => import('./routes/password-reset'));
const homeRoute = lazyRoute(() => import('./routes/home'));
const recipientRoute = lazyRoute(() => import('./routes/recipient'));
const articlesRoute = lazyRoute(() => import('./routes/articles'));
const invoiceRegisterRoute = lazyRoute(() => import('./routes/invoice-register'));
const invoiceFileUploadRoute = lazyRoute(() => import('./routes/invoice-file-upload'));
const invoiceUploadRoute = lazyRoute(() => import('./routes/invoice-upload'));
// The register, edit and duplicate forms are one chunk (routes/invoice-register.tsx).
const invoiceEditRoute = lazyRoute(() =>
  import('./routes/invoice-register').then((m) => ({ default: m.InvoiceEditRoute })),
);
const invoicesDuplicateRoute = lazyRoute(() =>
  import('./routes/invoice-register').then((m) => ({ default: m.InvoicesDuplicateRoute })),
);
const invoiceSendRoute = lazyRoute(() => import('./routes/invoice-send'));
const invoiceSendBusinessRoute = lazyRoute(() => import('./routes/invoice-send-business'));
const invoicesRoute = lazyRoute(() => import('./routes/invoices'));
const invoiceDetailRoute = lazyRoute(() => import('./routes/invoice-detail'));
const invoiceMessagesRoute = lazyRoute(() => import('./routes/invoice-messages'));
const installmentPlansRoute = lazyRoute(() => import('./routes/installment-plans'));
// The plan's page and the register form are in the list's chunk (routes/installment-plans.tsx).
const installmentPlanDetailRoute = lazyRoute(() =>
  import('./routes/installment-plans').then((m) => ({ default: m.InstallmentPlanDetailRoute })),
);
const installmentRegisterRoute = lazyRoute(() =>
  import('./routes/installment-plans').then((m) => ({ default: m.InstallmentRegisterRoute })),
);
const transferCostsRoute = lazyRoute(() => import('./routes/transfer-costs'));
const reportsPaymentsRoute = lazyRoute(() => import('./routes/reports-payments'));
const reportsLedgerRoute = lazyRoute(() => import('./routes/reports-ledger'));
const verifyBankAccountRoute = lazyRoute(() => import('./routes/verify-bank-account'));
// One chunk for both bank-verification screens: as two, the bundler moved a module of the login page
// into a chunk of its own (one more request before the login form; docs/BENCHMARKS.md).
const verifyBankAccountSuccessRoute = lazyRoute(() =>
  import('./routes/verify-bank-account').then((m) => ({ default: m.VerifyBankAccountSuccessRoute })),
);
const forbiddenRoute = lazyRoute(() => import('./routes/forbidden'));
const notFoundRoute = lazyRoute(() => import('./routes/not-found'));

/** The routes of spec §2 and the detail pages; the catch-all shows 404 (or 403 for a gated path). */
export function createRoutes(): RouteObject[] {
  return [
    {
      path: paths.login.path,
      element: (
        <PublicOnly>
          <LazyElement route={loginRoute} />
        </PublicOnly>
      ),
    },
    {
      path: paths.groupLogin.path,
      element: (
        <PublicOnly>
          <LazyElement route={groupLoginRoute} />
        </PublicOnly>
      ),
    },
    { path: paths.passwordReset.path, element: <LazyElement route={passwordResetRoute} /> },
    {
      path: '/',
      element: (
        <RequireAuth>
          <LazyElement route={rootLayoutRoute} />
        </RequireAuth>
      ),
      children: [
        { index: true, element: <LazyElement route={homeRoute} /> },
        { path: paths.recipient.path, element: <LazyElement route={recipientRoute} /> },
        {
          path: paths.reportsLedger.path,
          element: (
            <RequirePermission path={paths.reportsLedger}>
              <LazyElement route={reportsLedgerRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.articles.path,
          element: (
            <RequirePermission path={paths.articles}>
              <LazyElement route={articlesRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoiceRegister.path,
          element: (
            <RequirePermission path={paths.invoiceRegister}>
              <LazyElement route={invoiceRegisterRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoiceFileUpload.path,
          element: (
            <RequirePermission path={paths.invoiceFileUpload}>
              <LazyElement route={invoiceFileUploadRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoiceUpload.path,
          element: (
            <RequirePermission path={paths.invoiceUpload}>
              <LazyElement route={invoiceUploadRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoiceEdit.path,
          element: (
            <RequirePermission path={paths.invoiceEdit}>
              <LazyElement route={invoiceEditRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoicesDuplicate.path,
          element: (
            <RequirePermission path={paths.invoicesDuplicate}>
              <LazyElement route={invoicesDuplicateRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoiceSend.path,
          element: (
            <RequirePermission path={paths.invoiceSend}>
              <LazyElement route={invoiceSendRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoiceSendBusiness.path,
          element: (
            <RequirePermission path={paths.invoiceSendBusiness}>
              <LazyElement route={invoiceSendBusinessRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoices.path,
          element: (
            <RequirePermission path={paths.invoices}>
              <LazyElement route={invoicesRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.invoiceDetail.path,
          element: (
            <RequirePermission path={paths.invoiceDetail}>
              <LazyElement route={invoiceDetailRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.installmentPlans.path,
          element: (
            <RequirePermission path={paths.installmentPlans}>
              <LazyElement route={installmentPlansRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.installmentPlanDetail.path,
          element: (
            <RequirePermission path={paths.installmentPlanDetail}>
              <LazyElement route={installmentPlanDetailRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.installmentRegister.path,
          element: (
            <RequirePermission path={paths.installmentRegister}>
              <LazyElement route={installmentRegisterRoute} />
            </RequirePermission>
          ),
        },
        { path: paths.invoiceMessages.path, element: <LazyElement route={invoiceMessagesRoute} /> },
        {
          path: paths.transferCosts.path,
          element: (
            <RequirePermission path={paths.transferCosts}>
              <LazyElement route={transferCostsRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.reportsPayments.path,
          element: (
            <RequirePermission path={paths.reportsPayments}>
              <LazyElement route={reportsPaymentsRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.verifyBankAccount.path,
          element: (
            <RequirePermission path={paths.verifyBankAccount}>
              <LazyElement route={verifyBankAccountRoute} />
            </RequirePermission>
          ),
        },
        {
          path: paths.verifyBankAccountSuccess.path,
          element: (
            <RequirePermission path={paths.verifyBankAccountSuccess}>
              <LazyElement route={verifyBankAccountSuccessRoute} />
            </RequirePermission>
          ),
        },
        { path: paths.forbidden.path, element: <LazyElement route={forbiddenRoute} /> },
        { path: '*', element: <LazyElement route={notFoundRoute} /> },
      ],
    },
  ];
}

const appRoutes = createRoutes();

/**
 * The routes rendered under a <BrowserRouter>: the app uses no loader, action or blocker, and the
 * declarative router is half the size of the data router (createBrowserRouter), which the login page
 * would otherwise download before its form.
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}
