import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { initAnalytics } from './lib/analytics';
import { initI18n } from './lib/i18n';
import { loadSchemas } from './lib/load-schemas';
import { createQueryClient } from './lib/query-client';
import './styles/index.css';

initI18n();
const queryClient = createQueryClient();
const router = createAppRouter();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

// After the first render, so that loading analytics never delays the page (spec §4: off until then).
void initAnalytics();
// The contract schemas are split off the login bundle (lib/schemas.ts); fetch them while the user types.
void loadSchemas();
