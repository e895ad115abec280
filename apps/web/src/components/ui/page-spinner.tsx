import { Spinner } from './spinner';

/** The large spinner in the middle of a page (or of a list's place) while what it shows loads. */
export function PageSpinner() {
  return (
    <div className="page--center">
      <Spinner size="large" />
    </div>
  );
}
