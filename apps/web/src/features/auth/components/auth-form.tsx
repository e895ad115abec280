import type { ReactNode } from 'react';

/**
 * One view of the sign-in screen (credentials, reset request, two-factor code): the auth-form box,
 * named for screen readers by `label`. The browser's own checks are off, since the contract's rules
 * answer instead, and a submit stays on the page and calls `onSubmit`.
 */
export function AuthForm({
  label,
  onSubmit,
  children,
}: {
  label: string;
  onSubmit: () => void | Promise<void>;
  children: ReactNode;
}) {
  return (
    <form
      className="auth-form"
      noValidate
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}
