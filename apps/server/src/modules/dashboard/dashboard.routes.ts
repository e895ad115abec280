import { dashboardResponseSchema } from '@portal/contracts';
import { todayIn } from '../../lib/today';
import { routeModule, signedIn } from '../../routes/define';
import { loadDashboard } from './dashboard.service';

/** The dashboard (spec §1): HTTP only; the figures are read in dashboard.service.ts. */
export const dashboardRoutes = routeModule(['dashboard'], (route, ctx) => {
  route(
    'getDashboard',
    'The dashboard (spec §1): top 10 customers, sales per day (30 days) and month (12 months), overdue buckets; installment plans by state group with contract financing',
    { ok: dashboardResponseSchema },
    async (request) => loadDashboard(ctx.db, signedIn(request), todayIn(ctx.now())),
  );
});
