import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';

/** Stands at the page a form goes to after saving, and says where it is and with what state. */
export function DetailProbe() {
  const location = useLocation();
  return (
    <p>
      At {location.pathname} with {JSON.stringify(location.state)}
    </p>
  );
}

/** Types into the recipient picker of an invoice form and picks the recipient called `name`. */
export async function pickRecipient(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.type(screen.getByRole('combobox', { name: /Recipient/ }), name);
  await user.click(await screen.findByRole('option', { name: new RegExp(name) }));
}
