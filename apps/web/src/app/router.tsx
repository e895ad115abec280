import type { ComponentType } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { type AppPath, paths } from '../config/paths';
import { startupTextsLoaded } from '../lib/i18n';
import { type LazyRoute, lazyRoute as lazyChunk } from '../lib/lazy-route';
import { PublicOnly, RequireAuth, RequirePermission } from './guards';
import { LazyElement } from './lazy-element';

/**
 * A code-split screen: the component exported as `name` (else the default export) by the module `load`
 * imports, rendered once its chunk and the startup texts of the language (a chunk of their own, fetched
 * alongside) have both loaded.
 */
function lazyRoute<M extends Record<N, ComponentType>, N extends string = 'default'>(
  load: () => Promise<M>,
  name: N = 'default' as N,
): LazyRoute {
  return lazyChunk(() =>
    Promise.all([load(), startupTextsLoaded()]).then(([chunk]) => ({ default: chunk[name] })),
  );
}

// Every screen is code-split (spec §9); what /login downloads is what the size check measures.
// The signed-in shell too, so that the login page does not load the menu, account and report code.
const rootLayoutRoute = lazyRoute(() => import('./layouts/root-layout'), 'RootLayout');
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
const invoiceEditRoute = lazyRoute(() => import('./routes/invoice-register'), 'InvoiceEditRoute');
const invoicesDuplicateRoute = lazyRoute(() => import('./routes/invoice-register'), 'InvoicesDuplicateRoute');
const invoiceSendRoute = lazyRoute(() => import('./routes/invoice-send'));
const invoiceSendBusinessRoute = lazyRoute(() => import('./routes/invoice-send-business'));
const invoicesRoute = lazyRoute(() => import('./routes/invoices'));
const invoiceDetailRoute = lazyRoute(() => import('./routes/invoice-detail'));
const invoiceMessagesRoute = lazyRoute(() => import('./routes/invoice-messages'));
const installmentPlansRoute = lazyRoute(() => import('./routes/installment-plans'));
// The plan's page and the register form are in the list's chunk (routes/installment-plans.tsx).
const installmentPlanDetailRoute = lazyRoute(
  () => import('./routes/installment-plans'),
  'InstallmentPlanDetailRoute',
);
const installmentRegisterRoute = lazyRoute(
  () => import('./routes/installment-plans'),
  'InstallmentRegisterRoute',
);
const transferCostsRoute = lazyRoute(() => import('./routes/transfer-costs'));
const reportsPaymentsRoute = lazyRoute(() => import('./routes/reports-payments'));
const reportsLedgerRoute = lazyRoute(() => import('./routes/reports-ledger'));
const verifyBankAccountRoute = lazyRoute(() => import('./routes/verify-bank-account'));
// One chunk for both bank-verification screens: as two, the bundler moved a module of the login page
// into a chunk of its own (one more request before the login form; docs/BENCHMARKS.md).
const verifyBankAccountSuccessRoute = lazyRoute(
  () => import('./routes/verify-bank-account'),
  'VerifyBankAccountSuccessRoute',
);
const forbiddenRoute = lazyRoute(() => import('./routes/forbidden'));
const notFoundRoute = lazyRoute(() => import('./routes/not-found'));

/** A page for visitors only (the sign-in pages): a signed-in user is sent on (PublicOnly). */
function publicOnly(path: AppPath, route: LazyRoute): RouteObject {
  return {
    path: path.path,
    element: (
      <PublicOnly>
        <LazyElement route={route} />
      </PublicOnly>
    ),
  };
}

/** A page every user may open. */
function ungated(path: AppPath, route: LazyRoute): RouteObject {
  return { path: path.path, element: <LazyElement route={route} /> };
}

/**
 * A page of the signed-in shell that needs the ability its entry in the contracts' PAGES names; a
 * user without it is sent to /403 (RequirePermission).
 */
function gated(path: AppPath, route: LazyRoute): RouteObject {
  return {
    path: path.path,
    element: (
      <RequirePermission path={path}>
        <LazyElement route={route} />
      </RequirePermission>
    ),
  };
}

/** The routes of spec §2 and the detail pages; the catch-all shows 404 (or 403 for a gated path). */
export function createRoutes(): RouteObject[] {
  return [
    publicOnly(paths.login, loginRoute),
    publicOnly(paths.groupLogin, groupLoginRoute),
    ungated(paths.passwordReset, passwordResetRoute),
    {
      path: '/',
      element: (
        <RequireAuth>
          <LazyElement route={rootLayoutRoute} />
        </RequireAuth>
      ),
      children: [
        { index: true, element: <LazyElement route={homeRoute} /> },
        ungated(paths.recipient, recipientRoute),
        gated(paths.reportsLedger, reportsLedgerRoute),
        gated(paths.articles, articlesRoute),
        gated(paths.invoiceRegister, invoiceRegisterRoute),
        gated(paths.invoiceFileUpload, invoiceFileUploadRoute),
        gated(paths.invoiceUpload, invoiceUploadRoute),
        gated(paths.invoiceEdit, invoiceEditRoute),
        gated(paths.invoicesDuplicate, invoicesDuplicateRoute),
        gated(paths.invoiceSend, invoiceSendRoute),
        gated(paths.invoiceSendBusiness, invoiceSendBusinessRoute),
        gated(paths.invoices, invoicesRoute),
        gated(paths.invoiceDetail, invoiceDetailRoute),
        gated(paths.installmentPlans, installmentPlansRoute),
        gated(paths.installmentPlanDetail, installmentPlanDetailRoute),
        gated(paths.installmentRegister, installmentRegisterRoute),
        ungated(paths.invoiceMessages, invoiceMessagesRoute),
        gated(paths.transferCosts, transferCostsRoute),
        gated(paths.reportsPayments, reportsPaymentsRoute),
        gated(paths.verifyBankAccount, verifyBankAccountRoute),
        gated(paths.verifyBankAccountSuccess, verifyBankAccountSuccessRoute),
        ungated(paths.forbidden, forbiddenRoute),
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
