import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { renderWithProviders } from './render';

/** Stands at the page a form goes to after saving, and says where it is and with what state. */
export function DetailProbe() {
  const location = useLocation();
  return (
    <p>
      At {location.pathname} with {JSON.stringify(location.state)}
    </p>
  );
}

/** Renders `form` at `path`, with the DetailProbe at an invoice's page for where it goes after saving. */
export function renderFormAt(path: string, form: ReactElement) {
  renderWithProviders(
    <Routes>
      <Route path={path} element={form} />
      <Route path="/invoices/:id" element={<DetailProbe />} />
    </Routes>,
    { path },
  );
}

/** Types into the recipient picker of an invoice form and picks the recipient called `name`. */
export async function pickRecipient(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.type(screen.getByRole('combobox', { name: /Recipient/ }), name);
  await user.click(await screen.findByRole('option', { name: new RegExp(name) }));
}
