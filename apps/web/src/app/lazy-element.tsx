import { Component, type ErrorInfo, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/ui/button';
import { Spinner } from '../components/ui/spinner';
import { ChunkLoadTimeoutError, type LazyRoute } from '../lib/lazy-route';

function isChunkError(error: unknown): boolean {
  if (error instanceof ChunkLoadTimeoutError) return true;
  const message = error instanceof Error ? error.message : '';
  return /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(message);
}

function RouteLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="page page--center" role="alert">
      <h1 className="page__title">{t('common:errors.title')}</h1>
      <p>{isChunkError(error) ? t('errors:client.chunk_load') : t('errors:client.generic')}</p>
      <Button label={t('common:actions.retry')} onClick={onRetry} />
    </div>
  );
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo) {}

  override render() {
    if (this.state.error !== null) {
      return (
        <RouteLoadError
          error={this.state.error}
          onRetry={() => {
            this.props.onRetry();
            this.setState({ error: null });
          }}
        />
      );
    }
    return this.props.children;
  }
}

function PageSpinner() {
  return (
    <div className="page page--center">
      <Spinner size="large" />
    </div>
  );
}

/**
 * Renders a code-split route (spec §9): a spinner while the chunk loads, and a translated error with
 * Retry when loading fails or passes CHUNK_LOAD_TIMEOUT_MS.
 */
export function LazyElement({ route }: { route: LazyRoute }) {
  const Page = route.get();
  return (
    <RouteErrorBoundary onRetry={route.reset}>
      <Suspense fallback={<PageSpinner />}>
        <Page />
      </Suspense>
    </RouteErrorBoundary>
  );
}
