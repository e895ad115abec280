import { useCallback, useRef, useState } from 'react';

export interface ActionHandlers<R> {
  onSuccess?: (result: R) => void;
  onError?: (error: unknown) => void;
}

export interface Action<V, R> {
  /** True from a call until its answer (or failure) has come. */
  isPending: boolean;
  /** Runs the action; the handlers get its result or its error. */
  mutate: (variables: V, handlers?: ActionHandlers<R>) => void;
}

/**
 * A one-shot server call with its pending state, for the pages before sign-in. The login page uses it
 * instead of react-query's useMutation: it caches nothing, and react-query's client would otherwise
 * be part of the code the browser downloads before the login form.
 */
export function useAction<V, R>(run: (variables: V) => Promise<R>): Action<V, R> {
  const [isPending, setPending] = useState(false);
  const runRef = useRef(run);
  runRef.current = run;
  const mutate = useCallback((variables: V, handlers: ActionHandlers<R> = {}) => {
    setPending(true);
    runRef.current(variables).then(
      (result) => {
        setPending(false);
        handlers.onSuccess?.(result);
      },
      (error: unknown) => {
        setPending(false);
        handlers.onError?.(error);
      },
    );
  }, []);
  return { isPending, mutate };
}
